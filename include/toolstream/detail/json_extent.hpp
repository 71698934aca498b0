// Where a JSON value that arrives in pieces ends: the one extent scanner of the library's JSON
// readers (a container's brackets balance outside strings, a string's quote closes, a scalar's
// delimiter follows).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/byte_words.hpp>
#include <toolstream/detail/json_string_skip.hpp>

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace toolstream::detail {

/// A marker that, standing outside a JSON string, ends a value the model left open: the call's
/// closing marker (or, in a format without one, the next call's opening) written before its JSON
/// closed. A marker whose first byte no JSON writes outside a string (`<`, a backtick, `;`: see
/// can_stop_at) stops at that byte. Any other (`[TOOL_CALLS]`) stops only where it stands whole;
/// a prefix of it at the end of the bytes read is held (at most its size - 1 bytes) until more
/// arrive, so the verdict is the same at every chunking.
class json_stop {
public:
    enum class verdict { none, stop, held };

    json_stop() = default;

    /// `marker` (empty: no stop) must outlive the stop.
    constexpr explicit json_stop(std::string_view marker) noexcept
        : marker_(marker), first_(marker.empty() ? '\0' : marker.front())
    {
    }

    /// The marker's first byte: at() needs asking only where it stands (0 when there is none).
    constexpr char first() const noexcept { return first_; }

    /// What `w[i]`, a byte outside a string, begins: the marker, a prefix of it that `w` cuts
    /// (held), or neither.
    constexpr verdict at(std::string_view w, std::size_t i) const noexcept
    {
        if (marker_.empty() || w[i] != first_)
            return verdict::none;
        if (can_stop_at(first_))
            return verdict::stop;
        const std::size_t n = std::min(marker_.size(), w.size() - i);
        if (w.substr(i, n) != marker_.substr(0, n))
            return verdict::none;
        return n == marker_.size() ? verdict::stop : verdict::held;
    }

    /// Whether `c` stops alone: no byte JSON writes outside its strings (brackets, `,` `:`,
    /// blanks, the characters of numbers and of true/false/null) can.
    static constexpr bool can_stop_at(char c) noexcept
    {
        const bool alphanumeric = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        return c != 0 && !alphanumeric && std::string_view("{}[],:\"+-. \t\r\n").find(c) == std::string_view::npos;
    }

private:
    std::string_view marker_;
    char first_ = '\0';
};

/// The extent of one JSON value read in pieces, from its first byte: a container ends at the
/// bracket that balances its opening one, a string at its closing quote, a scalar (a number,
/// `true`, `null`…) before the first `,` `}` `]` or blank after it (left unread). It does not
/// validate (a parser does that where it matters); it only finds the end, string aware (escaped
/// quotes included), in one pass whatever the chunking. Inside a string it jumps to the next `"`
/// or `\` (string_skip), so long strings (a file's content) cost no step per byte. Every reader
/// of model-written JSON finds a value's end here: the call tracker's arguments, a format's JSON
/// object arguments, a sentinel header, the structured policy's values and strings.
class json_extent {
public:
    /// A value whose first byte comes next.
    void reset() noexcept { *this = json_extent{}; }

    /// A string whose opening quote was read: the value ends at its closing quote.
    void reset_inside_string() noexcept
    {
        reset();
        in_string_ = true;
    }

    /// Reads `w`, the next bytes of the value; returns how many belong to it: all of `w`, unless
    /// the value ends in it (then up to and including its closing bracket or quote, or up to the
    /// byte after a scalar) or `stop` stands in it outside a string (then up to it: stopped()
    /// when it is whole; else its prefix ends `w` and is left unread, to be read again with the
    /// bytes after it).
    std::size_t scan(std::string_view w, const json_stop& stop = {}) noexcept
    {
        if (in_string_ && !escape_ && w.size() <= small_piece && no_quote_or_backslash(w))
            return w.size();   // a small feed inside a string: no loop to set up
        return scan_all(w, stop);
    }

    /// The value's end was read.
    bool closed() const noexcept { return closed_; }

    /// The scan stopped at its stop, whole outside a string: the value will not close.
    bool stopped() const noexcept { return stopped_; }

private:
    static constexpr std::size_t small_piece = 16;

    // `w` (at most small_piece bytes) holds no `"` and no `\\`: two overlapping words from 8
    // bytes on (a word test has no false flag where no byte is flagged), else byte by byte.
    static bool no_quote_or_backslash(std::string_view w) noexcept
    {
        if (w.size() >= 8)
            return (quote_or_backslash_flags(load_word(w.data())) | quote_or_backslash_flags(load_word(w.data() + w.size() - 8))) == 0;
        for (const char c : w)
            if (c == '"' || c == '\\')
                return false;
        return true;
    }

    std::size_t scan_all(std::string_view w, const json_stop& stop) noexcept
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
                if (w[i] == '\\') {
                    escape_ = true;
                    continue;
                }
                in_string_ = false;
                if (depth_ == 0)
                    return close(i + 1);
                continue;
            }
            const char c = w[i];
            if (c == stop.first()) {
                if (const auto v = stop.at(w, i); v != json_stop::verdict::none) {
                    stopped_ = v == json_stop::verdict::stop;
                    return i;
                }
            }
            if (scalar_) {
                if (c == ',' || c == '}' || c == ']' || is_blank(c))
                    return close(i);
            } else if (c == '"') {
                in_string_ = true;
            } else if (c == '{' || c == '[') {
                ++depth_;
            } else if (c == '}' || c == ']') {
                if (depth_ > 0 && --depth_ == 0)
                    return close(i + 1);
            } else if (depth_ == 0) {
                scalar_ = true;
            }
        }
        return w.size();
    }

    std::size_t close(std::size_t read) noexcept
    {
        closed_ = true;
        return read;
    }

    std::size_t depth_ = 0;
    bool in_string_ = false;
    bool escape_ = false;
    bool scalar_ = false;
    bool closed_ = false;
    bool stopped_ = false;
};

} // namespace toolstream::detail
