// Reasoning parsers whose regions end at a tool call (reasoning_syntax::yields_to_calls) end
// them where the active format opens a call, whichever format sits behind them; an opener the
// format reads as text stays reasoning. Cases from llama.cpp's and vLLM's tests. Every input runs
// at every split position, in 1-byte and random chunks, with byte conservation.
#include <toolstream/parse/formats/glm45.hpp>
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/formats/kimi_k2.hpp>
#include <toolstream/parse/formats/minimax_m2.hpp>
#include <toolstream/parse/formats/qwen3_coder.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/runtime_policy.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <string>
#include <string_view>
#include <utility>

namespace test_reasoning_openings {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

using glm45_qwen3 = reasoning_policy<glm45, qwen3_reasoning>;

// glm45 behind qwen3 chosen by name, as the CLI and the gateway choose it (runtime_policy's
// chosen alternative tells the splitter where its calls open).
struct glm45_qwen3_by_name : runtime_policy {
    glm45_qwen3_by_name() : runtime_policy(make_policy("glm45", "qwen3").value()) {}
};

// hermes without its openers: the splitter falls back to the parser's own markers.
struct untold_hermes {
    hermes inner;
    template<toolstream::emitter Emitter>
    void on_content(std::string_view text, Emitter& out)
    {
        inner.on_content(text, out);
    }
    template<toolstream::emitter Emitter>
    void finalize(Emitter& out)
    {
        inner.finalize(out);
    }
    void reset() { inner.reset(); }
    bool in_block() const noexcept { return inner.in_block(); }
};

constexpr std::string_view get_time =
    "<tool_call>get_time\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>";
constexpr std::string_view finish =
    "<tool_call>\n<function=Finish>\n<parameter=answer>\n204\n</parameter>\n</function>\n</tool_call>";

template<class Policy>
test::policy_run run(std::string_view input, const reasoning_syntax& syntax = qwen3_reasoning::syntax)
{
    return test::run_checked<Policy>(input, syntax);
}

} // namespace

static_assert(parser_policy<reasoning_policy<untold_hermes>>);

TEST_CASE("reasoning openings: glm45 behind qwen3, a call with no think tags is the call", "[formats][reasoning][peers]")
{
    // ggml-org/llama.cpp tests/test-chat.cpp, the GLM-4.6 peg_tester case
    // "<tool_call>special_function\n<arg_key>arg1</arg_key>\n<arg_value>1</arg_value>\n</tool_call>"
    // → message_assist_call (the template opens thinking, the output has no tags).
    const auto r = run<glm45_qwen3>(
        "<tool_call>special_function\n<arg_key>arg1</arg_key>\n<arg_value>1</arg_value>\n</tool_call>");
    CHECK(calls(r) == "seg_1 special_function {\"arg1\":1}\n");
    CHECK(test::content_of_type(r.events, segment_type::reasoning).empty());
    // The prose_after_call case: a call, then prose (derived: the prose after the call is
    // content, as it is after any call once the region has ended).
    const std::string prose = std::string(get_time) + "\nIt is noon in Paris.";
    for (const auto& got : {run<glm45_qwen3>(prose), test::run_checked<glm45_qwen3_by_name>(prose)}) {
        CHECK(calls(got) == "seg_1 get_time {\"city\":\"Paris\"}\n");
        CHECK(test::content_of_type(got.events, segment_type::reasoning).empty());
        CHECK(test::content_of_type(got.events, segment_type::text) == "\nIt is noon in Paris.");
    }
    // Reasoning before the call, the region left open (Qwen3.5 writes no </think> before a call).
    const auto open = run<glm45_qwen3>("Need the time.\n" + std::string(get_time));
    CHECK(test::content_of_type(open.events, segment_type::reasoning) == "Need the time.\n");
    CHECK(calls(open) == "seg_2 get_time {\"city\":\"Paris\"}\n");
}

