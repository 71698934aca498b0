// The fuzz input layout shared by the libFuzzer targets (fuzz_support.hpp): a 4-byte header of
// options and a seed before the body, the chunking the header picks, and the reading of an input.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>
#include <vector>

namespace toolstream::fuzz {

/// A fuzz input: a 4-byte header, then the body the target decodes. Header byte 0 holds options
/// (bits 0-1 the largest piece of the chunking; higher bits are the target's own), bytes 1-3
/// seed the piece sizes. run.sh puts such a header before every seed file.
struct input {
    std::uint8_t options = 0;
    std::uint32_t seed = 0;
    std::string_view body;

    /// `bits` bits of the options from bit `first` (targets use bits 2-7).
    unsigned option(unsigned first, unsigned bits) const noexcept
    {
        return (options >> first) & ((1u << bits) - 1);
    }
};

inline constexpr std::size_t header_size = 4;

/// Piece sizes drawn from the header's seed, 1 to 1, 7, 64 or 1024 bytes (header bits 0-1).
class piece_sizes {
public:
    explicit piece_sizes(const input& in) : state_(in.seed * 2654435761u | 1u), largest_(largest[in.options & 3]) {}

    std::size_t next() noexcept
    {
        state_ ^= state_ << 13;   // xorshift32
        state_ ^= state_ >> 17;
        state_ ^= state_ << 5;
        return 1 + state_ % largest_;
    }

private:
    static constexpr std::uint32_t largest[] = {1, 7, 64, 1024};
    std::uint32_t state_;
    std::uint32_t largest_;
};

/// `bytes` cut into pieces of the sizes `in` gives. Past 64 KiB every piece is longer by
/// 1/65536 of the input, so a grown input is cut into at most about 65536 pieces and runs in
/// seconds; smaller inputs are cut as the header says.
inline std::vector<std::string_view> chunking(std::string_view bytes, const input& in)
{
    piece_sizes sizes(in);
    const std::size_t extra = bytes.size() >> 16;
    std::vector<std::string_view> pieces;
    for (std::size_t at = 0; at < bytes.size();) {
        const std::size_t n = std::min(bytes.size() - at, extra + sizes.next());
        pieces.push_back(bytes.substr(at, n));
        at += n;
    }
    return pieces;
}

/// The largest input run so far is printed at each new power of two (run.sh reports the last).
inline void note_size(std::size_t size)
{
    static std::size_t reported = 0;
    if (size < 2 * reported || size < 1024)
        return;
    reported = size;
    std::fprintf(stderr, "toolstream fuzz: largest input so far %zu bytes\n", size);
}

inline std::optional<input> read_input(const std::uint8_t* data, std::size_t size)
{
    note_size(size);
    if (size < header_size)
        return std::nullopt;
    input in;
    in.options = data[0];
    in.seed = std::uint32_t{data[1]} | std::uint32_t{data[2]} << 8 | std::uint32_t{data[3]} << 16;
    in.body = {reinterpret_cast<const char*>(data) + header_size, size - header_size};
    return in;
}

} // namespace toolstream::fuzz
