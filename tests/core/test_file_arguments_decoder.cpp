// detail::file_arguments_decoder and the strict read of detail::json_string_decoder under it:
// the body, the path and validity agree with a whole Boost.JSON parse at every split position and
// at 1-byte fragments; runs, escapes, surrogate pairs and UTF-8 characters cut at any byte; errors
// at every split leave the same body; a many-MB body decodes in one pass.
#include <toolstream/detail/file_arguments_decoder.hpp>
#include <toolstream/detail/json_string_decoder.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace test_file_arguments_decoder {

using namespace toolstream;

namespace {

struct decoded {
    std::string body;
    std::vector<std::string> paths;
    std::vector<std::string> scalars;   // "key=value"
    std::size_t pieces = 0;
    std::size_t largest_piece = 0;
    bool failed = false;
    bool done = false;
    std::optional<std::pair<std::size_t, std::size_t>> body_extent;
    bool operator==(const decoded& o) const
    {
        return body == o.body && paths == o.paths && scalars == o.scalars && failed == o.failed && done == o.done
            && body_extent == o.body_extent;
    }
};

decoded decode(const std::vector<std::string_view>& fragments, std::size_t max_depth = 64)
{
    decoded d;
    const detail::file_argument_callbacks cb{
        &d,
        [](void* p, std::string_view s) {
            auto& d = *static_cast<decoded*>(p);
            CHECK(!s.empty());
            d.body.append(s);
            ++d.pieces;
            d.largest_piece = std::max(d.largest_piece, s.size());
        },
        [](void* p, std::string_view s) { static_cast<decoded*>(p)->paths.emplace_back(s); },
        [](void* p, std::string_view key, const boost::json::value& v) {
            static_cast<decoded*>(p)->scalars.push_back(std::string(key) + "=" + boost::json::serialize(v));
        }};
    detail::file_arguments_decoder dec("content", max_depth);
    for (const auto f : fragments)
        d.failed = static_cast<bool>(test::with_exact_copy(f, [&](std::string_view p) { return dec.write(p, cb); })) || d.failed;
    CHECK(d.failed == static_cast<bool>(dec.error()));
    d.done = dec.done();
    d.body_extent = dec.body_extent();
    return d;
}

// What a whole parse says: valid (and then the body and path) or not.
void require_agrees_with_boost(std::string_view args, const decoded& d)
{
    error_code ec;
    const boost::json::value v = boost::json::parse(args, ec);
    INFO("arguments: " << args);
    if (ec) {
        CHECK(d.failed);
        return;
    }
    REQUIRE(!d.failed);
    CHECK(d.done);
    const auto& o = v.as_object();
    const auto* body = o.if_contains("content");
    CHECK(d.body == (body != nullptr ? std::string(body->as_string()) : std::string()));
    // The extent is the body string's inside: what lies there parses, quoted, to the body.
    REQUIRE(d.body_extent.has_value() == (body != nullptr));
    if (body != nullptr) {
        const auto [begin, end] = *d.body_extent;
        REQUIRE(begin <= end);
        REQUIRE(end < args.size());
        CHECK(args[begin - 1] == '"');
        CHECK(args[end] == '"');
        CHECK(boost::json::parse("\"" + std::string(args.substr(begin, end - begin)) + "\"") == *body);
    }
    const auto* path = o.if_contains("path");
    CHECK(d.paths.size() == (path != nullptr && path->is_string() ? 1u : 0u));
}

// The same result at every chunking, and a body that is valid UTF-8 in every piece.
decoded require_invariant(std::string_view args)
{
    const decoded whole = decode({args});
    for (const auto& pieces : test::chunkings(args)) {
        const decoded split = decode(pieces);
        INFO("arguments: " << args << " in " << pieces.size() << " pieces");
        REQUIRE(split == whole);
    }
    return whole;
}

void check(std::string_view args)
{
    require_agrees_with_boost(args, require_invariant(args));
}

std::string with_body(std::string_view escaped)
{
    return R"({"path":"a.txt","content":")" + std::string(escaped) + R"(","mode":1})";
}

} // namespace

TEST_CASE("decoder: runs and every escape at every split and at 1-byte fragments", "[api][decoder]")
{
    for (const std::string_view body : {
             "", "plain text run longer than a word", R"(a\nb)", R"(\"quoted\" and \\ back\/slash)",
             R"(\b\f\n\r\t)", R"(caf\u00e9 \u20AC \u0000 \u007f)", R"(x\ud83d\ude00y\uD83D\uDE00)",
             "raw UTF-8: \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbd end",
             R"(\\\\\\\\\"\"\"\"12345678\n12345678\n)", "\x7f del is no control character",
         }) {
        check(with_body(body));
    }
}

