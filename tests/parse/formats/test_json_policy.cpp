// The json_calls policy: the call shapes it reads, signatures it recognises or leaves as text, and
// calls that END invalid. When START goes out, truncation, native calls, reset, byte conservation
// and holdback are in test_json_policy_streaming.cpp.
#include <toolstream/concepts.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/json_calls.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"
#include "parse/formats/json_policy_support.hpp"

#include <boost/json/parse.hpp>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace test_json_policy {

using namespace toolstream;
using toolstream::test::check_byte_conservation;
using toolstream::test::check_chunk_invariance;
using toolstream::test::run_pieces;
using toolstream::test::run_whole;
using namespace toolstream::test::json_policy_support;

static_assert(parser_policy<toolstream::json_calls>);

namespace {

// Pieces of `s` of `n` bytes each (the reference's integration tests use 5).
std::vector<std::string_view> pieces_of(std::string_view s, std::size_t n)
{
    std::vector<std::string_view> out;
    for (std::size_t i = 0; i < s.size(); i += n)
        out.push_back(s.substr(i, n));
    return out;
}

// Checks one complete call: a single tool_call segment whose invocation is `name(args)`.
void check_single_call(std::string_view input, std::string_view name, std::string_view args)
{
    const auto r = run_whole<toolstream::json_calls>(input);
    INFO(test::dump(r.events) << test::dump(r.invocations));
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].name == name);
    CHECK(r.invocations[0].arguments == obj(args));
    CHECK(r.invocations[0].status == invocation_status::complete);
    check_chunk_invariance<toolstream::json_calls>(input);
}

} // namespace

TEST_CASE("json_calls: the three shapes of the reference, in 5-byte chunks (§5 JSON styles)", "[json_calls]")
{
    struct vector_case {
        std::string_view input, name, args;
    };
    const std::array<vector_case, 4> cases{{
        {R"({"tool_calls": [{"function": {"name": "weather", "arguments": "{\"city\": \"NYC\"}"}}]})", "weather",
         R"({"city":"NYC"})"},
        {R"({"name": "search", "args": {"query": "autobyteus"}})", "search", R"({"query":"autobyteus"})"},
        {R"({"tool": {"function": "write_file", "parameters": {"path": "a.txt"}}})", "write_file",
         R"({"path":"a.txt","content":""})"},   // a file tool: its body is the (empty) content
        {R"({"tool": {"function": {"name": "weather", "arguments": {"city": "NYC"}}}})", "weather",
         R"({"city":"NYC"})"},
    }};
    for (const auto& c : cases) {
        const auto r = run_pieces<toolstream::json_calls>(pieces_of(c.input, 5));
        INFO(c.input << "\n" << test::dump(r.events));
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].name == c.name);
        CHECK(r.invocations[0].arguments == obj(c.args));
        check_single_call(c.input, c.name, c.args);
    }
}

TEST_CASE("json_calls: a call streams raw as tool_call content; START has tool_name, END {tool_name, arguments}; its "
          "arguments value is its argument fragments", "[json_calls]")
{
    const std::string_view input = R"(Hi {"tool": {"function": "read_file", "parameters": {"path": "/a"}}} bye)";
    const auto r = run_whole<toolstream::json_calls>(input);
    REQUIRE(r.events.size() == 9);
    CHECK(to_json_string(r.events[3].view())
          == R"({"type":"SEGMENT_START","segment_id":"seg_2","segment_type":"tool_call","payload":{"metadata":{"tool_name":"read_file"}}})");
    CHECK(r.events[4].delta == R"({"tool": {"function": "read_file", "parameters": {"path": "/a"}}})");
    CHECK(to_json_string(r.events[5].view())
          == R"({"type":"SEGMENT_END","segment_id":"seg_2","payload":{"metadata":{"tool_name":"read_file","arguments":{"path":"/a"}}}})");
    CHECK(r.events[1].delta == "Hi ");
    CHECK(r.events[7].delta == " bye");
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].id == "seg_2");
    CHECK(r.invocations[0].arguments_raw == R"({"path": "/a"})");
    check_chunk_invariance<toolstream::json_calls>(input);
}

