// The json_calls policy as a stream: START as soon as the name (and a file's path) is read, within
// the hold bounds, truncation at any point, native calls, reset, byte conservation over generated
// inputs and bounded holdback. The call shapes are in test_json_policy.cpp.
#include <toolstream/concepts.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/json_calls.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"
#include "parse/formats/json_policy_support.hpp"

#include <boost/json/parse.hpp>

#include <array>
#include <memory>
#include <string>

namespace test_json_policy_streaming {

using namespace toolstream;
using toolstream::test::check_byte_conservation;
using toolstream::test::check_chunk_invariance;
using toolstream::test::run_whole;
using namespace toolstream::test::json_policy_support;

TEST_CASE("json_calls: regression §6.11, START carries tool_name as soon as the name is read", "[json_calls]")
{
    handler<toolstream::json_calls> h;
    REQUIRE(!h.feed(R"(x {"tool": {"function": "rea)"));
    CHECK(h.events().size() == 2);   // only the text so far: START waits for the name
    CHECK(h.policy().held_bytes() == 26);
    REQUIRE(!h.feed(R"(d_file", "parameters": {"pa)"));
    REQUIRE(h.events().size() >= 5);
    CHECK(h.events()[3].metadata == obj(R"({"tool_name":"read_file"})"));
    CHECK(h.events()[4].delta == R"({"tool": {"function": "read_file")");
    CHECK(test::content_of_type(h.events(), segment_type::tool_call)
          == R"({"tool": {"function": "read_file", "parameters": {"pa)");
    CHECK(h.policy().held_bytes() == 0);
    REQUIRE(!h.feed(R"(th": "/a"}}})"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].is_complete());
}

TEST_CASE("json_calls: a name that comes after the arguments still opens START with it", "[json_calls]")
{
    const std::string_view input = R"({"tool": {"parameters": {"path": "/a", "name": "not me"}, "function": "late"}})";
    const auto r = run_whole<toolstream::json_calls>(input);
    REQUIRE(r.events.size() == 3);
    CHECK(r.events[0].metadata == obj(R"({"tool_name":"late"})"));
    CHECK(r.events[2].metadata == obj(R"({"tool_name":"late","arguments":{"path":"/a","name":"not me"}})"));
    check_chunk_invariance<toolstream::json_calls>(input);
}

TEST_CASE("json_calls: past max_held without a name, START goes without tool_name and END carries it", "[json_calls]")
{
    std::string input = R"({"tool": {"parameters": {"text": ")" + std::string(100, 'x') + R"("}, "function": "late"}})";
    const json_calls_options small{32};
    const auto r = run_whole<toolstream::json_calls>(input, small);
    REQUIRE(r.events.size() == 3);
    CHECK(r.events[0].metadata.empty());
    CHECK(r.events[2].metadata.at("tool_name") == "late");
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].name == "late");
    CHECK(r.invocations[0].is_complete());
    check_chunk_invariance<toolstream::json_calls>(input, small);

    handler<toolstream::json_calls> h(recording_sink{}, {}, toolstream::json_calls(small));
    for (char c : input) {
        REQUIRE(!h.feed(std::string_view(&c, 1)));
        CHECK(h.policy().held_bytes() <= 32);
    }
}

TEST_CASE("json_calls: a file's START waits for its path up to max_held_body input bytes, at any chunking", "[json_calls]")
{
    // Found by fuzz_json: whole, the arguments came as one span larger than the room left, and
    // START went out before the path in that span was read; in small chunks the path was read
    // first. The frame counts input bytes, and the reader writes pieces that fit its room.
    const json_calls_options small{.max_held = 300, .max_held_body = 64};
    for (const std::string_view input : {
             R"({"name":"write_file","arguments":{"path":"a","content] {" {"tool")",
             R"({"name":"write_file","arguments":{"path":"a","content":"x
y"}})",
             R"({"name":"write_file","arguments":"{\"path\":\"a\",\"content\":\"x\\ny\"}"})"}) {
        INFO(input);
        const auto r = run_whole<toolstream::json_calls>(input, small);
        REQUIRE(!r.events.empty());
        CHECK(r.events.front().metadata.at("path") == "a");
        check_chunk_invariance<toolstream::json_calls>(input, small);
    }
    // A path past the bound: START without it, at the same byte whatever the chunking. (The body
    // comes first: the tool's schema gives it the file tool's shape.)
    json_calls_options file_tool = small;
    file_tool.schemas = std::make_shared<const tool_schemas>(boost::json::parse(R"([{"type":"function","function":{
      "name":"write_file","parameters":{"type":"object","properties":{"path":{},"content":{}}}}}])").as_array());
    const std::string late = R"({"name":"write_file","arguments":{"content":")" + std::string(200, 'x') + R"(","path":"a"}})";
    const auto r = run_whole<toolstream::json_calls>(late, file_tool);
    REQUIRE(!r.events.empty());
    CHECK(r.events.front().segment_kind == segment_type::write_file);
    CHECK(!r.events.front().metadata.contains("path"));
    check_chunk_invariance<toolstream::json_calls>(late, file_tool);
}

