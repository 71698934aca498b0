// Reasoning parsers with markers or rules of their own (granite, step3p5, inkling, muse_glimmer,
// minimax_m3, hy_v3, hy_v4, minimax_m2_append_think) and vLLM's other names for shared parsers
// (mimo, ling3, poolside_v1), against vLLM's parsers of the same names (its vllm/reasoning and
// vllm/.../parser modules named per case). Every input runs at every split position, in 1-byte
// and random chunks, with byte conservation.
#include <toolstream/parse/formats/glm45.hpp>
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/formats/inkling.hpp>
#include <toolstream/parse/formats/qwen3_coder.hpp>
#include <toolstream/parse/policies/reasoning.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <string>
#include <string_view>

namespace test_reasoning_names {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {
using hermes_r = reasoning_policy<hermes>;
using inkling_r = reasoning_policy<inkling>;

const reasoning_syntax& parser(std::string_view name)
{
    const reasoning_syntax* s = find_reasoning_parser(name);
    REQUIRE(s != nullptr);
    return *s;
}

template<class Policy = hermes_r>
std::string split(std::string_view input, const reasoning_syntax& syntax)
{
    return segments(test::run_checked<Policy>(input, syntax));
}
} // namespace

TEST_CASE("reasoning/granite: either spelling of each plain-text marker (vLLM's granite_reasoning_parser)",
          "[formats][reasoning][peers]")
{
    const reasoning_syntax& g = parser("granite");
    CHECK(split("Here is my thought process: plan Here is my response: answer", g)
          == "reasoning \" plan \"\ntext \" answer\"\n");
    CHECK(split("Here's my thought process:a\nHere is my response:b", g) == "reasoning \"a\\n\"\ntext \"b\"\n");
    CHECK(split("Here is my thought process:aHere's my response:b", g) == "reasoning \"a\"\ntext \"b\"\n");
    // No response marker by the end: all of it stays reasoning.
    CHECK(split("Here's my thought process: still", g) == "reasoning \" still\"\n");
    // vLLM reads a thought-process marker only at the start; anything else is content.
    CHECK(split("Sure. Here is my thought process: x", g) == "text \"Sure. Here is my thought process: x\"\n");
    CHECK(split("Here is my thought: x", g) == "text \"Here is my thought: x\"\n");
    // The response marker first: content for vLLM (thinking off); with the region open, empty reasoning.
    CHECK(split("Here is my response: y", g) == "text \"Here is my response: y\"\n");
    CHECK(split("Here is my response: y", with_thinking_open(g, true)) == "text \" y\"\n");
}

TEST_CASE("reasoning/step3p5: open from the start, one line break each side of </think> (vLLM's step3p5_reasoning_parser)",
          "[formats][reasoning][peers]")
{
    const reasoning_syntax& s = parser("step3p5");
    CHECK(split("plan\n</think>\nanswer", s) == "reasoning \"plan\"\ntext \"answer\"\n");
    CHECK(split("plan\n\n</think>\n\nanswer", s) == "reasoning \"plan\\n\"\ntext \"\\nanswer\"\n");
    CHECK(split("<think>plan</think>answer", s) == "reasoning \"plan\"\ntext \"answer\"\n");
    // Cut right after the close: the line break it may take never came.
    CHECK(split("plan\n</think>", s) == "reasoning \"plan\"\n");
    CHECK(split("still thinking", s) == "reasoning \"still thinking\"\n");
    CHECK(split("</think>\nanswer", s) == "text \"answer\"\n");
}

TEST_CASE("reasoning/hy_v3, hy_v4: <think> regions, off and on by default (vLLM's hy_v3 and hy_v4 parsers)",
          "[formats][reasoning][peers]")
{
    // hy_v4: reasoning effort `high` unless the request says no_think; <think> is in the prompt.
    const reasoning_syntax& v4 = parser("hy_v4");
    CHECK(split("plan</think>answer", v4) == "reasoning \"plan\"\ntext \"answer\"\n");
    CHECK(split("<think>plan</think>answer", v4) == "reasoning \"plan\"\ntext \"answer\"\n");
    CHECK(split("still", v4) == "reasoning \"still\"\n");
    CHECK(split("</think>answer", v4) == "text \"answer\"\n");
    // hy_v3: `no_think` unless the request sets an effort, so untagged output is content.
    const reasoning_syntax& v3 = parser("hy_v3");
    CHECK(split("Just an answer.", v3) == "text \"Just an answer.\"\n");
    const reasoning_syntax on = with_thinking_open(v3, true);
    CHECK(split("plan</think>answer", on) == "reasoning \"plan\"\ntext \"answer\"\n");
    CHECK(split("still", on) == "reasoning \"still\"\n");
    CHECK(split("</think>answer", on) == "text \"answer\"\n");
}

TEST_CASE("reasoning/minimax_m3: <mm:think> regions (vLLM's minimax_m3_reasoning_parser)", "[formats][reasoning][peers]")
{
    const reasoning_syntax& m = parser("minimax_m3");
    CHECK(split("<mm:think>plan</mm:think>answer", m) == "reasoning \"plan\"\ntext \"answer\"\n");
    CHECK(split("answer", m) == "text \"answer\"\n");
    CHECK(split("<mm:think>still", m) == "reasoning \"still\"\n");
    // thinking_mode "enabled": the template prefilled <mm:think>.
    const reasoning_syntax on = with_thinking_open(m, true);
    CHECK(split("plan</mm:think>answer", on) == "reasoning \"plan\"\ntext \"answer\"\n");
    CHECK(split("</mm:think>answer", on) == "text \"answer\"\n");
}

TEST_CASE("reasoning/inkling: thinking blocks among typed blocks (vLLM's parser/inkling.py)", "[formats][reasoning][peers]")
{
    const reasoning_syntax& k = parser("inkling");
    // The header before a thinking block is its markup; a text block is the format's.
    CHECK(split("<|message_model|><|content_thinking|>plan<|end_message|><|message_model|><|content_text|>Hi<|end_message|>", k)
          == "reasoning \"plan\"\ntext \"<|message_model|><|content_text|>Hi<|end_message|>\"\n");
    // Blocks recur in any order; the end-of-sampling token also ends one.
    CHECK(split("<|content_thinking|>a<|end_message|><|content_text|>b<|end_message|><|content_thinking|>c"
                "<|content_model_end_sampling|>",
                k)
          == "reasoning \"a\"\ntext \"<|content_text|>b<|end_message|>\"\nreasoning \"c\"\n");
    // A tool block ends a thinking block left open, and its call is read.
    for (std::string_view close : {"<|end_message|><|message_model|>", ""}) {
        INFO(close);
        const auto r = test::run_checked<inkling_r>(
            "<|content_thinking|>Need f." + std::string(close) + "<|content_invoke_tool_json|>{\"name\":\"f\",\"args\":{\"a\":1}}<|end_message|>", k);
        CHECK(test::content_of_type(r.events, segment_type::reasoning) == "Need f.");
        CHECK(calls(r).ends_with(" f {\"a\":1}\n"));
    }
    CHECK(split("<|content_thinking|>still", k) == "reasoning \"still\"\n");
    // The prompt ended inside a thinking block.
    CHECK(split("<|end_message|>x", with_thinking_open(k, true)) == "text \"x\"\n");
}

TEST_CASE("reasoning/muse_glimmer: to=self channels (vLLM's muse_glimmer_reasoning_parser)", "[formats][reasoning][peers]")
{
    const reasoning_syntax& m = parser("muse_glimmer");
    CHECK(split("to=self<|message|>plan<|eom|>to=user<|message|>Hi<|eot|>", m)
          == "reasoning \"plan\"\ntext \"to=user<|message|>Hi<|eot|>\"\n");
    // Several reasoning channels in a turn; <|eot|> ends one too.
    const auto r = test::run_checked<hermes_r>("to=self<|message|>a<|eom|>to=self<|message|>b<|eot|>to=user<|message|>c", m);
    CHECK(test::content_of_type(r.events, segment_type::reasoning) == "ab");
    CHECK(test::content_of_type(r.events, segment_type::text) == "to=user<|message|>c");
    CHECK(split("to=self<|message|>still", m) == "reasoning \"still\"\n");
    CHECK(split("<|eom|>x", with_thinking_open(m, true)) == "text \"x\"\n");
}

TEST_CASE("reasoning/mimo, ling3, poolside_v1: vLLM's names for the qwen3, GLM-4.7 and deepseek_v3 parsers",
          "[formats][reasoning][peers]")
{
    // mimo: vLLM's Qwen3ParserReasoningAdapter (qwen3_engine_reasoning_parser).
    const auto mimo = test::run_checked<reasoning_policy<qwen3_coder>>(
        "Need f.<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>", parser("mimo"));
    CHECK(test::content_of_type(mimo.events, segment_type::reasoning) == "Need f.");
    CHECK(calls(mimo) == "seg_2 f {\"a\":\"1\"}\n");
    CHECK(split("</think>b", parser("mimo")) == "text \"b\"\n");
    // ling3: parser/ling3.py, GLM-4.7's engine with thinking on unless disabled.
    const auto ling3 = test::run_checked<reasoning_policy<glm45>>(
        "Need f.<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n</tool_call>", parser("ling3"));
    CHECK(test::content_of_type(ling3.events, segment_type::reasoning) == "Need f.");
    CHECK(calls(ling3) == "seg_2 f {\"a\":1}\n");
    CHECK(split("still", parser("ling3")) == "reasoning \"still\"\n");
    CHECK(split("</think>b", parser("ling3")) == "text \"b\"\n");
    // poolside_v1: DeepSeekV3ReasoningParser (identity unless `thinking`).
    const reasoning_syntax& p = parser("poolside_v1");
    CHECK(split("plain", p) == "text \"plain\"\n");
    CHECK(split("<think>a</think>b", p) == "reasoning \"a\"\ntext \"b\"\n");
    CHECK(split("a</think>b", with_thinking_open(p, true)) == "reasoning \"a\"\ntext \"b\"\n");
    CHECK(split("</think>b", with_thinking_open(p, true)) == "text \"b\"\n");
    CHECK(split("still", with_thinking_open(p, true)) == "reasoning \"still\"\n");
}

TEST_CASE("reasoning/minimax_m2_append_think: no region, the output is content (vLLM's MiniMaxM2AppendThinkReasoningParser)",
          "[formats][reasoning][peers]")
{
    // vLLM puts "<think>" before the content; here every byte is the model's, so the content is
    // the output as written.
    for (const bool open : {false, true}) {
        const reasoning_syntax a = with_thinking_open(parser("minimax_m2_append_think"), open);
        CHECK(split("plan</think>answer", a) == "text \"plan</think>answer\"\n");
        CHECK(split("<think>a</think>b", a) == "text \"<think>a</think>b\"\n");
    }
}

} // namespace test_reasoning_names