TEST_CASE("json_calls: signatures may be split by whitespace", "[json_calls]")
{
    check_single_call("{ \"tool\" :\n {\"function\": \"a\", \"parameters\": {}}}", "a", "{}");
    check_single_call("[ {\t\"name\" : \"b\", \"args\": {\"k\": 1}} ]", "b", R"({"k":1})");
    check_single_call("{\r\n  \"tool_calls\"  : [ {\"function\": {\"name\": \"c\", \"arguments\": {}}} ] }", "c", "{}");
    check_single_call(R"({"function": {"name": "d", "arguments": "{\"x\": [1]}"}})", "d", R"({"x":[1]})");
    check_single_call(R"({"tools": [{"name": "e", "arguments": {"y": true}}]})", "e", R"({"y":true})");
}

TEST_CASE("json_calls: a brace or bracket that is not a signature stays text byte for byte", "[json_calls]")
{
    for (std::string_view input : {
             std::string_view(R"(if (x) { return [1, 2]; } {"foo": 1} [[a]] {"tool_call": 1} {"tool" 1} [{"names": 2}])"),
             std::string_view("{{{{ [[[[ { [ {\"to\"ol\": 1}"),
             std::string_view("{"),
             std::string_view("[{"),
             std::string_view(R"(ends with {"too)"),
         }) {
        const auto r = run_whole<toolstream::json_calls>(input);
        INFO(test::dump(r.events));
        CHECK(starts(r.events) == "text ");
        CHECK(test::content_of_type(r.events, segment_type::text) == input);
        CHECK(r.invocations.empty());
        check_chunk_invariance<toolstream::json_calls>(input);
    }
}

TEST_CASE("json_calls: code fences around the JSON stay text", "[json_calls]")
{
    const std::string_view input =
        "Calling:\n```json\n{\"tool\": {\"function\": \"ls\", \"parameters\": {\"dir\": \".\"}}}\n```\nDone.";
    const auto r = run_whole<toolstream::json_calls>(input);
    CHECK(starts(r.events) == "text tool_call text ");
    CHECK(r.events[1].delta == "Calling:\n```json\n");
    CHECK(r.events[7].delta == "\n```\nDone.");
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].arguments == obj(R"({"dir":"."})"));
    check_chunk_invariance<toolstream::json_calls>(input);
}

TEST_CASE("json_calls: regression §6.1, escaped quotes inside strings do not end the call", "[json_calls]")
{
    const std::string_view input = R"({"name": "t", "args": {"s": "say \"}\" ok"}} after)";
    const auto r = run_whole<toolstream::json_calls>(input);
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].name == "t");
    CHECK(r.invocations[0].arguments == obj(R"({"s":"say \"}\" ok"})"));
    CHECK(r.invocations[0].is_complete());
    CHECK(test::content_of_type(r.events, segment_type::text) == " after");
    check_chunk_invariance<toolstream::json_calls>(input);
    check_single_call(R"({"name": "u", "args": {"p": "C:\\dir\\", "q": "{[\\\""}})", "u", R"({"p":"C:\\dir\\","q":"{[\\\""})");
}

TEST_CASE("json_calls: regression §6.8, an array of several calls yields every call, one segment each", "[json_calls]")
{
    const std::string_view input =
        R"(Go: [{"name": "a", "args": {"n": 1}}, {"name": "b", "args": {}} , 7, {"name": "c", "args": {"n": 3}}] ok)";
    const auto r = run_whole<toolstream::json_calls>(input);
    INFO(test::dump(r.events));
    CHECK(starts(r.events) == "text tool_call tool_call tool_call text ");
    REQUIRE(r.invocations.size() == 3);
    CHECK(r.invocations[0].name == "a");
    CHECK(r.invocations[1].name == "b");
    CHECK(r.invocations[2].name == "c");
    CHECK(r.invocations[2].arguments == obj(R"({"n":3})"));
    CHECK(r.invocations[0].arguments_raw == R"({"n": 1})");
    CHECK(r.invocations[0].id != r.invocations[1].id);
    check_chunk_invariance<toolstream::json_calls>(input);

    const std::string_view wrapped =
        R"({"tool_calls": [{"function": {"name": "w", "arguments": "{}"}}, {"function": {"name": "x", "arguments": {"k": "v"}}}], "extra": [{"name": "not a call"}]})";
    const auto w = run_whole<toolstream::json_calls>(wrapped);
    REQUIRE(w.invocations.size() == 2);
    CHECK(w.invocations[0].name == "w");
    CHECK(w.invocations[1].arguments == obj(R"({"k":"v"})"));
    check_chunk_invariance<toolstream::json_calls>(wrapped);

    const std::string_view tools = R"([{"tool": {"function": "p", "parameters": {}}}, {"function": {"name": "q", "arguments": {}}}])";
    const auto t = run_whole<toolstream::json_calls>(tools);
    REQUIRE(t.invocations.size() == 2);
    CHECK(t.invocations[1].name == "q");
    check_chunk_invariance<toolstream::json_calls>(tools);
}