TEST_CASE("reasoning openings: an opener the format reads as text stays reasoning", "[formats][reasoning][peers]")
{
    // vllm-project/vllm tests/reasoning/test_qwen3_reasoning_parser.py (the <function lookahead):
    // "<tool_call>" that no call body follows is reasoning. Here the body is the active format's:
    // glm45 wants a name without blanks up to a line break, hermes a JSON object.
    CHECK(segments(run<glm45_qwen3>("I could use <tool_call> here.</think>ok"))
          == "reasoning \"I could use <tool_call> here.\"\ntext \"ok\"\n");
    CHECK(segments(run<glm45_qwen3>("I could use <tool_call> the clock\nlater.</think>ok"))
          == "reasoning \"I could use <tool_call> the clock\\nlater.\"\ntext \"ok\"\n");
    CHECK(segments(run<reasoning_policy<hermes>>("Try <tool_call>get_time\n then.</think>ok"))
          == "reasoning \"Try <tool_call>get_time\\n then.\"\ntext \"ok\"\n");
    // Cut before the format could tell: reasoning, as the held opening would be text.
    CHECK(segments(run<glm45_qwen3>("plan <tool_call>get_ti")) == "reasoning \"plan <tool_call>get_ti\"\n");
}

TEST_CASE("reasoning openings: Qwen3-Coder calls inside or after an open region (vLLM)", "[formats][reasoning][peers]")
{
    using coder_qwen3 = reasoning_policy<qwen3_coder, qwen3_reasoning>;
    // vllm-project/vllm tests/reasoning/test_qwen3_tool_call_recovery.py::
    // test_truncated_reasoning_still_recovers_embedded_tool_call
    const auto cut = run<coder_qwen3>("verify result\n" + std::string(finish));
    CHECK(test::content_of_type(cut.events, segment_type::reasoning) == "verify result\n");
    CHECK(calls(cut) == "seg_2 Finish {\"answer\":\"204\"}\n");
    // ...::test_embedded_tool_call_is_promoted_from_reasoning_into_content: the call inside
    // <think> is the call, not reasoning; the </think> after it is content here (vLLM moves the
    // call after the content instead).
    const auto inside = run<coder_qwen3>("<think>The verification confirms my solution:\n" + std::string(finish) + "\n</think>");
    CHECK(test::content_of_type(inside.events, segment_type::reasoning) == "The verification confirms my solution:\n");
    CHECK(calls(inside) == "seg_2 Finish {\"answer\":\"204\"}\n");
    // ...::test_normal_reasoning_extraction_unchanged
    CHECK(segments(run<coder_qwen3>("<think>Let me think about this carefully.\nThe answer is 42.</think>The answer is 42."))
          == "reasoning \"Let me think about this carefully.\\nThe answer is 42.\"\ntext \"The answer is 42.\"\n");
}

TEST_CASE("reasoning openings: any format's calls end the region, any parser that yields to calls", "[formats][reasoning]")
{
    // Derived: the region ends at the call of the format behind the parser, whose own marker
    // (minimax_m2's, kimi_k2's) the model of another family does not write.
    const auto minimax = run<reasoning_policy<minimax_m2>>(
        "plan\n<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">1</parameter>\n</invoke>\n</minimax:tool_call>");
    CHECK(test::content_of_type(minimax.events, segment_type::reasoning) == "plan\n");
    CHECK(calls(minimax) == "seg_2 f {\"a\":\"1\"}\n");
    const auto kimi = run<reasoning_policy<kimi_k2>>(
        "plan<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|>"
        "<|tool_calls_section_end|>",
        *find_reasoning_parser("glm47"));
    CHECK(test::content_of_type(kimi.events, segment_type::reasoning) == "plan");
    CHECK(calls(kimi) == "functions.f:0 f {}\n");
    // The parser's own marker behind a format that reads it as text: reasoning (glm47 under hermes).
    CHECK(segments(run<reasoning_policy<hermes>>("plan <tool_call>get_time\n<arg_key>a</arg_key></think>x",
                                                 *find_reasoning_parser("glm47")))
          == "reasoning \"plan <tool_call>get_time\\n<arg_key>a</arg_key>\"\ntext \"x\"\n");
}

TEST_CASE("reasoning openings: a policy that does not tell its openings gets the parser's markers", "[formats][reasoning]")
{
    // qwen3's own rule then: `<tool_call>` followed by `<function` or `{` (vLLM's lookahead).
    using untold = reasoning_policy<untold_hermes>;
    const auto json = run<untold>("plan <tool_call>\n{\"name\":\"f\",\"arguments\":{}}</tool_call>");
    CHECK(test::content_of_type(json.events, segment_type::reasoning) == "plan ");
    CHECK(calls(json) == "seg_2 f {}\n");
    CHECK(segments(run<untold>(std::string("plan ") + std::string(get_time)))
          == "reasoning \"plan " + std::string("<tool_call>get_time\\n<arg_key>city</arg_key>\\n<arg_value>Paris</arg_value>\\n</tool_call>")
                 + "\"\n");
}

} // namespace test_reasoning_openings
