// detail::json_extent, detail::json_stop and detail::string_skip, the scanners under every JSON
// reader: where a value (container, string or scalar) ends, or a marker outside its strings cuts
// it, at every chunking, whatever its strings hold.
#include <toolstream/detail/json_extent.hpp>
#include <toolstream/detail/json_string_skip.hpp>

#include "catch_compat.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace test_json_extent {

using toolstream::detail::json_extent;
using toolstream::detail::json_stop;
using toolstream::detail::string_skip;

namespace {

// Feeds `input` in pieces of `piece` bytes; returns where the value ended (bytes read), or npos.
// `inside_string`: the value is a string whose opening quote was read.
std::size_t extent_at(std::string_view input, std::size_t piece, bool inside_string = false)
{
    json_extent e;
    if (inside_string)
        e.reset_inside_string();
    std::size_t read = 0;
    while (read < input.size()) {
        const std::string_view w = input.substr(read, piece);
        const std::size_t used = e.scan(w);
        read += used;
        if (e.closed())
            return read;
        if (used != w.size())
            return std::string_view::npos;   // bytes left over without a close: a bug
    }
    return std::string_view::npos;
}

// Feeds `input` cut at `cut` into two pieces; returns where the value ended, or npos.
std::size_t extent_in_two_pieces(std::string_view input, std::size_t cut)
{
    json_extent e;
    const std::size_t first = e.scan(input.substr(0, cut));
    const std::size_t total = e.closed() ? first : first + e.scan(input.substr(cut));
    return e.closed() ? total : std::string_view::npos;
}

// Feeds `input` in pieces of `piece` bytes, the bytes a scan leaves unread kept for the next, as
// a reader keeps them; returns where `stop` stopped the value, or npos.
std::size_t stop_at(std::string_view input, const json_stop& stop, std::size_t piece)
{
    json_extent e;
    std::string unread;
    std::size_t read = 0;
    for (std::size_t at = 0; at < input.size(); at += piece) {
        unread += input.substr(at, piece);
        const std::size_t used = e.scan(unread, stop);
        read += used;
        unread.erase(0, used);
        if (e.stopped())
            return read;
        if (e.closed())
            return std::string_view::npos;
    }
    return std::string_view::npos;
}

} // namespace

TEST_CASE("json_stop: a marker outside strings cuts an unclosed value, at every chunking", "[core][json_extent]")
{
    STATIC_REQUIRE(json_stop::can_stop_at('<'));
    STATIC_REQUIRE(json_stop::can_stop_at(';'));
    STATIC_REQUIRE(!json_stop::can_stop_at('['));
    STATIC_REQUIRE(!json_stop::can_stop_at('f'));
    // `[` is JSON: `[TOOL_CALLS]` stops only whole, a prefix of it held at a piece's end; inside a
    // string, or as an array (`[1`, `[T` of no marker), it is data.
    const std::string value = R"({"a": "[TOOL_CALLS]", "b": [1, [2]], "c": [TOOL_CALL, 3)";
    const std::string input = value + "[TOOL_CALLS]next{}";
    // `<` is never JSON outside a string: `</tool_call>` stops at it, nothing held.
    const std::string tagged = R"({"a": "</tool_call>", "b": 1)";
    for (std::size_t piece = 1; piece <= input.size(); ++piece) {
        INFO(piece);
        CHECK(stop_at(input, json_stop("[TOOL_CALLS]"), piece) == value.size());
        CHECK(stop_at(tagged + "<x", json_stop("</tool_call>"), piece) == tagged.size());
    }
    CHECK(stop_at(value + "[TOOL_CA", json_stop("[TOOL_CALLS]"), 1) == std::string_view::npos);
    CHECK(stop_at(R"({"a": 1})", json_stop("[TOOL_CALLS]"), 1) == std::string_view::npos);   // closed first
    json_extent e;
    CHECK(e.scan(R"({"a": [TOOL)", json_stop("[TOOL_CALLS]")) == 6);   // the prefix left unread
    CHECK(!e.stopped());
}

TEST_CASE("json_extent: the closing bracket outside strings, at every chunking", "[core][json_extent]")
{
    const std::string value = R"({"a":"}]\"{[","b":[1,{"c":"\\"}],"d":"\\\""})";
    const std::string input = value + R"( trailing } ])";
    for (std::size_t piece = 1; piece <= input.size(); ++piece) {
        INFO(piece);
        CHECK(extent_at(input, piece) == value.size());
    }
    for (std::size_t cut = 0; cut <= input.size(); ++cut) {
        INFO(cut);
        CHECK(extent_in_two_pieces(input, cut) == value.size());
    }
    CHECK(extent_at(R"(["]")", 1) == std::string_view::npos);   // still inside the string
    CHECK(extent_at(R"([[1],[2])", 3) == std::string_view::npos);
}

