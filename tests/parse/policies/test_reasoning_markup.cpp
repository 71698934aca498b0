// Reasoning markers that are markup where vLLM's parsers take them out: a closing marker left in
// the content (minimax_m2's second `</think>`, gemma4's `<channel|>`, mistral's `[/THINK]`),
// hunyuan_a13b's `\n</answer>`, and gemma4's channel labels. Cases from vLLM's
// tests/reasoning/test_*_reasoning_parser.py. Every input runs at every split position, in
// 1-byte and random chunks, with byte conservation.
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/formats/minimax_m2.hpp>
#include <toolstream/parse/policies/reasoning.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <string>
#include <string_view>

namespace test_reasoning_markup {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

const reasoning_syntax& parser(std::string_view name)
{
    const reasoning_syntax* s = find_reasoning_parser(name);
    REQUIRE(s != nullptr);
    return *s;
}

template<class Policy = reasoning_policy<hermes>>
std::string split(std::string_view input, std::string_view name)
{
    return segments(test::run_checked<Policy>(input, parser(name)));
}

} // namespace

TEST_CASE("reasoning markup/minimax_m2: a second </think> is markup (vLLM)", "[formats][reasoning][peers]")
{
    // vllm-project/vllm tests/reasoning/test_minimax_m2_reasoning_parser.py::test_reasoning
    // [double_end_token] and [double_end_token_streaming]
    CHECK(split("reasoning</think>content A</think>content B", "minimax_m2")
          == "reasoning \"reasoning\"\ntext \"content Acontent B\"\n");
    // ...[simple_reasoning], [shortest_reasoning_streaming]
    CHECK(split("This is a reasoning section</think>This is the rest", "minimax_m2")
          == "reasoning \"This is a reasoning section\"\ntext \"This is the rest\"\n");
    CHECK(split("</think>This is the response", "minimax_m2") == "text \"This is the response\"\n");
    // Derived: thinking off, a </think> in the answer is markup as well; inside a call it is the
    // call's data.
    CHECK(segments(test::run_checked<reasoning_policy<hermes>>("a</think>b", with_thinking_open(parser("minimax_m2"), false)))
          == "text \"ab\"\n");
    const auto call = test::run_checked<reasoning_policy<minimax_m2>>(
        "x</think>y<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">p</think>q</parameter>\n</invoke>\n"
        "</minimax:tool_call>",
        parser("minimax_m2"));
    CHECK(calls(call) == "seg_3 f {\"a\":\"p</think>q\"}\n");
    CHECK(test::content_of_type(call.events, segment_type::text) == "y");
}

TEST_CASE("reasoning markup/hunyuan_a13b: the line breaks around </think> and \\n</answer> are markup (vLLM)",
          "[formats][reasoning][peers]")
{
    // vllm-project/vllm tests/reasoning/test_hunyuan_reasoning_parser.py::test_reasoning
    // [simple_reasoning] and [simple_reasoning_streaming]
    CHECK(split("<think>\nThis is a reasoning section\n</think>\n<answer>\nThis is the rest\n</answer>", "hunyuan_a13b")
          == "reasoning \"This is a reasoning section\"\ntext \"This is the rest\"\n");
    // ...[no_reasoning_quick] and [no_reasoning_quick_stream]
    CHECK(split("<think>\n\n</think>\n<answer>\nThis is the rest\n</answer>", "hunyuan_a13b") == "text \"This is the rest\"\n");
    // ...[multiple_lines], [complete_reasoning], [no_reasoning]
    CHECK(split("<think>\nThis\nThat\n</think>\n<answer>\nThis is the rest\nThat", "hunyuan_a13b")
          == "reasoning \"This\\nThat\"\ntext \"This is the rest\\nThat\"\n");
    CHECK(split("<think>\nThis is a reasoning section\n</think>\n<answer>\n", "hunyuan_a13b")
          == "reasoning \"This is a reasoning section\"\n");
    CHECK(split("This is content", "hunyuan_a13b") == "text \"This is content\"\n");
    // The parser's fast-thinking close (response_start_ids_fast) has no line break before
    // </think>; a </answer> without its line break is content, as vLLM matches the token sequence.
    CHECK(split("<think>\nplan</think>\n<answer>\nHi</answer>", "hunyuan_a13b") == "reasoning \"plan\"\ntext \"Hi</answer>\"\n");
}

