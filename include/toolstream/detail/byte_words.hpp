// Eight bytes at a time: the word tests the UTF-8 and JSON string scanners share. Each test
// returns the high bit of every byte of interest in a word (eight bytes in memory order). On a
// little-endian machine the lowest flag is exact; a false flag only ever lies above a true one,
// since a borrow runs upward, so a scanner reads the first flag and nothing past it.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace toolstream::detail {

inline constexpr std::uint64_t word_ones = 0x0101010101010101u;
inline constexpr std::uint64_t word_highs = 0x8080808080808080u;

/// The eight bytes at `p`, in memory order.
inline std::uint64_t load_word(const char* p) noexcept
{
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
}

/// The bytes that are not ASCII.
constexpr std::uint64_t non_ascii_flags(std::uint64_t w) noexcept
{
    return w & word_highs;
}

/// The bytes that end a JSON string's plain run: `"` and `\\`.
constexpr std::uint64_t quote_or_backslash_flags(std::uint64_t w) noexcept
{
    const auto zero_bytes = [](std::uint64_t v) noexcept { return (v - word_ones) & ~v & word_highs; };
    return zero_bytes(w ^ (word_ones * '"')) | zero_bytes(w ^ (word_ones * '\\'));
}

/// The bytes JSON must escape in a string: a control character, `"` or `\\`.
constexpr std::uint64_t json_escape_flags(std::uint64_t w) noexcept
{
    // A byte below 0x20 (its high bit clear and w - 0x20 borrowing), or equal to `"` or `\\`.
    const std::uint64_t control = (w - word_ones * 0x20) & ~w & word_highs;
    return control | quote_or_backslash_flags(w);
}

/// The bytes a JSON string's text does not hold as they are: those JSON escapes, and those that
/// start or continue a UTF-8 sequence.
constexpr std::uint64_t json_special_flags(std::uint64_t w) noexcept
{
    return json_escape_flags(w) | non_ascii_flags(w);
}

/// The index of the first flagged byte of a word whose flags are `flags` (not 0). Little-endian
/// only: a caller tests std::endian::native first.
constexpr std::size_t first_flagged_byte(std::uint64_t flags) noexcept
{
    return static_cast<std::size_t>(std::countr_zero(flags)) / 8;
}

} // namespace toolstream::detail
