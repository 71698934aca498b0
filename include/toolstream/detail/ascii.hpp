// ASCII text helpers every stage shares: JSON's whitespace (RFC 8259 §2: space, tab, CR, LF), the
// one definition of a blank for framing, converters, policies and the argument contract, and an
// ASCII case-insensitive comparison (tag names, tool names, literal words).
#pragma once

#include <algorithm>
#include <string_view>

namespace toolstream::detail {

inline constexpr std::string_view json_whitespace = " \t\r\n";

constexpr bool is_blank(char c) noexcept
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/// True when `s` is empty or all blanks.
constexpr bool all_blank(std::string_view s) noexcept
{
    return s.find_first_not_of(json_whitespace) == std::string_view::npos;
}

/// `s` from its first non-blank character (empty when all blank).
constexpr std::string_view skip_blanks(std::string_view s) noexcept
{
    const std::size_t first = s.find_first_not_of(json_whitespace);
    return first == std::string_view::npos ? std::string_view{} : s.substr(first);
}

/// The index of the first non-blank character of `s` at or after `i` (s.size() when none).
constexpr std::size_t skip_blanks(std::string_view s, std::size_t i) noexcept
{
    return std::min(s.find_first_not_of(json_whitespace, i), s.size());
}

/// `s` without leading and trailing blanks.
constexpr std::string_view trim_blanks(std::string_view s) noexcept
{
    s = skip_blanks(s);
    return s.substr(0, s.find_last_not_of(json_whitespace) + 1);
}

/// `a == b`, ASCII letters compared case-insensitively.
constexpr bool iequals_ascii(std::string_view a, std::string_view b) noexcept
{
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c; };
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [&](char x, char y) { return lower(x) == lower(y); });
}

} // namespace toolstream::detail
