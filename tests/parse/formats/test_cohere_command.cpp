// cohere_command3, cohere_command4: inputs written from vLLM's documented behaviour
// (cohere_command_tool_parser.py and cohere_command_reasoning_parser.py, which hand the text to
// Cohere's melody filter: `<|START_ACTION|>` then a JSON array of `{"tool_call_id", "tool_name",
// "parameters"}` objects then `<|END_ACTION|>`; `<|START_RESPONSE|>` / `<|START_TEXT|>` around the
// answer; `<|START_THINKING|>` … `<|END_THINKING|>`, open from the start for Command 4). Every case
// runs at every split position, in 1-byte and random chunks, with byte conservation.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/cohere_command.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_cohere_command {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<cohere_command3> && cohere_command3::decodes_file_bodies);
static_assert(test::registered_text_format<cohere_command4> && cohere_command4::decodes_file_bodies);

namespace {

template<class Policy = cohere_command3>
test::policy_run run(std::string_view input)
{
    return test::run_checked<Policy>(input);
}

const reasoning_syntax& parser(std::string_view name)
{
    const reasoning_syntax* s = find_reasoning_parser(name);
    REQUIRE(s != nullptr);
    return *s;
}

constexpr std::string_view two_calls = "<|START_ACTION|>[\n"
                                       "    {\"tool_call_id\": \"0\", \"tool_name\": \"web_search\", \"parameters\": {\"query\": \"Paris weather\"}},\n"
                                       "    {\"tool_call_id\": \"1\", \"tool_name\": \"get_time\", \"parameters\": {\"tz\": \"CET\", \"hour24\": true}}\n"
                                       "]<|END_ACTION|>";

} // namespace

TEMPLATE_TEST_CASE("cohere_command: calls in an action block, named by tool_name", "[formats][cohere_command]", cohere_command3,
                   cohere_command4)
{
    const auto r = run<TestType>(two_calls);
    CHECK(calls(r) == "seg_1 web_search {\"query\":\"Paris weather\"}\nseg_2 get_time {\"tz\":\"CET\",\"hour24\":true}\n");
    CHECK(test::content_of_type(r.events, segment_type::text).empty());
    CHECK(r.invocations[0].arguments_raw == R"({"query": "Paris weather"})");
    // Keys in any order; a call with no tool_name (a `name` is not one) has no name.
    CHECK(calls(run<TestType>(R"(<|START_ACTION|>[{"parameters": {}, "tool_name": "f", "tool_call_id": "0"}, {"name": "g", "parameters": {}}]<|END_ACTION|>)"))
          == "seg_1 f {}\nseg_2  {} invalid_arguments\n");
}

TEMPLATE_TEST_CASE("cohere_command: the answer's tokens are markup; near-misses are text", "[formats][cohere_command]", cohere_command3,
                   cohere_command4)
{
    const auto r = run<TestType>("<|START_RESPONSE|>I will search.<|END_RESPONSE|>" + std::string(two_calls) + " Done.");
    CHECK(test::content_of_type(r.events, segment_type::text) == "I will search. Done.");
    CHECK(r.invocations.size() == 2);
    for (std::string_view input : {"<|START_ACTION|>not json<|END_ACTION|>", R"([{"tool_name": "f", "parameters": {}}])",
                                   R"(<|START_ACTION|>{"tool_name": "f", "parameters": {}}<|END_ACTION|>)", "<|START_ACTI", "<|START_RESPONSE"}) {
        INFO(input);
        const auto t = run<TestType>(input);
        CHECK(t.invocations.empty());
        CHECK(test::content_of_type(t.events, segment_type::text) == input);
    }
}

TEST_CASE("cohere_command: Command 4 also wraps its answer in <|START_TEXT|>", "[formats][cohere_command]")
{
    CHECK(test::content_of_type(run<cohere_command4>("<|START_TEXT|>Hi.<|END_TEXT|>").events, segment_type::text) == "Hi.");
    CHECK(test::content_of_type(run<cohere_command3>("<|START_TEXT|>Hi.<|END_TEXT|>").events, segment_type::text)
          == "<|START_TEXT|>Hi.<|END_TEXT|>");
}

