// Reasoning parsers against the peers' documented behaviour (vLLM's vllm/reasoning parsers of the
// same names, llama.cpp's common/chat*): forced-open templates, thinking disabled, an unclosed
// region ended by a tool call, empty reasoning. Every input runs at every split position, in
// 1-byte and random chunks, with byte conservation.
#include <toolstream/parse/formats/deepseek_v4.hpp>
#include <toolstream/parse/formats/gemma4.hpp>
#include <toolstream/parse/formats/glm45.hpp>
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/formats/kimi_k2.hpp>
#include <toolstream/parse/formats/minimax_m2.hpp>
#include <toolstream/parse/formats/mistral_calls.hpp>
#include <toolstream/parse/formats/qwen3_coder.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/runtime_policy.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

namespace test_reasoning_peers {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {
using qwen3_coder_r = reasoning_policy<qwen3_coder>;
using hermes_r = reasoning_policy<hermes>;
using kimi_r = reasoning_policy<kimi_k2>;
using minimax_r = reasoning_policy<minimax_m2>;
using glm45_r = reasoning_policy<glm45>;
using deepseek_v4_r = reasoning_policy<deepseek_v4>;
using mistral_r = reasoning_policy<mistral_calls>;

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

TEST_CASE("reasoning: each name's region, open from the start or not, cut inside it (vLLM's parsers)", "[formats][reasoning][peers]")
{
    struct peer {
        std::string_view name;
        bool open_at_start;   // vLLM's default thinking state for the name
    };
    // deepseek_v3: vLLM's DeepSeekV3ReasoningParser is the identity unless `thinking` is set.
    // glm45, hunyuan_a13b, mistral, gemma4, granite, hy_v3, minimax_m3, inkling, muse_glimmer,
    // poolside_v1: vLLM starts in content; the others (seed_oss too) start in reasoning.
    for (const peer p : {peer{"deepseek_v3", false}, peer{"holo2", true}, peer{"deepseek_v4", true}, peer{"glm45", false},
                         peer{"glm47", true}, peer{"ernie45", true}, peer{"olmo3", true}, peer{"nemotron_v3", true},
                         peer{"hunyuan_a13b", false}, peer{"kimi_k3", true}, peer{"mistral", false}, peer{"gemma4", false},
                         peer{"granite", false}, peer{"hy_v3", false}, peer{"hy_v4", true}, peer{"minimax_m3", false},
                         peer{"step3p5", true}, peer{"inkling", false}, peer{"muse_glimmer", false}, peer{"mimo", true},
                         peer{"ling3", true}, peer{"poolside_v1", false}, peer{"seed_oss", true}}) {
        INFO(p.name);
        const reasoning_syntax& r = parser(p.name);
        CHECK(r.open_at_start == p.open_at_start);
        const std::string open(r.open), close(r.close);
        // An explicit region, opened by the model.
        CHECK(segments(run<hermes_r>(open + "a" + close + "b", r)) == "reasoning \"a\"\ntext \"b\"\n");
        // Open from the start (the prompt opened it): only the close is written.
        const reasoning_syntax opened = with_thinking_open(r, true);
        CHECK(segments(run<hermes_r>("a" + close + "b", opened)) == "reasoning \"a\"\ntext \"b\"\n");
        CHECK(segments(run<hermes_r>("no tags", r)) == (p.open_at_start ? "reasoning \"no tags\"\n" : "text \"no tags\"\n"));
        // Cut inside reasoning, in the middle of the close: the held prefix is reasoning.
        const std::string held = "hmm " + close.substr(0, close.size() - 1);
        CHECK(segments(run<hermes_r>(open + held, r)) == "reasoning " + boost::json::serialize(boost::json::string(held)) + "\n");
    }
}

TEST_CASE("reasoning/glm45, glm47: a call ends the region (vLLM's glm47_moe engine)", "[formats][reasoning][peers]")
{
    constexpr std::string_view call = "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n</tool_call>";
    // glm45 starts in content: its region is the model's <think>, or open by --thinking-open yes.
    for (const reasoning_syntax& syntax : {parser("glm45"), with_thinking_open(parser("glm45"), true), parser("glm47")})
        for (std::string_view lead : {"", "<think>"}) {
            if (!syntax.open_at_start && lead.empty())
                continue;
            INFO(syntax.name << " " << syntax.open_at_start << " " << lead);
            const auto r = run<glm45_r>(std::string(lead) + "Need f." + std::string(call), syntax);
            CHECK(test::content_of_type(r.events, segment_type::reasoning) == "Need f.");
            CHECK(calls(r) == "seg_2 f {\"a\":1}\n");
        }
    // Thinking disabled (glm45's default): a call with no region.
    CHECK(calls(run<glm45_r>("Sure." + std::string(call), parser("glm45"))) == "seg_2 f {\"a\":1}\n");
    CHECK(calls(run<glm45_r>("Sure." + std::string(call), with_thinking_open(parser("glm47"), false))) == "seg_2 f {\"a\":1}\n");
}

TEST_CASE("reasoning/seed_oss, glm45, mistral: where a region starts, as vLLM's tests of those names say",
          "[formats][reasoning][peers]")
{
    // vllm-project/vllm tests/reasoning/test_seedoss_reasoning_parser.py: test_simple_reasoning,
    // test_no_content, test_with_start_token, test_only_end_token, test_streaming_delta_processing.
    const reasoning_syntax& seed = parser("seed_oss");
    CHECK(segments(run<hermes_r>("This is a reasoning section</seed:think>This is the rest", seed))
          == "reasoning \"This is a reasoning section\"\ntext \"This is the rest\"\n");
    CHECK(segments(run<hermes_r>("This is content", seed)) == "reasoning \"This is content\"\n");
    CHECK(segments(run<hermes_r>("<seed:think>This is a reasoning section</seed:think>This is the rest", seed))
          == "reasoning \"This is a reasoning section\"\ntext \"This is the rest\"\n");
    CHECK(segments(run<hermes_r>("Some reasoning content</seed:think>Final answer", seed))
          == "reasoning \"Some reasoning content\"\ntext \"Final answer\"\n");
    // vllm-project/vllm tests/reasoning/test_glm4_moe_reasoning_parser.py::test_reasoning
    // [without_think], [with_think], [empty_think_block], [only_open_tag_stream]
    const reasoning_syntax& glm = parser("glm45");
    CHECK(segments(run<hermes_r>("This is the rest", glm)) == "text \"This is the rest\"\n");
    CHECK(segments(run<hermes_r>("<think>This is a reasoning section</think>This is the rest", glm))
          == "reasoning \"This is a reasoning section\"\ntext \"This is the rest\"\n");
    CHECK(segments(run<hermes_r>("<think></think>This is the rest", glm)) == "text \"This is the rest\"\n");
    CHECK(segments(run<hermes_r>("<think>This is a reasoning section", glm)) == "reasoning \"This is a reasoning section\"\n");
    // Mistral: vllm/reasoning/mistral_reasoning_parser.py returns content when no [THINK] was
    // generated (vLLM PR #30391; the stored copy of test_mistral_reasoning_parser.py, whose
    // [no_content_token] case reads it as reasoning, predates that change).
    CHECK(segments(run<mistral_r>("This is content", parser("mistral"))) == "text \"This is content\"\n");
}

TEST_CASE("reasoning/deepseek_v4: the DSML section ends the region (vLLM's DeepSeekV4Parser)", "[formats][reasoning][peers]")
{
    const auto r = run<deepseek_v4_r>(
        "Need f.\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"a\" string=\"true\">1</｜DSML｜parameter>\n"
        "</｜DSML｜invoke>\n</｜DSML｜tool_calls>",
        parser("deepseek_v4"));
    CHECK(test::content_of_type(r.events, segment_type::reasoning) == "Need f.\n");
    CHECK(calls(r) == "seg_2 f {\"a\":\"1\"}\n");
    // deepseek_v3 with thinking on is R1.
    CHECK(segments(run<hermes_r>("plan</think>ok", with_thinking_open(parser("deepseek_v3"), true))) == "reasoning \"plan\"\ntext \"ok\"\n");
}

TEST_CASE("reasoning/mistral: [THINK] regions anywhere, [TOOL_CALLS] ends one (vLLM's MistralParser)", "[formats][reasoning][peers]")
{
    const reasoning_syntax& m = parser("mistral");
    CHECK(segments(run<mistral_r>("a[THINK]x[/THINK]b[THINK]y[/THINK]c", m))
          == "text \"a\"\nreasoning \"x\"\ntext \"b\"\nreasoning \"y\"\ntext \"c\"\n");
    for (std::string_view mid : {"[/THINK]", ""}) {
        INFO(mid);
        const auto r = run<mistral_r>("[THINK]Need f." + std::string(mid) + "[TOOL_CALLS]f[ARGS]{\"a\":1}", m);
        CHECK(test::content_of_type(r.events, segment_type::reasoning) == "Need f.");
        CHECK(calls(r).ends_with(" f {\"a\":1}\n"));
    }
}

TEST_CASE("reasoning/gemma4, hunyuan_a13b, kimi_k3: their markers (vLLM)", "[formats][reasoning][peers]")
{
    // Gemma 4: regions recur; a gemma4 call ends one, while behind hermes <|tool_call> opens no
    // call and stays reasoning.
    CHECK(segments(run<hermes_r>("a<|channel>thought\nx<channel|>b", parser("gemma4")))
          == "text \"a\"\nreasoning \"x\"\ntext \"b\"\n");
    const auto gemma = run<reasoning_policy<gemma4>>("<|channel>thought\nx<|tool_call>call:f{}<tool_call|>", parser("gemma4"));
    CHECK(test::content_of_type(gemma.events, segment_type::reasoning) == "x");
    CHECK(calls(gemma).ends_with(" f {}\n"));
    CHECK(segments(run<hermes_r>("<|channel>thought\nx<|tool_call>call:f{}<tool_call|>", parser("gemma4")))
          == "reasoning \"x<|tool_call>call:f{}<tool_call|>\"\n");
    // Hunyuan A13B: the close takes the line breaks and <answer> with it; \n</answer> is markup
    // (test_reasoning_markup.cpp). <think> without its line break opens nothing (vLLM matches the
    // token sequence `<think>\n`).
    CHECK(segments(run<hermes_r>("<think>\nplan\n</think>\n<answer>\nHi\n</answer>", parser("hunyuan_a13b")))
          == "reasoning \"plan\"\ntext \"Hi\"\n");
    CHECK(segments(run<hermes_r>("<think>x", parser("hunyuan_a13b"))) == "text \"<think>x\"\n");
    // Kimi K3: the opener in the prompt; the response channel is the format's.
    CHECK(segments(run<hermes_r>("plan<|close|>think<|sep|><|open|>response<|sep|>Hi", parser("kimi_k3")))
          == "reasoning \"plan\"\ntext \"<|open|>response<|sep|>Hi\"\n");
}

TEST_CASE("reasoning/nemotron_v3 as Qwen3 (vLLM's NemotronV3Parser reuses qwen3_config)", "[formats][reasoning][peers]")
{
    const auto coder = run<qwen3_coder_r>("Need f." + std::string(coder_call), parser("nemotron_v3"));
    CHECK(test::content_of_type(coder.events, segment_type::reasoning) == "Need f.");
    CHECK(calls(coder) == "seg_2 f {\"a\":\"1\"}\n");
    CHECK(segments(run<hermes_r>("I could use <tool_call> here.</think>ok", parser("nemotron_v3")))
          == "reasoning \"I could use <tool_call> here.\"\ntext \"ok\"\n");
}

} // namespace test_reasoning_peers
