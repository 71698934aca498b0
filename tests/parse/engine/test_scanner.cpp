#include <toolstream/parse/engine/detail/marker_scanner.hpp>

#include "catch_compat.hpp"

#include <array>
#include <random>
#include <string>

namespace test_scanner {

using toolstream::detail::find_marker;
using toolstream::detail::marker_match;
using toolstream::detail::scan_buffer;

namespace {

constexpr std::array<std::string_view, 2> seg_markers{"[[SEG_START", "[[SEG_END]]"};

// The definition, written naively: the oracle for the randomized test.
marker_match naive(std::string_view text, std::span<const std::string_view> markers, bool ignore_case)
{
    auto eq = [&](char a, char b) {
        return ignore_case ? toolstream::detail::scan::lower(static_cast<unsigned char>(a))
                                 == toolstream::detail::scan::lower(static_cast<unsigned char>(b))
                           : a == b;
    };
    for (std::size_t p = 0; p < text.size(); ++p)
        for (std::size_t i = 0; i < markers.size(); ++i) {
            auto m = markers[i];
            if (m.empty() || p + m.size() > text.size())
                continue;
            bool all = true;
            for (std::size_t k = 0; k < m.size() && all; ++k)
                all = eq(text[p + k], m[k]);
            if (all)
                return {p, i, false};
        }
    for (std::size_t p = 0; p < text.size(); ++p)
        for (auto m : markers) {
            if (m.empty() || text.size() - p >= m.size())
                continue;
            bool all = true;
            for (std::size_t k = 0; p + k < text.size() && all; ++k)
                all = eq(text[p + k], m[k]);
            if (all)
                return {p, marker_match::npos, true};
        }
    return {text.size(), marker_match::npos, false};
}

} // namespace

TEST_CASE("find_marker: full, partial and no match", "[scanner]")
{
    auto m = find_marker("ab [[SEG_START {", seg_markers);
    CHECK(m.position == 3);
    CHECK(m.marker == 0);
    CHECK(!m.prefix);

    m = find_marker("text [[SEG_", seg_markers);
    CHECK(m.position == 5);
    CHECK(m.marker == marker_match::npos);
    CHECK(m.prefix);

    m = find_marker("[ [x [[SEG_EX done [", seg_markers);
    CHECK(m.position == 19);
    CHECK(m.prefix);

    m = find_marker("plain text", seg_markers);
    CHECK(m.position == 10);
    CHECK(!m.prefix);
    CHECK(m.marker == marker_match::npos);

    m = find_marker("", seg_markers);
    CHECK(m.position == 0);
    CHECK(!m.prefix);
}

TEST_CASE("find_marker: a full match anywhere beats an earlier partial one", "[scanner]")
{
    constexpr std::array<std::string_view, 2> markers{"abcd", "b"};
    auto m = find_marker("xab", markers);
    CHECK(m.position == 2);
    CHECK(m.marker == 1);
}

TEST_CASE("find_marker: ties at one position go to the lowest index", "[scanner]")
{
    constexpr std::array<std::string_view, 2> markers{"<tool", "<t"};
    CHECK(find_marker("a<tool", markers).marker == 0);
    CHECK(find_marker("a<to", markers).marker == 1);
}

TEST_CASE("find_marker: ignore_case for ASCII", "[scanner]")
{
    auto m = find_marker("x [[seg_end]] y", seg_markers, true);
    CHECK(m.position == 2);
    CHECK(m.marker == 1);
    CHECK(find_marker("x [[seg_end]] y", seg_markers).marker == marker_match::npos);
    constexpr std::array<std::string_view, 1> letters{"Tool"};
    CHECK(find_marker("a tOOL", letters, true).position == 2);
    CHECK(find_marker("a to", letters, true).prefix);
}

TEST_CASE("find_marker: agrees with the naive definition on random inputs", "[scanner]")
{
    constexpr std::array<std::string_view, 7> markers{"<tool", "</tool>", "{", "[[A", "[[B]]", "ab", "xyz"};
    std::mt19937 rng(7);
    const std::string alphabet = "<>/{}[]toolABabxyzTOOL ";
    for (int run = 0; run < 20000; ++run) {
        std::string s;
        const auto n = rng() % 40;   // under 16 bytes a byte loop finds candidates, else memchr
        for (unsigned i = 0; i < n; ++i)
            s += alphabet[rng() % alphabet.size()];
        for (bool ic : {false, true}) {
            // Both the memchr path (few first bytes) and the table path (many).
            for (auto span : {std::span<const std::string_view>(markers.data(), 2),
                              std::span<const std::string_view>(markers.data() + 5, 2),
                              std::span<const std::string_view>(markers)}) {
                auto got = find_marker(s, span, ic);
                auto want = naive(s, span, ic);
                INFO(s << " ignore_case=" << ic << " markers=" << span.size());
                CHECK(got.position == want.position);
                CHECK(got.marker == want.marker);
                CHECK(got.prefix == want.prefix);
            }
        }
    }
}

TEST_CASE("scan_buffer: append drops the consumed prefix", "[scanner]")
{
    scan_buffer b;
    CHECK(b.empty());
    b.append("hello [[SEG");
    b.consume(6);
    CHECK(b.view() == "[[SEG");
    CHECK(b.size() == 5);
    b.append("_START");
    CHECK(b.view() == "[[SEG_START");
    b.consume(100);
    CHECK(b.empty());
    b.append("x");
    b.clear();
    CHECK(b.empty());
    CHECK(b.view().empty());
}

TEST_CASE("scan_buffer: a lent chunk is read in place and only its rest is kept", "[scanner]")
{
    scan_buffer b;
    std::string chunk = "text [[SE";
    b.lend(chunk);
    CHECK(b.view().data() == chunk.data());   // no copy while nothing is held
    b.consume(5);
    b.keep();
    chunk.assign("zzzzzzzzz");               // the caller's chunk dies after the feed
    CHECK(b.view() == "[[SE");
    b.lend("G_END]] after");                  // something is held: appended
    CHECK(b.view() == "[[SEG_END]] after");
    b.consume(17);
    b.keep();
    CHECK(b.empty());
    b.lend("all");
    b.consume(3);
    b.keep();
    CHECK(b.empty());
}

} // namespace test_scanner