TEST_CASE("cohere_command: write_file streams its decoded body live", "[formats][cohere_command]")
{
    handler<cohere_command3> h;
    REQUIRE(!h.feed(R"(<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "write_file", "parameters": {"path": "a.md", "content": "# Title\n)"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "# Title\n");
    REQUIRE(!h.feed(R"(<|END_ACTION|> is data"}}]<|END_ACTION|>)"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.md","content":"# Title\n<|END_ACTION|> is data"})"));
}

TEST_CASE("cohere_command: cut off, generated inputs", "[formats][cohere_command][finalize]")
{
    CHECK(calls(run(R"(<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "f", "parameters": {"a": "x)")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run(R"(<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "f", "parameters": {}}, {"tool_call_id": "1", "tool_na)"))
          == "seg_1 f {}\nseg_2  {} incomplete\n");
    // The array complete, <|END_ACTION|> not written (a stop token): the calls stand.
    CHECK(calls(run(R"(<|START_ACTION|>[{"tool_name": "f", "parameters": {"a": 1}}])")) == "seg_1 f {\"a\":1}\n");
    constexpr std::string_view pieces[] = {
        two_calls, "<|START_RESPONSE|>", "<|END_RESPONSE|>", "Hi ", "<|START_ACTION|>oops",
        R"(<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "write_file", "parameters": {"path": "x", "content": "a]\n"}}]<|END_ACTION|>)",
    };
    for (const std::string& input : test::mixed_inputs(pieces, 30)) {
        INFO(input);
        test::check_chunk_invariance<cohere_command3>(input);
        test::check_byte_conservation<cohere_command3>(input);
    }
}

TEMPLATE_TEST_CASE("cohere_command: an element left unclosed ends at <|END_ACTION|>", "[formats][cohere_command][peers]",
                   cohere_command3, cohere_command4)
{
    // Derived from vLLM tests/tool_parsers/test_kimi_k2_tool_parser.py::test_extract_tool_calls_invalid_json
    // (vLLM extracts the call after one whose JSON a marker cut): `<|END_ACTION|>` outside a string
    // ends the element, its call ENDs invalid_arguments, and the next action is read.
    const auto r = run<TestType>(R"(<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "f", "parameters": {"a": 1}<|END_ACTION|>)"
                                 R"(<|START_ACTION|>[{"tool_call_id": "1", "tool_name": "g", "parameters": {}}]<|END_ACTION|>)");
    CHECK(calls(r) == "seg_1 f {} invalid_arguments\nseg_2 g {}\n");
}

TEST_CASE("cohere_command: reasoning parsers of the same names", "[formats][cohere_command][reasoning]")
{
    using cmd3 = reasoning_policy<cohere_command3>;
    using cmd4 = reasoning_policy<cohere_command4>;
    const reasoning_syntax& r3 = parser("cohere_command3");
    const reasoning_syntax& r4 = parser("cohere_command4");
    CHECK(!r3.open_at_start);
    CHECK(r4.open_at_start);   // Command 4's template opens thinking
    const auto a = test::run_checked<cmd3>("<|START_THINKING|>Search first.<|END_THINKING|>" + std::string(two_calls), r3);
    CHECK(test::content_of_type(a.events, segment_type::reasoning) == "Search first.");
    CHECK(a.invocations.size() == 2);
    CHECK(segments(test::run_checked<cmd3>("<|START_RESPONSE|>Hi.<|END_RESPONSE|>", r3)) == "text \"Hi.\"\n");
    CHECK(segments(test::run_checked<cmd4>("Plan.<|END_THINKING|><|START_TEXT|>Hi.<|END_TEXT|>", r4))
          == "reasoning \"Plan.\"\ntext \"Hi.\"\n");
    // The tokens are special tokens: a later region is reasoning too.
    CHECK(segments(test::run_checked<cmd3>("a<|START_THINKING|>b<|END_THINKING|>c", r3)) == "text \"a\"\nreasoning \"b\"\ntext \"c\"\n");
}

} // namespace test_cohere_command
