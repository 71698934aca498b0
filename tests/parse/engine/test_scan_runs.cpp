// The run-at-a-time scans of the hot paths against their byte-at-a-time definitions: JSON
// escaping (eight bytes a step) and a call object's validation when a file tool's decoder has
// already read its arguments (a stand-in for them, or their raw text when it failed).
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/json_string_decoder.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/formats/json_calls.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"

#include <boost/json/parse.hpp>

#include <cstdio>
#include <random>
#include <string>
#include <string_view>

namespace test_scan_runs {

using namespace toolstream;
using namespace toolstream::test;

namespace {

// JSON.stringify's escape, one byte at a time.
std::string naive_escape(std::string_view s)
{
    std::string out;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += ch;
            }
        }
    }
    return out;
}

} // namespace

TEST_CASE("append_json_escaped: every byte value at every offset of a run", "[scan_runs]")
{
    for (std::size_t size : {1, 7, 8, 9, 15, 16, 17, 40}) {
        for (std::size_t at = 0; at < size; ++at) {
            for (unsigned v = 0; v < 256; ++v) {
                std::string s(size, 'a');
                s[at] = static_cast<char>(v);
                if (at + 1 < size)
                    s[size - 1] = '"';   // a second escape after the first
                std::string out = "x";
                detail::append_json_escaped(out, s);
                INFO("size " << size << " at " << at << " byte " << v);
                REQUIRE(out == "x" + naive_escape(s));
                std::string back(out.size(), '\0');
                back.resize(detail::decode_json_escaped(std::string_view(out).substr(1), back.data()));
                REQUIRE(back == s);
            }
        }
    }
}

TEST_CASE("append_json_escaped: escapes denser than its first room, across blocks", "[scan_runs]")
{
    // The room made per block assumes an escape in ten bytes or fewer; these need up to six times
    // the input, in the first block, the last, or from the middle of one.
    for (std::size_t size : {1023, 1024, 1025, 5000}) {
        for (std::string_view escape : {"\x01", "\"", "\n\x1f"}) {
            for (std::size_t plain : {std::size_t{0}, size / 2}) {
                std::string s(plain, 'a');
                while (s.size() < size)
                    s += escape;
                std::string out = "x";
                detail::append_json_escaped(out, s);
                INFO("size " << s.size() << ", plain prefix " << plain);
                REQUIRE(out == "x" + naive_escape(s));
            }
        }
    }
}

TEST_CASE("decode_json_escaped reads append_json_escaped's text as Boost.JSON does", "[scan_runs]")
{
    std::minstd_rand random(23);
    for (int round = 0; round < 2000; ++round) {
        std::string s(random() % 300, '\0');
        for (auto& c : s)   // escapes, controls and bytes that are no UTF-8, often
            c = static_cast<char>(random() % 3 == 0 ? "\"\\\n\t\x01\x1f\xff\xc3"[random() % 8] : random() % 256);
        std::string escaped;
        detail::append_json_escaped(escaped, s);
        std::string back(escaped.size(), '\0');
        back.resize(detail::decode_json_escaped(escaped, back.data()));
        REQUIRE(back == s);
        boost::json::parse_options lenient;
        lenient.allow_invalid_utf8 = true;
        const auto parsed = boost::json::parse("\"" + escaped + "\"", {}, lenient);
        REQUIRE(std::string_view(parsed.as_string()) == back);
    }
}

TEST_CASE("json calls: a file tool's arguments are validated by its decoder, or replayed", "[scan_runs]")
{
    struct expected {
        std::string_view input;
        invocation_status status;
        std::string_view error;   // empty: any
    };
    const expected cases[] = {
        // Decoded cleanly: the call object around them decides.
        {R"({"name":"write_file","arguments":{"path":"a","content":"x\ny"}})", invocation_status::complete, ""},
        {R"({"name":"write_file","arguments":{"path":"a","content":"x"}[{""}}{""""}])",
         invocation_status::invalid_arguments, "tool call is not valid JSON"},
        // The decoder stops at the repeated body key; the syntax error after it is the verdict.
        {R"({"name":"write_file","arguments":{"path":"a","content":"x","content":"y",]}})",
         invocation_status::invalid_arguments, "tool call is not valid JSON"},
        // Not UTF-8 for the decoder, JSON for the validator: the decoder's reason.
        {"{\"name\":\"write_file\",\"arguments\":{\"path\":\"a\",\"content\":\"\xff\"}}",
         invocation_status::invalid_arguments, ""},
    };
    for (const auto& c : cases) {
        INFO(c.input);
        const auto r = run_whole<json_calls>(c.input);
        INFO(dump(r.events));
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].status == c.status);
        if (!c.error.empty())
            CHECK(r.invocations[0].error == c.error);
        check_chunk_invariance<json_calls>(c.input);
        const std::string marked = "<tool_call>\n" + std::string(c.input) + "\n</tool_call>";
        const auto h = run_whole<hermes>(marked);
        REQUIRE(h.invocations.size() == 1);
        CHECK(h.invocations[0].status == c.status);
        CHECK(h.invocations[0].error == r.invocations[0].error);
        check_chunk_invariance<hermes>(marked);
    }
}

} // namespace test_scan_runs
