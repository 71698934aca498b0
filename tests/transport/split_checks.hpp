// Shared by the SSE and NDJSON decoder tests: decoding gives the same result however the input is
// split into writes.
#pragma once

#include "catch_compat.hpp"

#include <cstddef>
#include <string_view>
#include <vector>

namespace toolstream::test {

// `decode_pieces` takes the writes as a `const std::vector<std::string_view>&` (a braced list of
// pieces must convert to it) and returns what they decoded to, comparable with `expected`.
// The whole write gives `expected`, and so does every split into two writes (three for short
// inputs) and 1-byte writes.
template <class DecodePieces, class Decoded>
void check_splits_with(const DecodePieces& decode_pieces, std::string_view in, const Decoded& expected)
{
    REQUIRE(decode_pieces({in}) == expected);
    for (std::size_t i = 0; i <= in.size(); ++i) {
        INFO("split at " << i);
        REQUIRE(decode_pieces({in.substr(0, i), in.substr(i)}) == expected);
        if (in.size() > 300)
            continue;
        for (std::size_t j = i; j <= in.size(); ++j) {
            INFO("and at " << j);
            REQUIRE(decode_pieces({in.substr(0, i), in.substr(i, j - i), in.substr(j)}) == expected);
        }
    }
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < in.size(); ++i)
        bytes.push_back(in.substr(i, 1));
    REQUIRE(decode_pieces(bytes) == expected);
}

} // namespace toolstream::test
