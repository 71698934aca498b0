// ASCII text helpers every stage shares: JSON's whitespace (RFC 8259 §2: space, tab, CR, LF), the
// one definition of a blank for framing, converters, policies and the argument contract, an inlined
// equality for per-event name dispatch, and an ASCII case-insensitive comparison (tag names, tool
// names, literal words).
#pragma once

#include <algorithm>
#include <string_view>

namespace toolstream::detail {

inline constexpr std::string_view json_whitespace = " \t\r\n";

constexpr bool is_blank(char c) noexcept
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/// The index of the first non-blank character of `s` at or after `i` (s.size() when none). A loop,
/// not find_first_not_of, which calls memchr on the set of blanks for every character it looks at.
constexpr std::size_t skip_blanks(std::string_view s, std::size_t i) noexcept
{
    while (i < s.size() && is_blank(s[i]))
        ++i;
    return std::min(i, s.size());
}

/// True when `s` is empty or all blanks.
constexpr bool all_blank(std::string_view s) noexcept
{
    return skip_blanks(s, 0) == s.size();
}

/// `s` from its first non-blank character (empty when all blank).
constexpr std::string_view skip_blanks(std::string_view s) noexcept
{
    return s.substr(skip_blanks(s, 0));
}

/// `s` without leading and trailing blanks.
constexpr std::string_view trim_blanks(std::string_view s) noexcept
{
    s = skip_blanks(s);
    std::size_t end = s.size();
    while (end > 0 && is_blank(s[end - 1]))
        --end;
    return s.substr(0, end);
}

/// `a == b`. Unlike string_view's `==`, which compares three ways through a call that large
/// translation units leave out of line, this is inlined to a few loads where `b` is a literal:
/// the per-event dispatch on field, event and type names uses it.
constexpr bool equals(std::string_view a, std::string_view b) noexcept
{
    return a.size() == b.size() && std::char_traits<char>::compare(a.data(), b.data(), a.size()) == 0;
}

/// `a == b`, ASCII letters compared case-insensitively.
constexpr bool iequals_ascii(std::string_view a, std::string_view b) noexcept
{
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c; };
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [&](char x, char y) { return lower(x) == lower(y); });
}

} // namespace toolstream::detail