TEST_CASE("decoder: structure, other keys, scalars and nested values at every split", "[api][decoder]")
{
    for (const std::string_view args : {
             R"({})", R"( { "content" : "b" , "path" : "p" } )", R"({"a":[1,{"b":"\u00e9"}],"content":"x"})",
             R"({"n":-1.5e3,"t":true,"f":false,"z":null,"u":18446744073709551615,"content":"c","path":"p"})",
             R"({"pa\u0074h":"escaped key","content":"k"})", R"({"a_very_long_key_that_matches_nothing":"v"})",
             R"({"path":"p\"q","content":"c"}   )",
         }) {
        check(args);
    }
    const decoded d = decode({R"({"n":-2,"t":true,"z":null,"s":"x","o":{"k":1},"content":"c"})"});
    CHECK(d.scalars == std::vector<std::string>{"n=-2", "t=true"});
}

TEST_CASE("decoder: invalid input fails the same way at every split", "[api][decoder]")
{
    for (const std::string_view body : {
             R"(ok\x)", R"(ok\u12G4)", R"(ok\ud83d)", R"(ok\ud83dx)", R"(ok\ud83d\n)", R"(ok\ud83d\u0041)",
             R"(ok\ude00)", "ok\x01", "ok\ttab", "ok\n", "ok\xc3\x28", "ok\xe0\x80\x80", "ok\xed\xa0\x80",
             "ok\xf4\x90\x80\x80", "ok\xc0\xaf", "ok\xff", "ok\xe2\x82", "ok\xf0\x9f\x98",
         }) {
        const std::string args = with_body(body);
        const decoded d = require_invariant(args);
        require_agrees_with_boost(args, d);
        CHECK(d.body == "ok");   // what came before the error, whole characters only
    }
    for (const std::string_view args : {
             R"([1])", R"("x")", R"({"content":1})", R"({"content":[)", R"({"content":{"a":1}})",
             R"({"path":"a","path":"b"})", R"({"content":"a","content":"b"})", R"({"a" 1})", R"({"a":1,})",
             R"({,})", R"({"a":tru})", R"({"a":1}x)", R"({"a":1} {})", R"({"a":01})", "{\"a\x01\":1}",
         }) {
        CHECK(require_invariant(args).failed);   // some are valid JSON but not file arguments
    }
}

TEST_CASE("decoder: a surrogate pair and a 4-byte character cut at every byte", "[api][decoder]")
{
    const std::string args = with_body(R"(\ud83d\ude00)" "\xf0\x9f\x98\x80");
    for (std::size_t a = 1; a < args.size(); ++a)
        for (std::size_t b = a; b < args.size(); ++b) {
            const std::string_view s = args;
            const decoded d = decode({s.substr(0, a), s.substr(a, b - a), s.substr(b)});
            REQUIRE(!d.failed);
            REQUIRE(d.body == "\xf0\x9f\x98\x80\xf0\x9f\x98\x80");
        }
}

