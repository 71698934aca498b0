// Reasoning parsers against the peers' documented behaviour (vLLM's vllm/reasoning parsers of the
// same names, llama.cpp's common/chat*): forced-open templates, thinking disabled, an unclosed
// region ended by a tool call, empty reasoning. Every input runs at every split position, in
// 1-byte and random chunks, with byte conservation.
#include <toolstream/formats/hermes.hpp>
#include <toolstream/formats/kimi_k2.hpp>
#include <toolstream/formats/minimax_m2.hpp>
#include <toolstream/formats/qwen3_coder.hpp>
#include <toolstream/policies/reasoning.hpp>
#include <toolstream/policies/runtime.hpp>

#include "catch_compat.hpp"
#include "formats/format_checks.hpp"

using namespace toolstream;
using test::calls;
using test::segments;

namespace {
using qwen3_coder_r = reasoning_policy<qwen3_coder>;
using hermes_r = reasoning_policy<hermes>;
using kimi_r = reasoning_policy<kimi_k2>;
using minimax_r = reasoning_policy<minimax_m2>;

const reasoning_syntax& parser(std::string_view name)
{
    const reasoning_syntax* s = find_reasoning_parser(name);
    REQUIRE(s != nullptr);
    return *s;
}

template<class Policy>
test::policy_run run(std::string_view input, reasoning_syntax syntax)
{
    return test::run_checked<Policy>(input, syntax);
}

constexpr std::string_view coder_call = "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>";
constexpr std::string_view kimi_calls =
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\":1}<|tool_call_end|>"
    "<|tool_call_begin|>functions.g:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>";
} // namespace

TEST_CASE("reasoning/qwen3 as vLLM's Qwen3ReasoningParser: <think> in the prompt by default", "[formats][reasoning][peers]")
{
    const reasoning_syntax& qwen3 = parser("qwen3");
    CHECK(qwen3.open_at_start);
    // vLLM: text before a </think> with no <think> is reasoning; output with no tags at all is
    // reasoning (the output was cut while thinking).
    CHECK(segments(run<hermes_r>("Plan it.\n</think>\n\nDone.", qwen3)) == "reasoning \"Plan it.\\n\"\ntext \"\\n\\nDone.\"\n");
    CHECK(segments(run<hermes_r>("Still thinking", qwen3)) == "reasoning \"Still thinking\"\n");
    // vLLM strips a <think> the model writes itself (older templates).
    CHECK(segments(run<hermes_r>("<think>a</think>b", qwen3)) == "reasoning \"a\"\ntext \"b\"\n");
    // Empty reasoning: </think> first.
    CHECK(segments(run<hermes_r>("</think>b", qwen3)) == "text \"b\"\n");
}

TEST_CASE("reasoning/qwen3: a <tool_call> with a call body ends an open region (vLLM)", "[formats][reasoning][peers]")
{
    const reasoning_syntax& qwen3 = parser("qwen3");
    // Qwen3.5 calls without closing </think>: vLLM ends the reasoning at <tool_call> + <function=.
    const auto coder = run<qwen3_coder_r>("Need f." + std::string(coder_call), qwen3);
    CHECK(test::content_of_type(coder.events, segment_type::reasoning) == "Need f.");
    CHECK(calls(coder) == "seg_2 f {\"a\":\"1\"}\n");
    // The same with an explicit <think>: vLLM's streaming parser ends the region at the call even
    // though a </think> comes later (llama.cpp keeps such a call as reasoning; we follow vLLM).
    const auto late = run<hermes_r>("<think>try <tool_call>\n{\"name\":\"g\",\"arguments\":{}}</tool_call> then</think>x", qwen3);
    CHECK(test::content_of_type(late.events, segment_type::reasoning) == "try ");
    CHECK(calls(late) == "seg_2 g {}\n");
    CHECK(test::content_of_type(late.events, segment_type::text) == " then</think>x");
    // A <tool_call> that no call body follows is reasoning text (vLLM's <function lookahead).
    CHECK(segments(run<hermes_r>("I could use <tool_call> here.</think>ok", qwen3))
          == "reasoning \"I could use <tool_call> here.\"\ntext \"ok\"\n");
    // Cut right after it: nothing confirmed the call, so it stays reasoning.
    CHECK(segments(run<hermes_r>("plan <tool_call>\n ", qwen3)) == "reasoning \"plan <tool_call>\\n \"\n");
}

TEST_CASE("reasoning: --thinking-open no (the template disabled thinking)", "[formats][reasoning][peers]")
{
    for (std::string_view name : {"qwen3", "deepseek_r1", "kimi_k2", "minimax_m2"}) {
        INFO(name);
        const reasoning_syntax off = with_thinking_open(parser(name), false);
        // No tags: content (vLLM's enable_thinking=false / thinking=false).
        CHECK(segments(run<hermes_r>("Just an answer.", off)) == "text \"Just an answer.\"\n");
        // An explicit region still opens.
        CHECK(segments(run<hermes_r>("<think>a</think>b", off)) == "reasoning \"a\"\ntext \"b\"\n");
    }
    // The same through make_policy, as the CLIs pass --thinking-open.
    auto on = make_policy("hermes", "qwen3", nullptr, false);
    REQUIRE(on.has_value());
    CHECK(!on->reasoning().open_at_start);
    CHECK(make_policy("hermes", "qwen3").value().reasoning().open_at_start);
}

TEST_CASE("reasoning/deepseek_r1 and minimax_m2: forced open, empty reasoning", "[formats][reasoning][peers]")
{
    for (std::string_view name : {"deepseek_r1", "minimax_m2"}) {
        INFO(name);
        const reasoning_syntax& r = parser(name);
        // vLLM's DeepSeekR1 / MiniMaxM2 parsers: no tags is reasoning, </think> first is empty reasoning.
        CHECK(segments(run<hermes_r>("all thought", r)) == "reasoning \"all thought\"\n");
        CHECK(segments(run<hermes_r>("</think>answer", r)) == "text \"answer\"\n");
        CHECK(segments(run<hermes_r>("<think>\nx</think>y", r)) == "reasoning \"\\nx\"\ntext \"y\"\n");
    }
    // MiniMax: a tool-call section ends a region left open (vLLM keeps the section as reasoning:
    // a documented difference, so that the call is not lost).
    const auto m = run<minimax_r>("plan\n<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">1</parameter>\n</invoke>\n"
                                  "</minimax:tool_call>",
                                  parser("minimax_m2"));
    CHECK(test::content_of_type(m.events, segment_type::reasoning) == "plan\n");
    CHECK(calls(m) == "seg_2 f {\"a\":\"1\"}\n");
}

TEST_CASE("reasoning/kimi_k2 as vLLM's KimiK2ReasoningParser", "[formats][reasoning][peers][kimi_k2]")
{
    const reasoning_syntax& kimi = parser("kimi_k2");
    // Thinking on by default, <think> optional; the tool-call section ends the region, explicit
    // or not, and its calls are extracted.
    for (std::string_view lead : {"", "<think>"}) {
        INFO(lead);
        const auto r = run<kimi_r>(std::string(lead) + "I should call f." + std::string(kimi_calls), kimi);
        CHECK(test::content_of_type(r.events, segment_type::reasoning) == "I should call f.");
        CHECK(calls(r) == "functions.f:0 f {\"a\":1}\nfunctions.g:1 g {}\n");
    }
    CHECK(segments(run<kimi_r>("<think>a</think>b", kimi)) == "reasoning \"a\"\ntext \"b\"\n");
    CHECK(segments(run<kimi_r>("</think>b", kimi)) == "text \"b\"\n");
}
