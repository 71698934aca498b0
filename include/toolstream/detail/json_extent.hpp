// Where a JSON object or array that arrives in pieces ends: its brackets balance outside strings.
#pragma once

#include <toolstream/detail/json_string_skip.hpp>

#include <cstddef>
#include <string_view>

namespace toolstream::detail {

/// The extent of one JSON container read in pieces, starting at its opening bracket. It does not
/// validate (a parser does that where it matters); it only finds the closing bracket, string
/// aware (escaped quotes included), in one pass whatever the chunking. Inside a string it jumps
/// to the next `"` or `\` (string_skip), so long strings (a file's content) cost no step per byte.
class json_extent {
public:
    void reset() noexcept { *this = json_extent{}; }

    /// Reads `w`, the next bytes of the value; returns how many belong to it (all of `w` unless
    /// the value closes in it, then up to and including its closing bracket). `stop`, a byte no
    /// JSON holds outside a string (see can_stop_at), ends the scan before it when it stands
    /// outside a string (stopped()): the first byte of a marker the model wrote into JSON it did
    /// not close. Zero: no stop.
    std::size_t scan(std::string_view w, char stop = 0) noexcept
    {
        string_skip skip(w, w.size());
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (in_string_) {
                if (escape_) {
                    escape_ = false;
                    continue;
                }
                i = skip.next(i);
                if (i == w.size())
                    return w.size();
                if (w[i] == '\\')
                    escape_ = true;
                else
                    in_string_ = false;
                continue;
            }
            const char c = w[i];
            if (c == '"') {
                in_string_ = true;
            } else if (c == '{' || c == '[') {
                ++depth_;
            } else if ((c == '}' || c == ']') && depth_ > 0 && --depth_ == 0) {
                closed_ = true;
                return i + 1;
            } else if (c == stop && stop != 0) {
                stopped_ = true;
                return i;
            }
        }
        return w.size();
    }

    /// The value's closing bracket was read.
    bool closed() const noexcept { return closed_; }

    /// The scan stopped at its `stop` byte outside a string: the value will not close.
    bool stopped() const noexcept { return stopped_; }

    /// Whether `c` can be a stop: no byte JSON writes outside its strings (brackets, `,` `:`,
    /// blanks, the characters of numbers and of true/false/null) can.
    static constexpr bool can_stop_at(char c) noexcept
    {
        const bool alphanumeric = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        return c != 0 && !alphanumeric && std::string_view("{}[],:\"+-. \t\r\n").find(c) == std::string_view::npos;
    }

private:
    std::size_t depth_ = 0;
    bool in_string_ = false;
    bool escape_ = false;
    bool closed_ = false;
    bool stopped_ = false;
};

} // namespace toolstream::detail