TEST_CASE("json_calls: truncation loses nothing and never yields a complete invocation", "[json_calls]")
{
    SECTION("inside a call after its name")
    {
        const std::string_view input = R"(a {"tool": {"function": "run", "parameters": {"cmd": "rm -)";
        const auto r = run_whole<toolstream::json_calls>(input);
        CHECK(starts(r.events) == "text tool_call ");
        CHECK(r.events[4].delta == input.substr(2));
        CHECK(r.events[5].status == segment_status::incomplete);
        CHECK(r.events[5].metadata == obj(R"({"tool_name":"run"})"));
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].status == invocation_status::incomplete);
        check_chunk_invariance<toolstream::json_calls>(input);
    }
    SECTION("inside a call before its name")
    {
        const std::string_view input = R"({"tool": {"parameters": {"cmd": "x"}, "funct)";
        const auto r = run_whole<toolstream::json_calls>(input);
        REQUIRE(r.events.size() == 3);
        CHECK(r.events[1].delta == input);
        CHECK(r.events[2].status == segment_status::incomplete);
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].status == invocation_status::incomplete);
        check_chunk_invariance<toolstream::json_calls>(input);
    }
    SECTION("between calls of an array: the finished calls stand")
    {
        const std::string_view input = R"([{"name": "a", "args": {}}, {"name": "b", "ar)";
        const auto r = run_whole<toolstream::json_calls>(input);
        REQUIRE(r.invocations.size() == 2);
        CHECK(r.invocations[0].is_complete());
        CHECK(r.invocations[1].status == invocation_status::incomplete);
        check_chunk_invariance<toolstream::json_calls>(input);
    }
    SECTION("a half-read signature is text")
    {
        const auto r = run_whole<toolstream::json_calls>(R"(see [ {"na)");
        CHECK(starts(r.events) == "text ");
        CHECK(r.events[1].delta == R"(see [ {"na)");
    }
}

TEST_CASE("json_calls: native tool calls are assembled too, and finalize ends them", "[json_calls]")
{
    handler<toolstream::json_calls> h;
    chunk_response c;
    c.content = R"(x {"name": "text_call", "args": {}})";
    c.tool_calls = {{0, "call_1", "native", R"({"a":)", false}};
    REQUIRE(!h.feed(c));
    c.content.clear();
    c.tool_calls = {{0, "", "", "1}", true}, {1, "call_2", "unfinished", "{", false}};
    REQUIRE(!h.feed(c));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 3);
    CHECK(h.invocations()[0].name == "text_call");
    CHECK(h.invocations()[1].id == "call_1");
    CHECK(h.invocations()[1].arguments == obj(R"({"a":1})"));
    CHECK(h.invocations()[2].id == "call_2");
    CHECK(h.invocations()[2].status == invocation_status::incomplete);
}

TEST_CASE("json_calls: reset starts a fresh stream", "[json_calls]")
{
    handler<toolstream::json_calls> h;
    REQUIRE(!h.feed(R"({"name": "a", "ar)"));
    h.reset();
    REQUIRE(!h.feed(R"({"name": "b", "args": {}})"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].name == "b");
    CHECK(h.invocations()[0].id == "seg_1");
}

TEST_CASE("json_calls: byte conservation over generated prose, calls and truncation", "[json_calls][conservation]")
{
    constexpr std::array<std::string_view, 6> calls{
        R"({"tool": {"function": "write_file", "parameters": {"path": "a.txt", "content": "x } y"}}})",
        R"([{"name": "a", "args": {"s": "say \"}\" ok"}}, {"name": "b", "args": {}}])",
        R"({ "tool_calls" : [ {"function": {"name": "w", "arguments": "{\"c\": 1}"}} ] })",
        R"({"name": "bad", "args": {"x": 1,}})",
        R"({"tools": [], "note": "empty"})",
        "```json\n{\"function\": {\"name\": \"f\", \"arguments\": {}}}\n```",
    };
    for (const auto& input : test::mixed_inputs(calls, 150)) {
        check_byte_conservation<toolstream::json_calls>(input);
        check_byte_conservation<toolstream::json_calls>(input, json_calls_options{16});
    }
    for (const auto& input : test::mixed_inputs(calls, 25, 7))
        check_chunk_invariance<toolstream::json_calls>(input);
}

TEST_CASE("json_calls: holdback stays bounded over 10 MB of prose without tool syntax", "[json_calls][holdback]")
{
    test::check_bounded_holdback<toolstream::json_calls>(4096, 10 * 1024 * 1024);
    test::check_bounded_holdback<toolstream::json_calls>(64, 1024 * 1024, json_calls_options{64});
}

} // namespace test_json_policy_streaming