TEST_CASE("decoder: random bodies of runs and escapes at every split", "[api][decoder]")
{
    const std::vector<std::string_view> tokens{"abc", "0123456789abcdef0123", "\\n", "\\\"", "\\\\", "\\u00e9",
                                               "\\ud83d\\ude00", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", " "};
    std::mt19937 rng(23);
    for (int round = 0; round < 40; ++round) {
        std::string body;
        for (int k = 0; k < 12; ++k)
            body += tokens[rng() % tokens.size()];
        check(with_body(body));
    }
}

TEST_CASE("decoder: a body is handed over once per write, or per slice of a longer one", "[api][decoder]")
{
    const std::string args = with_body(std::string(100, 'x') + R"(\n\u00e9)" + std::string(100, 'y'));
    const decoded d = decode({args});
    CHECK(d.pieces == 1);
    CHECK(d.body == std::string(100, 'x') + "\n\xc3\xa9" + std::string(100, 'y'));
}

TEST_CASE("decoder: nesting deeper than the limit fails", "[api][decoder]")
{
    CHECK(!decode({R"({"a":[[1]]})"}, 3).failed);
    CHECK(decode({R"({"a":[[[1]]]})"}, 3).failed);
    CHECK(decode({R"({})"}, 0).failed);
}

// In one write too (a whole call in one provider event): the body then comes in slices, so the
// decoder never holds a second copy of it.
TEST_CASE("decoder: a many-MB body in one write, 4 KiB and 16-byte fragments", "[api][decoder]")
{
    std::string body;
    std::string escaped;
    for (int line = 0; body.size() < (std::size_t{6} << 20); ++line) {
        const std::string text = "line " + std::to_string(line) + " \"quoted\" caf\xc3\xa9 \\ tab\t\xc3\xa9\xf0\x9f\x98\x80";
        body += text + "\n";
        escaped += R"(line )" + std::to_string(line) + R"( \"quoted\" caf)" "\xc3\xa9" R"( \\ tab\t\u00e9\ud83d\ude00\n)";
    }
    const std::string args = R"({"path":"big.txt","content":")" + escaped + R"("})";
    for (const std::size_t step : {args.size(), std::size_t{4096}, std::size_t{16}}) {
        INFO("fragments of " << step);
        std::vector<std::string_view> pieces;
        for (std::size_t at = 0; at < args.size(); at += step)
            pieces.push_back(std::string_view(args).substr(at, step));
        const decoded d = decode(pieces);
        REQUIRE(!d.failed);
        CHECK(d.done);
        CHECK(d.body.size() == body.size());
        CHECK(d.body == body);
        CHECK(d.largest_piece <= 2 * detail::file_arguments_decoder::body_slice);
    }
}

TEST_CASE("json_string_decoder: read() stops after the closing quote", "[api][decoder]")
{
    detail::json_string_decoder s;
    std::string out;
    error_code ec;
    CHECK(s.read(R"(ab\u00)", out, ec) == 6);
    CHECK(!s.closed());
    CHECK(s.read(R"(e9c"rest)", out, ec) == 4);
    CHECK(s.closed());
    CHECK(!ec);
    CHECK(out == "ab\xc3\xa9" "c");
}

TEST_CASE("json_string_decoder: read() of a short string sizes its output for the string, not the input", "[api][decoder]")
{
    detail::json_string_decoder s;
    std::string out;
    error_code ec;
    const std::string in = R"(a\u00e9b"," )" + std::string(std::size_t{4} << 20, 'x');
    CHECK(s.read(in, out, ec) == 9);
    CHECK(s.closed());
    CHECK(out == "a\xc3\xa9" "b");
    CHECK(out.capacity() < (std::size_t{64} << 10));
}

TEST_CASE("json_string_decoder: read() stops at the byte in error, having appended what came before", "[api][decoder]")
{
    detail::json_string_decoder s;
    std::string out;
    error_code ec;
    CHECK(s.read("0123456789abcdef\x01tail", out, ec) == 16);
    CHECK(ec);
    CHECK(out == "0123456789abcdef");
}

TEST_CASE("json_string_decoder: a lenient read() copies bytes that are not UTF-8, the same at every split", "[api][decoder]")
{
    using detail::utf8_bytes;
    // Whole characters; a lone continuation byte; a lead cut by ASCII, by another lead, by an
    // escape; an encoded surrogate and an overlong form; a 4-byte lead beyond Unicode.
    const std::string in = "\xC3\xA9\xF0\x9F\x98\x80|\x80|\xE2x|\xE2\xC3\xA9|\xC3\\n|\xED\xA0\x80|\xC0\x80|\xF8\x88\x80\x80\"";
    const std::string decoded = "\xC3\xA9\xF0\x9F\x98\x80|\x80|\xE2x|\xE2\xC3\xA9|\xC3\n|\xED\xA0\x80|\xC0\x80|\xF8\x88\x80\x80";
    for (std::size_t cut = 0; cut <= in.size(); ++cut) {
        INFO(cut);
        detail::json_string_decoder s;
        std::string out;
        error_code ec;
        std::size_t used = s.read<utf8_bytes::lenient>(std::string_view(in).substr(0, cut), out, ec);
        if (!s.closed())
            used += s.read<utf8_bytes::lenient>(std::string_view(in).substr(cut), out, ec);
        CHECK(!ec);
        CHECK(s.closed());
        CHECK(used == in.size());
        CHECK(out == decoded);
    }
    for (const std::string_view bad : {"\xE2\"", "\xE2\x82\"", "\xE2\x01\""}) {   // a cut character before the end
        detail::json_string_decoder s;
        std::string out;
        error_code ec;
        (void)s.read<utf8_bytes::lenient>(bad, out, ec);
        CHECK(ec);
        CHECK(out.empty());
    }
    detail::json_string_decoder strict;
    std::string out;
    error_code ec;
    (void)strict.read("\x80\"", out, ec);
    CHECK(ec);
}

} // namespace test_file_arguments_decoder