TEST_CASE("json_extent: a string ends at its closing quote, a scalar before its delimiter", "[core][json_extent]")
{
    const std::string string_value = R"("a\"}]\\")";
    const std::string scalars[] = {"-12.5e3", "true", "null"};
    const std::string inside = R"(ab\"c\\")";   // after the opening quote
    for (std::size_t piece = 1; piece <= 16; ++piece) {
        INFO(piece);
        CHECK(extent_at(string_value + R"(, "x"})", piece) == string_value.size());
        CHECK(extent_at(inside + R"(tail")", piece, true) == inside.size());
        for (const std::string& scalar : scalars) {
            for (const char* after : {",", "}", "]", " ", "\n"}) {
                INFO(scalar << after);
                // The delimiter is not the value's: the scan stops before it.
                CHECK(extent_at(scalar + after + "1", piece) == scalar.size());
            }
        }
    }
    const std::string input = string_value + "]";
    for (std::size_t cut = 0; cut <= input.size(); ++cut) {
        INFO(cut);
        CHECK(extent_in_two_pieces(input, cut) == string_value.size());
    }
    CHECK(extent_at("12345", 2) == std::string_view::npos);   // a scalar the input does not end
    CHECK(extent_at(R"("ab\")", 1) == std::string_view::npos);   // the quote is escaped
}

TEST_CASE("json_extent: a long string of escapes in one piece", "[core][json_extent]")
{
    std::string value = "{\"content\":\"";
    for (int i = 0; i < 100000; ++i)
        value += i % 3 == 0 ? "\\n" : i % 3 == 1 ? "x\\\"" : "}]";
    value += "\"}";
    CHECK(extent_at(value + "]]", value.size() + 2) == value.size());
    CHECK(extent_at(value + "]]", 4096) == value.size());
    const std::string inside = value.substr(12, value.size() - 14) + "\"";   // the content string
    CHECK(extent_at(inside + "}", inside.size() + 1, true) == inside.size());
    CHECK(extent_at(inside + "}", 1, true) == inside.size());
}

TEST_CASE("string_skip: each next quote or backslash, then the limit", "[core][json_extent]")
{
    const std::string_view text = R"(ab\"cd"ef\\g)";
    string_skip skip(text, text.size());
    CHECK(skip.next(0) == 2);
    CHECK(skip.next(4) == 6);
    CHECK(skip.next(7) == 9);
    CHECK(skip.next(10) == 10);
    CHECK(skip.next(11) == text.size());
    string_skip bounded(text, 5);   // the limit hides the quote at 6
    CHECK(bounded.next(4) == 5);
}

TEST_CASE("string_skip: ranges long enough to be searched, and their last bytes", "[core][json_extent]")
{
    // 40 a, \", 20 b, ", 30 c, \\: searched from far, then stepped through near the limit.
    const std::string text = std::string(40, 'a') + "\\\"" + std::string(20, 'b') + "\"" + std::string(30, 'c') + "\\\\";
    string_skip skip(text, text.size());
    CHECK(skip.next(0) == 40);
    CHECK(skip.next(42) == 62);
    CHECK(skip.next(63) == 93);
    CHECK(skip.next(94) == 94);
    CHECK(skip.next(95) == text.size());
    for (std::size_t from = 0; from <= text.size(); ++from) {   // every start, one search each
        INFO(from);
        string_skip fresh(text, text.size());
        const std::size_t expected = std::min(text.find_first_of("\"\\", from), text.size());
        CHECK(fresh.next(from) == expected);
    }
}

TEST_CASE("string_skip: the quote that closes a string, past its escapes", "[core][json_extent]")
{
    const std::string_view text = R"(ab\"cd\\"ef")";   // the inside of "ab\"cd\\", then ef"
    string_skip skip(text, text.size());
    CHECK(skip.closing_quote(skip.next(0)) == 8);
    string_skip plain(text, text.size());
    CHECK(plain.closing_quote(plain.next(9)) == 11);   // no escape before the quote
    string_skip bounded(text, 7);   // the limit cuts the escape at 6: no closing quote
    CHECK(bounded.closing_quote(bounded.next(0)) == 7);
    const std::string_view open_escape = R"(ab\)";   // ends inside an escape
    string_skip trailing(open_escape, open_escape.size());
    CHECK(trailing.closing_quote(trailing.next(0)) == open_escape.size());
}

} // namespace test_json_extent
