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
    /// the value closes in it, then up to and including its closing bracket).
    std::size_t scan(std::string_view w) noexcept
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
            }
        }
        return w.size();
    }

    /// The value's closing bracket was read.
    bool closed() const noexcept { return closed_; }

private:
    std::size_t depth_ = 0;
    bool in_string_ = false;
    bool escape_ = false;
    bool closed_ = false;
};

} // namespace toolstream::detail