TEST_CASE("json_calls: invalid JSON or arguments at the end of a call END invalid_arguments, without arguments", "[json_calls]")
{
    for (std::string_view input : {
             std::string_view(R"({"tool": {"function": "x", "parameters": {"a": 1,}}})"),
             std::string_view(R"({"tool": {"function": "x", "parameters": "not json"}})"),
             std::string_view(R"({"name": "x", "args": [1, 2]})"),
             std::string_view(R"({"name": 5, "args": {}})"),
             std::string_view(R"({"tool": {"function": "x" "parameters": {}}})"),
         }) {
        const auto r = run_whole<toolstream::json_calls>(input);
        INFO(input << "\n" << test::dump(r.events));
        REQUIRE(r.events.size() == 3);
        CHECK(r.events[2].status == segment_status::invalid_arguments);
        CHECK(!r.events[2].error.empty());
        CHECK(!r.events[2].metadata.contains("arguments"));
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].status == invocation_status::invalid_arguments);
        check_chunk_invariance<toolstream::json_calls>(input);
    }
    // A file tool's call object is validated as it streams too (found by fuzz_json: brackets
    // after its arguments ended it complete).
    const std::string_view file = R"({"name":"write_file","arguments":{"path":"a","content":"x"}[{""}}{""""}])";
    const auto r = run_whole<toolstream::json_calls>(file);
    INFO(test::dump(r.events));
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].status == invocation_status::invalid_arguments);
    CHECK(r.events.back().error == "tool call is not valid JSON");
    check_chunk_invariance<toolstream::json_calls>(file);
}

TEST_CASE("json_calls: START and END agree on a name beside a function object", "[json_calls]")
{
    const std::string_view input = R"({"function": {"arguments": {"a": 1}}, "name": "n"})";
    check_single_call(input, "n", R"({"a":1})");
    const auto r = run_whole<toolstream::json_calls>(input);
    CHECK(r.events.front().metadata.at("tool_name") == "n");
    CHECK(r.events.back().metadata.at("tool_name") == "n");
}

TEST_CASE("json_calls: a tool name with escapes is decoded", "[json_calls]")
{
    check_single_call(R"({"name": "caf\u00e9_\"q\"", "args": {}})", "caf\xc3\xa9_\"q\"", "{}");
}

// A file call's raw arguments are kept in 64 KiB blocks (block_text) for the verdict of a call
// whose body does not decode: read back in pieces by the validator, and joined for the message a
// whole parse gives. The verdict and the message must not depend on the blocks or the chunking.
TEST_CASE("json_calls: a large file call that fails to decode gets the same verdict at any chunking", "[json_calls]")
{
    std::string body;
    for (std::size_t i = 0; body.size() < (std::size_t{150} << 10); ++i)
        body += "line " + std::to_string(i) + "\\n";
    // Invalid UTF-8 in the body: valid to the validator (model text is kept byte for byte), not
    // to the decoder, so the message is a whole parse's of the raw text.
    const std::string bad_utf8 = R"({"path":"a","content":")" + body + "\xC3(" + body + R"("})";
    // A syntax error after the body: the validator's verdict.
    const std::string bad_syntax = R"({"path":"a","content":")" + body + R"(","mode":tru})";
    for (const std::string* arguments : {&bad_utf8, &bad_syntax}) {
        const std::string input = R"({"name":"write_file","arguments":)" + *arguments + "}";
        boost::system::error_code whole_parse;
        (void)boost::json::parse(*arguments, whole_parse);
        REQUIRE(whole_parse);
        const std::string expected = arguments == &bad_syntax ? "tool call is not valid JSON" : whole_parse.message();
        for (const std::size_t size : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, std::size_t{65536},
                                       std::size_t{65537}, input.size()}) {
            std::vector<std::string_view> pieces;
            for (std::size_t at = 0; at < input.size(); at += size)
                pieces.push_back(std::string_view(input).substr(at, size));
            const auto r = run_pieces<toolstream::json_calls>(pieces);
            INFO("pieces of " << size << " bytes");
            REQUIRE(r.invocations.size() == 1);
            CHECK(r.invocations[0].status == invocation_status::invalid_arguments);
            CHECK(r.invocations[0].error == expected);
        }
    }
}

} // namespace test_json_policy
