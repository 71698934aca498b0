// poolside_v1: vLLM's PoolsideV1ToolParser reads GLM-4's grammar, <tool_call>NAME\n<arg_key>K</arg_key>
// \n<arg_value>V</arg_value>\n…</tool_call>, JSON-decoding a value no schema types (as glm45 does), so
// an input whose names have no blanks inside gives glm45's events; a name may have blanks inside
// (`get weather`), which glm45 refuses. The cases are written from that parser's grammar and tests.
// Every input runs at every split position, in 1-byte and random chunks, with byte conservation
// and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/poolside_v1.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <string>
#include <string_view>

namespace test_poolside_v1 {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{
      "name":"search","parameters":{"type":"object","properties":{"query":{"type":"string"},
      "limit":{"type":"integer"},"code":{"type":"string"}}}}}])", max_held);
}

// The poolside_v1 run of an input without blanks inside a name, checked to equal glm45's.
template<class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    auto r = test::run_checked<poolside_v1>(input, args...);
    CHECK(segments(r) == segments(test::run_whole<glm45>(input, args...)));
    return r;
}

} // namespace

static_assert(test::registered_text_format<poolside_v1>);

TEST_CASE("poolside_v1: calls between prose; untyped values JSON-decoded, typed ones converted", "[formats][poolside_v1]")
{
    constexpr std::string_view input =
        "Searching.\n<tool_call>search\n<arg_key>query</arg_key>\n<arg_value>streaming parsers</arg_value>\n"
        "<arg_key>limit</arg_key>\n<arg_value>10</arg_value>\n<arg_key>code</arg_key>\n<arg_value>007</arg_value>\n"
        "</tool_call><tool_call>status</tool_call>\nDone.";
    const auto r = run(input);
    CHECK(calls(r) == "seg_2 search {\"query\":\"streaming parsers\",\"limit\":10,\"code\":\"007\"}\nseg_3 status {}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Searching.\n\nDone.");
    // A string-typed value is kept verbatim.
    CHECK(calls(run("<tool_call>search\n<arg_key>code</arg_key>\n<arg_value>42</arg_value>\n</tool_call>", with_schemas()))
          == "seg_1 search {\"code\":\"42\"}\n");
    CHECK(calls(run(input, with_schemas()))
          == "seg_2 search {\"query\":\"streaming parsers\",\"limit\":10,\"code\":\"007\"}\nseg_3 status {}\n");
}

TEST_CASE("poolside_v1: write_file streams its body live", "[formats][poolside_v1]")
{
    const auto r = run("<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>a.c</arg_value>\n<arg_key>content</arg_key>\n"
                       "<arg_value>int x; /* </arg_value> */\n</arg_value>\n</tool_call>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.c\"} \"int x; /* </arg_value> */\\n\"\n");
    handler<poolside_v1> h;
    REQUIRE(!h.feed("<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>b.txt</arg_value>\n<arg_key>content</arg_key>\n"
                    "<arg_value>streamed "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "streamed ");
    REQUIRE(!h.feed("live</arg_value>\n</tool_call>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"b.txt","content":"streamed live"})"));
}

TEST_CASE("poolside_v1: end of stream, not a call", "[formats][poolside_v1][finalize]")
{
    CHECK(calls(run("<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>x</arg_value>\n")) == "seg_1 f {\"a\":\"x\"}\n");
    CHECK(calls(run("<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>x y")) == "seg_1 f {} incomplete\n");
    for (std::string_view input : {"<tool_call> opens a call", "<tool_call>a<b</tool_call>", "</arg_value> alone"}) {
        INFO(input);
        CHECK(segments(run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("poolside_v1: vLLM's name cases", "[formats][poolside_v1]")
{
    // vllm-project/vllm tests/tool_parsers/test_poolside_v1_tool_parser.py::
    // test_function_name_with_internal_whitespace_still_parses: the name keeps its inner blank.
    const auto spaced = test::run_checked<poolside_v1>(
        "<tool_call>  get weather  <arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>");
    CHECK(calls(spaced) == "seg_1 get weather {\"city\":\"Paris\"}\n");
    // glm45 keeps refusing it: the difference is poolside_v1's own.
    CHECK(calls(test::run_whole<glm45>("<tool_call>get weather\n</tool_call>")).empty());
    // test_no_newline_after_name_non_streaming / _streaming: the name runs into its first key.
    CHECK(calls(run("<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>"))
          == "seg_1 get_weather {\"city\":\"Paris\"}\n");
    // test_whitespace_only_tool_call_name_is_rejected: no call, the text as written.
    // test_whitespace_padded_tool_call_is_not_quadratic: a `<` in the header names nothing (and the
    // header here is past max_held as well), so the output is the input, as content.
    const std::string padded = "<tool_call>" + std::string(4096, ' ') + "<x</tool_call>";
    for (std::string_view input : {std::string_view("<tool_call>   </tool_call>"), std::string_view(padded)}) {
        const auto r = test::run_checked<poolside_v1>(input);
        CHECK(r.invocations.empty());
        CHECK(test::content_of_type(r.events, segment_type::text) == input);
    }
}

TEST_CASE("poolside_v1: generated inputs at every chunking", "[formats][poolside_v1][generated]")
{
    constexpr std::string_view pieces[] = {
        "<tool_call>search\n<arg_key>limit</arg_key>\n<arg_value>3</arg_value>\n</tool_call>",
        "<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>\xc3\xa9</arg_value>x</arg_value>\n<arg_key>path</arg_key>\n"
        "<arg_value>p</arg_value>\n</tool_call>",
        "<tool_call>status</tool_call>", "<tool_call>get weather\n<arg_key>city</arg_key><arg_value>x</arg_value></tool_call>",
        "<tool_call>", "</arg_value>", "<arg_key>", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 30)) {
        test::run_checked<poolside_v1>(input);
        test::run_checked<poolside_v1>(input, with_schemas(40));
    }
}

} // namespace test_poolside_v1