TEST_CASE("reasoning markup/mistral: [/THINK] without [THINK] is dropped (vLLM)", "[formats][reasoning][peers]")
{
    // vllm-project/vllm tests/reasoning/test_mistral_reasoning_parser.py::test_mistral_reasoning
    // [shortest] and [shortest_streaming]
    CHECK(split("[/THINK]This is the rest", "mistral") == "text \"This is the rest\"\n");
    // ...[reasoning_with_think], [think_no_end]
    CHECK(split("[THINK]This is a reasoning section[/THINK]This is the rest", "mistral")
          == "reasoning \"This is a reasoning section\"\ntext \"This is the rest\"\n");
    CHECK(split("[THINK]This is a reasoning section", "mistral") == "reasoning \"This is a reasoning section\"\n");
    // vllm/reasoning/mistral_reasoning_parser.py, extract_reasoning case 3.a: an end token with
    // no begin token is discarded, the content taken before and after it.
    CHECK(split("Hello[/THINK] world", "mistral") == "text \"Hello world\"\n");
}

TEST_CASE("reasoning markup/gemma4: <channel|> outside a channel is dropped (vLLM)", "[formats][reasoning][peers]")
{
    // vllm-project/vllm tests/reasoning/test_gemma4_reasoning_parser.py::test_gemma4_reasoning
    // [invalid_simple_streaming] and [invalid_complete_streaming]
    CHECK(split("This is a reasoning section<channel|>This is the rest", "gemma4")
          == "text \"This is a reasoning sectionThis is the rest\"\n");
    CHECK(split("This is a reasoning section<channel|>", "gemma4") == "text \"This is a reasoning section\"\n");
}

TEST_CASE("reasoning markup/gemma4: <|channel> opens a region whatever its label (vLLM)", "[formats][reasoning][peers]")
{
    // vllm-project/vllm tests/reasoning/test_gemma4_reasoning_parser.py::test_gemma4_reasoning
    // [reasoning], [no_content], [multiple_lines], [new_line_streaming]
    CHECK(split("<|channel>This is a reasoning section<channel|>This is the rest", "gemma4")
          == "reasoning \"This is a reasoning section\"\ntext \"This is the rest\"\n");
    CHECK(split("<|channel>This is reasoning", "gemma4") == "reasoning \"This is reasoning\"\n");
    CHECK(split("<|channel>This\nThat<channel|>This is the rest\nThat", "gemma4")
          == "reasoning \"This\\nThat\"\ntext \"This is the rest\\nThat\"\n");
    const auto lines = test::run_checked<reasoning_policy<hermes>>(
        "Before\n<|channel>This is a reasoning section<channel|>\nThis is the rest", parser("gemma4"));
    CHECK(test::content_of_type(lines.events, segment_type::reasoning) == "This is a reasoning section");
    CHECK(test::content_of_type(lines.events, segment_type::text) == "Before\n\nThis is the rest");
    // ...[thought_prefix], [thought_prefix_only], [thought_prefix_multiline], [thought_prefix_diverge]:
    // the `thought` label and its line break are markup; a label that diverges from it is reasoning.
    CHECK(split("<|channel>thought\nActual reasoning here<channel|>Final answer", "gemma4")
          == "reasoning \"Actual reasoning here\"\ntext \"Final answer\"\n");
    CHECK(test::run_checked<reasoning_policy<hermes>>("<|channel>thought\n<channel|>", parser("gemma4")).events.empty());
    CHECK(split("<|channel>thought\nLine1\nLine2<channel|>Answer", "gemma4")
          == "reasoning \"Line1\\nLine2\"\ntext \"Answer\"\n");
    CHECK(split("<|channel>thousand reasons<channel|>Done", "gemma4") == "reasoning \"thousand reasons\"\ntext \"Done\"\n");
    // ...[tool_call_started]
    CHECK(split("<|tool_call>", "gemma4") == "text \"<|tool_call>\"\n");
    // ggml-org/llama.cpp tests/test-chat.cpp, Gemma 4 "Empty reasoning (budget=0: sampler forces
    // end tag before newline)": the label without its line break is markup too.
    CHECK(split("<|channel>thought<channel|>Hello, world!", "gemma4") == "text \"Hello, world!\"\n");
}

} // namespace test_reasoning_markup
