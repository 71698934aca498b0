// Reasoning parsers in front of tool-call formats: reasoning_policy<Format, Reasoning> at compile
// time, and a reasoning syntax chosen by name at run time, at every split position.
#include <toolstream/parse/formats/deepseek_v31.hpp>
#include <toolstream/parse/formats/kimi_k2.hpp>
#include <toolstream/parse/policies/reasoning.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

namespace test_reasoning {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {
// Hermes-shaped calls, for qwen3's `<tool_call>` rule.
struct tool_call_format : marker_format {
    static constexpr std::string_view name = "tool_call";
    static constexpr std::string_view call_open = "<tool_call>";
    static constexpr std::string_view call_close = "</tool_call>";
    static constexpr text_arguments arguments = text_arguments::json_call;
};
using tool_calls = text_format_policy<tool_call_format>;
using qwen3_calls = reasoning_policy<tool_calls, qwen3_reasoning>;
using r1_v31 = reasoning_policy<deepseek_v31, deepseek_r1_reasoning>;
using kimi = reasoning_policy<kimi_k2, kimi_k2_reasoning>;
using runtime_reasoned = reasoning_policy<tool_calls>;
} // namespace

static_assert(parser_policy<qwen3_calls> && parser_policy<r1_v31> && parser_policy<runtime_reasoned>);

TEST_CASE("reasoning/qwen3: <think> blocks, open from the start, a <tool_call> ends an implicit region", "[formats][reasoning]")
{
    CHECK(segments(test::run_checked<qwen3_calls>("<think>I could use <tool_call> here.</think>\n\nSure.<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>"))
          == "reasoning \"I could use <tool_call> here.\"\ntext \"\\n\\nSure.\"\n"
             "tool_call {\"tool_name\":\"a\"} \"{\\\"name\\\":\\\"a\\\",\\\"arguments\\\":{}}\"\n");
    // The opening tag was in the prompt: only </think> appears.
    reasoning_syntax open = qwen3_reasoning::syntax;
    open.open_at_start = true;
    CHECK(segments(test::run_checked<qwen3_calls>("Plan.\n</think>\nok", open)) == "reasoning \"Plan.\\n\"\ntext \"\\nok\"\n");
    // No </think>: a <tool_call> outside a <think> block ends the reasoning.
    CHECK(segments(test::run_checked<qwen3_calls>("Plan. <tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>", open))
          == "reasoning \"Plan. \"\ntool_call {\"tool_name\":\"a\"} \"{\\\"name\\\":\\\"a\\\",\\\"arguments\\\":{}}\"\n");
    // One region, at the start: <think> in a later call's arguments is data.
    CHECK(calls(test::run_checked<qwen3_calls>("Hi <tool_call>{\"name\":\"n\",\"arguments\":{\"t\":\"<think>x</think>\"}}</tool_call>"))
          == "seg_2 n {\"t\":\"<think>x</think>\"}\n");
    // Cut inside reasoning: the held prefix is reasoning.
    CHECK(segments(test::run_checked<qwen3_calls>("<think>hmm </thi")) == "reasoning \"hmm </thi\"\n");
}

TEST_CASE("reasoning/deepseek_r1 and kimi_k2 in front of their formats", "[formats][reasoning]")
{
    CHECK(segments(test::run_checked<r1_v31>("Need weather.</think>On it.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>w<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"))
          == "reasoning \"Need weather.\"\ntext \"On it.\"\ntool_call {\"tool_name\":\"w\"} \"{}\"\n");
    // The model repeats the prompt's <think>: markup, not reasoning.
    CHECK(segments(test::run_checked<r1_v31>("<think>\nx</think>y")) == "reasoning \"\\nx\"\ntext \"y\"\n");
    CHECK(segments(test::run_checked<kimi>("<think>a</think>b<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>"))
          == "reasoning \"a\"\ntext \"b\"\ntool_call {\"tool_name\":\"f\"} \"{}\"\n");
}

TEST_CASE("reasoning/openai_gptoss: recurring analysis messages, <|end|> stripped or not", "[formats][reasoning]")
{
    const auto r = test::run_checked<runtime_reasoned>(
        "<|channel|>analysis<|message|>think 1<|end|><|start|>assistant<|channel|>analysis<|message|>think 2"
        "<|start|>assistant<|channel|>final<|message|>Hi", *find_reasoning_parser("openai_gptoss"));
    CHECK(segments(r) == "reasoning \"think 1\"\ntext \"<|start|>assistant\"\nreasoning \"think 2\"\n"
                         "text \"<|start|>assistant<|channel|>final<|message|>Hi\"\n");
}

TEST_CASE("reasoning/openai_gptoss: no region opens inside an opening the format holds", "[formats][reasoning]")
{
    // Found by fuzz_formats: the analysis marker came while kimi_k2 held a call opening whose
    // argument marker was misspelt; the region went out before the held bytes. Input order wins:
    // the marker is the format's data, and every byte comes back in order (run_checked).
    using gptoss_kimi = reasoning_policy<kimi_k2, openai_gptoss_reasoning>;
    const auto r = test::run_checked<gptoss_kimi>(
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_arg ument_begin|>  "
        "<|channel|>analysis<|message|>x<|end|><|tool_calls_section_end|>");
    CHECK(test::content_of_type(r.events, segment_type::reasoning).empty());
    // Between calls the region opens as usual.
    CHECK(segments(test::run_checked<gptoss_kimi>("a<|channel|>analysis<|message|>x<|end|>b"))
          == "text \"a\"\nreasoning \"x\"\ntext \"b\"\n");
}

TEST_CASE("reasoning: chosen at run time, none by default", "[formats][reasoning]")
{
    // A run-time check: GCC's sanitizer builds do not fold the pointer comparison in a constant.
    CHECK(find_reasoning_parser("qwen3") != nullptr);
    CHECK(find_reasoning_parser("nope") == nullptr);
    CHECK(segments(test::run_checked<runtime_reasoned>("<think>x</think>")) == "text \"<think>x</think>\"\n");
    for (const auto& syntax : reasoning_parsers) {
        INFO(syntax.name);
        constexpr std::string_view input = "  <think>a <tool_call> b</think> c <tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>";
        const auto r = test::run_checked<runtime_reasoned>(input, syntax);
        // Other markers, open from the start (kimi_k3): all of it is reasoning, never closed,
        // unless a call ends it (seed_oss: the format's call, `<tool_call> b` being text to it).
        if (syntax.open != "<think>" && syntax.open_at_start) {
            const bool call_ends = syntax.yields_to_calls && !syntax.ends_implicit_at.empty();
            CHECK(r.invocations.size() == (call_ends ? 1u : 0u));
            CHECK(test::content_of_type(r.events, segment_type::reasoning)
                  == (call_ends ? input.substr(0, input.rfind("<tool_call>")) : input));
            continue;
        }
        CHECK(r.invocations.size() == 1);
        CHECK(test::content_of_type(r.events, segment_type::reasoning) ==
              (syntax.open != "<think>" ? "" : syntax.open_at_start ? "  a <tool_call> b" : "a <tool_call> b"));
    }
    constexpr std::string_view pieces[] = {"<think>", "</think>", "<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>",
                                           "<|channel|>analysis<|message|>", "<|end|>", "<|start|>", " words ", "\n"};
    for (const auto& syntax : reasoning_parsers)
        for (const auto& input : test::mixed_inputs(pieces, 15))
            test::run_checked<runtime_reasoned>(input, syntax);
}

TEST_CASE("reasoning: other spellings of the markers, the longer winning where one begins another", "[formats][reasoning]")
{
    reasoning_syntax s{"spellings", "<a>", "</a>", false, {}, {}, false, {}, {"<b>", "<a>\n"}, {"</a>\n", "</b>"}};
    // Either spelling opens and either closes; `<a>\n` and `</a>\n` take their line break along.
    CHECK(segments(test::run_checked<runtime_reasoned>("<b>x</a>y", s)) == "reasoning \"x\"\ntext \"y\"\n");
    CHECK(segments(test::run_checked<runtime_reasoned>("<a>\nx</b>y", s)) == "reasoning \"x\"\ntext \"y\"\n");
    CHECK(segments(test::run_checked<runtime_reasoned>("<a>x\n</a>\n\ny", s)) == "reasoning \"x\\n\"\ntext \"\\ny\"\n");
    // At the end of the stream a held shorter spelling is the marker: `</a>` closes, `<a>` opens.
    CHECK(segments(test::run_checked<runtime_reasoned>("<a>x</a>", s)) == "reasoning \"x\"\n");
    CHECK(test::run_checked<runtime_reasoned>("<a>", s).events.empty());
    // A prefix of a spelling that never completes is what it would be had no marker begun.
    CHECK(segments(test::run_checked<runtime_reasoned>("<a>x</b", s)) == "reasoning \"x</b\"\n");
    CHECK(segments(test::run_checked<runtime_reasoned>("<c>x", s)) == "text \"<c>x\"\n");
    // Open from the start: any closing spelling first is empty reasoning.
    CHECK(segments(test::run_checked<runtime_reasoned>("</b>y", with_thinking_open(s, true))) == "text \"y\"\n");
    // Recurring regions open at any spelling.
    s.recurs = true;
    CHECK(segments(test::run_checked<runtime_reasoned>("p<b>x</b>q<a>\ny</a>\nr", s))
          == "text \"p\"\nreasoning \"x\"\ntext \"q\"\nreasoning \"y\"\ntext \"r\"\n");
    CHECK(segments(test::run_checked<runtime_reasoned>("p<a>", s)) == "text \"p\"\n");
}

} // namespace test_reasoning
