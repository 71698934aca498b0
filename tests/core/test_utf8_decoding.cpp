// The strict UTF-8 functions of detail/utf8.hpp against UTF-8 by definition: the encodings of the
// Unicode scalar values, built here from their bits, and every other byte sequence.
#include "catch_compat.hpp"

#include <toolstream/detail/utf8.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_set>

namespace test_utf8_decoding {

namespace {

using toolstream::detail::decode_utf8;
using toolstream::detail::invalid_utf8_length;
using toolstream::detail::utf8_sequence_length;

// The UTF-8 encoding of a scalar value, from Unicode's table 3-6.
std::string encode(std::uint32_t cp)
{
    const auto b = [](std::uint32_t v) { return static_cast<char>(v); };
    if (cp < 0x80)
        return {b(cp)};
    if (cp < 0x800)
        return {b(0xC0 | (cp >> 6)), b(0x80 | (cp & 0x3F))};
    if (cp < 0x10000)
        return {b(0xE0 | (cp >> 12)), b(0x80 | ((cp >> 6) & 0x3F)), b(0x80 | (cp & 0x3F))};
    return {b(0xF0 | (cp >> 18)), b(0x80 | ((cp >> 12) & 0x3F)), b(0x80 | ((cp >> 6) & 0x3F)), b(0x80 | (cp & 0x3F))};
}

bool is_scalar_value(std::uint32_t cp) { return cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF); }

// Up to 4 bytes packed with their length, so that sets of sequences stay small.
std::uint64_t pack(std::string_view s)
{
    std::uint64_t v = s.size();
    for (const char c : s)
        v = (v << 8) | static_cast<unsigned char>(c);
    return v;
}

struct utf8_by_definition {
    std::unordered_set<std::uint64_t> whole;      // every scalar value's encoding
    std::unordered_set<std::uint64_t> unfinished;  // every proper, non-empty prefix of one
    utf8_by_definition()
    {
        for (std::uint32_t cp = 0; cp <= 0x10FFFF; ++cp) {
            if (!is_scalar_value(cp))
                continue;
            const std::string e = encode(cp);
            whole.insert(pack(e));
            for (std::size_t k = 1; k < e.size(); ++k)
                unfinished.insert(pack(std::string_view(e).substr(0, k)));
        }
    }
    // What utf8_sequence_length must say of `s` (which holds at most one character's bytes).
    int length(std::string_view s) const
    {
        for (std::size_t k = 1; k <= s.size(); ++k)
            if (whole.count(pack(s.substr(0, k))) != 0)
                return static_cast<int>(k);
        return unfinished.count(pack(s)) != 0 ? 0 : -1;
    }
    // The maximal subpart at the start of `s`: its longest prefix that could still begin a character.
    std::size_t maximal_subpart(std::string_view s) const
    {
        std::size_t k = 1;
        while (k < s.size() && unfinished.count(pack(s.substr(0, k + 1))) != 0)
            ++k;
        return k;
    }
};

const utf8_by_definition& reference()
{
    static const utf8_by_definition r;
    return r;
}

// Whether the library's three views of `s` agree with the reference; checked without an assertion
// per sequence, which would make the millions of them slow under the sanitizers.
bool agrees(std::string_view s)
{
    const int expected = reference().length(s);
    if (utf8_sequence_length(s.data(), s.size()) != expected)
        return false;
    std::uint32_t cp = 0;
    const std::size_t decoded = decode_utf8(s, 0, cp);
    if (decoded != static_cast<std::size_t>(expected > 0 ? expected : 0))
        return false;
    if (expected > 0)
        return encode(cp) == s.substr(0, decoded);
    return invalid_utf8_length(s, 0) == (expected == 0 ? s.size() : reference().maximal_subpart(s));
}

struct sequence_check {
    std::size_t checked = 0;
    std::string first_disagreement;   // hex bytes
    void operator()(std::initializer_list<unsigned> bytes)
    {
        std::string s;
        for (const unsigned b : bytes)
            s += static_cast<char>(b);
        ++checked;
        if (first_disagreement.empty() && !agrees(s))
            for (const unsigned b : bytes)
                first_disagreement += "0123456789ABCDEF"[b >> 4], first_disagreement += "0123456789ABCDEF"[b & 15];
    }
};

} // namespace

TEST_CASE("utf8: every scalar value decodes to itself and each of its prefixes is unfinished", "[utf8]")
{
    std::size_t checked = 0;
    for (std::uint32_t cp = 0; cp <= 0x10FFFF; ++cp) {
        if (!is_scalar_value(cp))
            continue;
        const std::string e = encode(cp);
        std::uint32_t decoded = 0;
        const bool whole = decode_utf8(e, 0, decoded) == e.size() && decoded == cp
                           && utf8_sequence_length(e.data(), e.size()) == static_cast<int>(e.size());
        bool unfinished = true;
        for (std::size_t k = 1; k < e.size(); ++k)
            unfinished = unfinished && utf8_sequence_length(e.data(), k) == 0 && decode_utf8(e.substr(0, k), 0, decoded) == 0;
        if (!whole || !unfinished)
            FAIL("code point " << cp);
        ++checked;
    }
    CHECK(checked == 0x10FFFF + 1 - 0x800);
}

TEST_CASE("utf8: every 1- and 2-byte sequence, every 3-byte one with an E0-EF lead, and 4-byte ones", "[utf8]")
{
    sequence_check check;
    for (unsigned a = 0; a < 256; ++a) {
        check({a});
        for (unsigned b = 0; b < 256; ++b)
            check({a, b});
    }
    for (unsigned a = 0xE0; a <= 0xEF; ++a)
        for (unsigned b = 0; b < 256; ++b)
            for (unsigned c = 0; c < 256; c += (b & 0xC0) == 0x80 ? 1 : 0x3F)
                check({a, b, c});
    // Each F0-F7 lead with every second byte, and third and fourth bytes at the edges of the
    // continuation range and beyond.
    for (unsigned a = 0xF0; a <= 0xF7; ++a)
        for (unsigned b = 0; b < 256; ++b)
            for (const unsigned c : {0x7Fu, 0x80u, 0xA5u, 0xBFu, 0xC0u})
                for (const unsigned d : {0x00u, 0x80u, 0xBFu, 0xC0u, 0xFFu})
                    check({a, b, c, d});
    CHECK(check.first_disagreement == "");
    CHECK(check.checked == 256 + 65536 + 16 * 64 * 256 + 16 * 192 * 5 + 8 * 256 * 25);
}

TEST_CASE("utf8: valid_utf8_prefix ends at the first invalid byte wherever it stands", "[utf8]")
{
    // ASCII is passed over eight bytes at a time: the byte that stops it may stand at any offset
    // of a word, and a valid character after ASCII must not stop it.
    using toolstream::detail::valid_utf8_prefix;
    for (std::size_t at = 0; at <= 24; ++at) {
        INFO(at);
        const std::string ascii(at, 'a');
        CHECK(valid_utf8_prefix(ascii) == at);
        CHECK(valid_utf8_prefix(ascii + "\xFF" + std::string(9, 'b')) == at);
        CHECK(valid_utf8_prefix(ascii + "\xE2\x82") == at);   // cut character
        CHECK(valid_utf8_prefix(ascii + "\xE2\x82\xAC" + std::string(9, 'b')) == at + 12);
        CHECK(valid_utf8_prefix(ascii + "\xF0\x9F\x98\x80" + std::string(at, 'c') + "\xC0\xAF") == 2 * at + 4);
    }
}

} // namespace test_utf8_decoding
