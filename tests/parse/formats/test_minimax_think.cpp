// minimax (MiniMax-Text-01 / M1): no call opens inside `<think>…</think>`; the block stays text,
// as vLLM's minimax tool parser leaves it in the content (vllm/tool_parsers/minimax_tool_parser.py,
// preprocess_model_output). Every input runs at every split position, in 1-byte and random
// chunks, with byte conservation.
#include <toolstream/parse/formats/minimax.hpp>
#include <toolstream/parse/policies/reasoning.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <string>
#include <string_view>

namespace test_minimax_think {

using namespace toolstream;
using test::calls;
using test::segments;

TEST_CASE("minimax: calls inside <think> are text, the calls after it are calls (vLLM)", "[formats][minimax][reasoning]")
{
    // vllm-project/vllm tests/tool_parsers/test_minimax_tool_parser.py::test_extract_tool_calls_with_thinking_tags
    const std::string think =
        "<think>I should use a tool. <tool_calls>\n{\"name\": \"ignored_tool\", \"arguments\": {\"should\": \"ignore\"}}\n"
        "</tool_calls></think>\n\nLet me help you with the weather. ";
    const auto r = test::run_checked<minimax>(
        think + "<tool_calls>\n{\"name\": \"get_current_weather\", \"arguments\": {\"city\": \"Miami\", \"state\": \"FL\", "
                "\"unit\": \"fahrenheit\"}}\n</tool_calls>");
    CHECK(calls(r) == "seg_2 get_current_weather {\"city\":\"Miami\",\"state\":\"FL\",\"unit\":\"fahrenheit\"}\n");
    // vLLM's content is the same bytes stripped of the blank before the call; here text keeps them.
    CHECK(test::content_of_type(r.events, segment_type::text) == think);

    // ...::test_streaming_with_thinking_tags
    const auto streamed = test::run_checked<minimax>(
        "<think><tool_calls>{\"name\": \"ignored\", \"arguments\": {}}</tool_calls></think>"
        "<tool_calls>{\"name\": \"real_tool\", \"arguments\": {\"param\": \"value\"}}</tool_calls>");
    CHECK(calls(streamed) == "seg_2 real_tool {\"param\":\"value\"}\n");

    // ...::test_preprocess_model_output_with_thinking_tags: the call in the block is gone, the
    // block and the call after it stay.
    const auto pre = test::run_checked<minimax>(
        "<think>Let me think about this. <tool_calls>\n{\"name\": \"fake_tool\", \"arguments\": {\"param\": \"value\"}}\n"
        "</tool_calls> This should be removed.</think>\n\nI'll help you with that. <tool_calls>\n"
        "{\"name\": \"get_current_weather\", \"arguments\": {\"city\": \"Seattle\", \"state\": \"WA\"}}\n</tool_calls>");
    CHECK(calls(pre) == "seg_2 get_current_weather {\"city\":\"Seattle\",\"state\":\"WA\"}\n");
}

TEST_CASE("minimax: a <think> block left open keeps its calls text to the end", "[formats][minimax][reasoning]")
{
    // vLLM's streaming parser (_update_thinking_state): more <think> than </think> so far means
    // inside the block, where no call is read.
    CHECK(segments(test::run_checked<minimax>("<think>plan <tool_calls>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_calls>"))
          == "text \"<think>plan <tool_calls>\\n{\\\"name\\\": \\\"f\\\", \\\"arguments\\\": {}}\\n</tool_calls>\"\n");
    // A close cut in half at the end is text too.
    CHECK(segments(test::run_checked<minimax>("<think>a</thi")) == "text \"<think>a</thi\"\n");
    // Outside a block, the same call is a call.
    CHECK(calls(test::run_checked<minimax>("x</think><tool_calls>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_calls>"))
          == "seg_2 f {}\n");
}

TEST_CASE("minimax: behind a reasoning parser the block is reasoning", "[formats][minimax][reasoning]")
{
    // The reasoning parser reads the region first; its calls stay reasoning, the one after it is read.
    const auto r = test::run_checked<reasoning_policy<minimax, deepseek_r1_reasoning>>(
        "<think>maybe <tool_calls>\n{\"name\": \"g\", \"arguments\": {}}\n</tool_calls></think>ok <tool_calls>\n"
        "{\"name\": \"f\", \"arguments\": {}}\n</tool_calls>");
    CHECK(test::content_of_type(r.events, segment_type::reasoning)
          == "maybe <tool_calls>\n{\"name\": \"g\", \"arguments\": {}}\n</tool_calls>");
    CHECK(calls(r) == "seg_3 f {}\n");
}

} // namespace test_minimax_think
