// Skipping the inside of a JSON string: the search json_extent, json_call_tracker and the
// converters' string readers use.
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

namespace toolstream::detail {

/// Finds each next `"` or `\` of a range in one pass. The next position of each is searched with
/// memchr only once it has been passed, so every byte is searched at most once per character
/// whatever the number of escapes (a search for both at every escape would rescan to the closing
/// quote each time). Make one per range read.
class string_skip {
public:
    string_skip(std::string_view text, std::size_t limit) noexcept : text_(text), limit_(limit) {}

    /// The position of the first `"` or `\` in text[from, limit), or limit.
    std::size_t next(std::size_t from) noexcept
    {
        // A few bytes (a small feed's) are stepped through: two searches' setup would cost more.
        if (from < limit_ && limit_ - from < short_range) {
            while (from < limit_ && text_[from] != '"' && text_[from] != '\\')
                ++from;
            return from;
        }
        if (!searched_ || quote_ < from)
            quote_ = find(from, '"');
        if (!searched_ || backslash_ < from)
            backslash_ = find(from, '\\');
        searched_ = true;
        return quote_ < backslash_ ? quote_ : backslash_;
    }

    /// The position of the quote that closes a string, given `special`, the first `"` or `\` after
    /// its opening quote (from next()); limit when the string does not close before it.
    std::size_t closing_quote(std::size_t special) noexcept
    {
        while (special < limit_ && text_[special] == '\\')
            special = next(special + 2);   // the escaped byte is never the end
        return special;
    }

private:
    static constexpr std::size_t short_range = 16;

    std::size_t find(std::size_t from, char c) const noexcept
    {
        if (from >= limit_)
            return limit_;
        const void* hit = std::memchr(text_.data() + from, c, limit_ - from);
        return hit != nullptr ? static_cast<std::size_t>(static_cast<const char*>(hit) - text_.data()) : limit_;
    }

    std::string_view text_;
    std::size_t limit_;
    std::size_t quote_ = 0;
    std::size_t backslash_ = 0;
    bool searched_ = false;
};

} // namespace toolstream::detail
