// The reasoning parsers by name (vLLM's --reasoning-parser NAME): how each model family writes its
// reasoning, as a reasoning_syntax that reasoning_policy (reasoning.hpp) reads.
#pragma once

#include <array>
#include <string_view>

namespace toolstream {

/// How a model writes its reasoning. A region is `open … close`; the markup is consumed.
struct reasoning_syntax {
    std::string_view name{};
    std::string_view open{};
    std::string_view close{};
    /// The stream starts inside reasoning (the opening marker was in the prompt); a stream that
    /// starts with `open` anyway (after blanks) opens it explicitly.
    bool open_at_start = false;
    /// Ends a region open from the first byte and is left to the format (qwen3: `<tool_call>`).
    /// Inside an explicit `open … close` region it is reasoning.
    std::string_view ends_implicit_at{};
    /// Ends any region and is left to the format: harmony's next message when `<|end|>` was
    /// stripped, a tool-call section (kimi_k2, minimax_m2), qwen3's `<tool_call>`.
    std::string_view yields_to{};
    /// Regions recur in the stream: only for markers that are special tokens. Otherwise one
    /// region, at the start of the stream (as vLLM's reasoning parsers read it), so `<think>`
    /// inside a later tool call is the call's data. A recurring region opens only outside the
    /// format's blocks (a call, its opening, a section of calls: its markers there are the call's
    /// data, as a file about the format holds them) and where the policy holds no bytes (input
    /// order is kept).
    bool recurs = false;
    /// When set, `yields_to` as written ends a region only when blanks and then one of these
    /// follow it (a call's body: qwen3's `<function` or `{`); else it is reasoning text ("I could
    /// use <tool_call> here"). The look is bounded by max_leading_blanks.
    std::array<std::string_view, 2> yields_before{};
    /// Other spellings of `open` and of `close` (granite's "Here's my response:"). Where one
    /// spelling begins another, the longer wins: the shorter is held until a byte that cannot
    /// continue the longer, or the end of the stream, decides.
    std::array<std::string_view, 3> open_alternatives{};
    std::array<std::string_view, 3> close_alternatives{};
    /// `yields_to` and `ends_implicit_at` are where the model's tool calls open. In front of a
    /// policy that tells where its blocks open (every text format: format_openings.hpp), the
    /// active format's openings take their place: the region ends where that format opens a
    /// block, and an opener it reads as text ("I could use <tool_call> here" under hermes) is
    /// reasoning. In front of any other policy the markers apply as written.
    bool yields_to_calls = false;
    /// Markup wherever they stand outside a region, as vLLM's parser takes them out of the
    /// content (minimax_m2's `</think>` written again, hunyuan_a13b's `\n</answer>`); inside a
    /// block of the format (a call's arguments) they are its data.
    std::array<std::string_view, 2> markup_outside{};
};

/// `syntax` with the prompt's thinking state: `open` true when the chat template left a region
/// open (`<think>` in the prompt: output before `</think>`, or with no tags, is reasoning), false
/// when thinking is disabled (output with no tags is content; an explicit region still opens).
constexpr reasoning_syntax with_thinking_open(reasoning_syntax syntax, bool open) noexcept
{
    syntax.open_at_start = open;
    return syntax;
}

/// `syntax` under another name: vLLM registers one parser class under several names.
constexpr reasoning_syntax named(std::string_view name, reasoning_syntax syntax) noexcept
{
    syntax.name = name;
    return syntax;
}

// Each name's default follows vLLM's parser of that name; with_thinking_open() (the CLIs'
// --thinking-open) overrides whether the region is open at the start. Where a tool call ends a
// region (yields_to_calls), it is a call of the format the parser stands in front of.

/// DeepSeek R1: the template ends the prompt with `<think>\n`; the model may repeat it.
struct deepseek_r1_reasoning {
    static constexpr reasoning_syntax syntax{"deepseek_r1", "<think>", "</think>", true, {}, {}, false, {}};
};
/// Qwen3 / Qwen3.5: the template puts `<think>` in the prompt (thinking on unless disabled), the
/// model may repeat it; a call ends a region, explicit or not (vLLM's: `<tool_call>` then
/// `<function`; here the active format's, glm45's `<tool_call>get_time` as well).
struct qwen3_reasoning {
    static constexpr reasoning_syntax syntax{.name = "qwen3", .open = "<think>", .close = "</think>",
                                             .open_at_start = true, .yields_to = "<tool_call>",
                                             .yields_before = {"<function", "{"}, .yields_to_calls = true};
};
/// MiniMax M2: the template opens `<think>`; the model writes `</think>` only, and a `</think>`
/// it writes again in the answer is markup. A tool-call section ends a region left open (vLLM
/// keeps it as reasoning: docs/text_formats.md).
struct minimax_m2_reasoning {
    static constexpr reasoning_syntax syntax{.name = "minimax_m2", .open = "<think>", .close = "</think>",
                                             .open_at_start = true, .yields_to = "<minimax:tool_call>",
                                             .yields_to_calls = true, .markup_outside = {"</think>"}};
};
/// Kimi K2 (Thinking): thinking on unless disabled, `<think>` optional; a tool-call section ends
/// a region.
struct kimi_k2_reasoning {
    static constexpr reasoning_syntax syntax{.name = "kimi_k2", .open = "<think>", .close = "</think>",
                                             .open_at_start = true, .yields_to = "<|tool_calls_section_begin|>",
                                             .yields_to_calls = true};
};
/// Seed-OSS: `<seed:think>…</seed:think>`. vLLM's parser starts in reasoning (untagged text before
/// `</seed:think>` is reasoning, the model's own `<seed:think>` is taken out); a call ends a
/// region open from the start.
struct seed_oss_reasoning {
    static constexpr reasoning_syntax syntax{.name = "seed_oss", .open = "<seed:think>", .close = "</seed:think>",
                                             .open_at_start = true, .ends_implicit_at = "<seed:tool_call>",
                                             .yields_to_calls = true};
};
/// Step-3: the template opens `<think>`; everything before `</think>` is reasoning, a tool-call
/// section included (vLLM's step3 reasoning parser).
struct step3_reasoning {
    static constexpr reasoning_syntax syntax{"step3", "<think>", "</think>", true, {}, {}, false, {}};
};
/// gpt-oss harmony: the analysis channel; `<|end|>` is often stripped, then the next message
/// (`<|start|>`) ends it.
struct openai_gptoss_reasoning {
    static constexpr reasoning_syntax syntax{
        "openai_gptoss", "<|channel|>analysis<|message|>", "<|end|>", false, {}, "<|start|>", true, {}};
};

/// DeepSeek V3.1 / V3.2: R1's syntax. vLLM's deepseek_v3 is R1 with `thinking` and plain content
/// without it, its default; `--thinking-open yes` is vLLM's `thinking: true`.
struct deepseek_v3_reasoning {
    static constexpr reasoning_syntax syntax{"deepseek_v3", "<think>", "</think>", false, {}, {}, false, {}};
};
/// Holo2: vLLM's deepseek_v3 parser with thinking on by default.
struct holo2_reasoning {
    static constexpr reasoning_syntax syntax{"holo2", "<think>", "</think>", true, {}, {}, false, {}};
};
/// DeepSeek V4: thinking on unless disabled; the DSML tool-call section ends a region.
struct deepseek_v4_reasoning {
    static constexpr reasoning_syntax syntax{.name = "deepseek_v4", .open = "<think>", .close = "</think>",
                                             .open_at_start = true,
                                             .yields_to = "<\xef\xbd\x9c" "DSML\xef\xbd\x9c" "tool_calls>",
                                             .yields_to_calls = true};
};
/// GLM-4.5 / 4.6: the model writes `<think>` itself; output with no tags is content (vLLM's glm45
/// test). A call ends a region (vLLM's glm47_moe engine ends it at any `<tool_call>`; here at
/// one the active format reads as a call).
struct glm45_reasoning {
    static constexpr reasoning_syntax syntax{.name = "glm45", .open = "<think>", .close = "</think>",
                                             .yields_to = "<tool_call>", .yields_to_calls = true};
};
/// GLM-4.7: glm45's markers; the template puts `<think>` in the prompt (thinking on unless
/// disabled).
struct glm47_reasoning {
    static constexpr reasoning_syntax syntax{.name = "glm47", .open = "<think>", .close = "</think>",
                                             .open_at_start = true, .yields_to = "<tool_call>", .yields_to_calls = true};
};
/// ERNIE 4.5 thinking: R1's syntax. vLLM also unwraps `<response>…</response>` in the content;
/// here those tags stay content.
struct ernie45_reasoning {
    static constexpr reasoning_syntax syntax{"ernie45", "<think>", "</think>", true, {}, {}, false, {}};
};
/// Olmo 3: `<think>` may be in the prompt (vLLM starts in reasoning); the tags are plain text, so
/// one region at the start.
struct olmo3_reasoning {
    static constexpr reasoning_syntax syntax{"olmo3", "<think>", "</think>", true, {}, {}, false, {}};
};
/// Nemotron 3: vLLM reuses Qwen3's parser (thinking on unless `enable_thinking` is false).
struct nemotron_v3_reasoning {
    static constexpr reasoning_syntax syntax = named("nemotron_v3", qwen3_reasoning::syntax);
};
/// Hunyuan A13B: `<think>\n…\n</think>\n<answer>\n…\n</answer>`, opened by the model: the
/// close takes the line break before `</think>` (or none, the fast-thinking form) and the
/// `<answer>` opener with it, and `\n</answer>` is markup, as vLLM matches these token sequences.
struct hunyuan_a13b_reasoning {
    static constexpr reasoning_syntax syntax{.name = "hunyuan_a13b", .open = "<think>\n",
                                             .close = "\n</think>\n<answer>\n",
                                             .close_alternatives = {"</think>\n<answer>\n"},
                                             .markup_outside = {"\n</answer>"}};
};
/// Kimi K3: the XTML think channel, open from the start when thinking is on (vLLM's streaming
/// parser; the serving layer may put the opener in the prompt).
struct kimi_k3_reasoning {
    static constexpr reasoning_syntax syntax{
        "kimi_k3", "<|open|>think<|sep|>", "<|close|>think<|sep|>", true, {}, {}, false, {}};
};
/// Mistral (v13+ tokenizers): `[THINK]…[/THINK]` special tokens, anywhere, opened by the model
/// (vLLM's parser since its PR #30391: no `[THINK]`, no reasoning, and a `[/THINK]` without one is
/// dropped); a call (`[TOOL_CALLS]`) ends a region.
struct mistral_reasoning {
    static constexpr reasoning_syntax syntax{.name = "mistral", .open = "[THINK]", .close = "[/THINK]",
                                             .yields_to = "[TOOL_CALLS]", .recurs = true, .yields_to_calls = true,
                                             .markup_outside = {"[/THINK]"}};
};
/// Gemma 4: `<|channel>…<channel|>` special tokens, anywhere, whatever follows `<|channel>`; its
/// `thought` label (and the line break after it) is markup, as vLLM strips it. A call
/// (`<|tool_call>`) ends a region, and a `<channel|>` outside one is dropped.
struct gemma4_reasoning {
    static constexpr reasoning_syntax syntax{.name = "gemma4", .open = "<|channel>", .close = "<channel|>",
                                             .yields_to = "<|tool_call>", .recurs = true,
                                             .open_alternatives = {"<|channel>thought\n", "<|channel>thought"},
                                             .yields_to_calls = true, .markup_outside = {"<channel|>"}};
};
/// Cohere Command A / R7B: `<|START_THINKING|>…<|END_THINKING|>` special tokens, anywhere, opened
/// by the model. `<|START_ACTION|>` inside a region is reasoning (vLLM's parser leaves actions out).
struct cohere_command3_reasoning {
    static constexpr reasoning_syntax syntax{
        "cohere_command3", "<|START_THINKING|>", "<|END_THINKING|>", false, {}, {}, true, {}};
};
/// Cohere Command A Reasoning / Vision: Command 3's tokens; the template opens thinking.
struct cohere_command4_reasoning {
    static constexpr reasoning_syntax syntax{
        "cohere_command4", "<|START_THINKING|>", "<|END_THINKING|>", true, {}, {}, true, {}};
};

/// Granite 3.2: plain-text markers in two spellings each ("Here is" or "Here's"), written by the
/// model when the request enables thinking.
struct granite_reasoning {
    static constexpr reasoning_syntax syntax{
        "granite", "Here is my thought process:", "Here is my response:", false, {}, {}, false, {},
        {"Here's my thought process:"}, {"Here's my response:"}};
};
/// Hy3: vLLM's parser is the identity unless the request's reasoning effort is other than
/// `no_think` (`--thinking-open yes`); then the region is open from the start.
struct hy_v3_reasoning {
    static constexpr reasoning_syntax syntax{"hy_v3", "<think>", "</think>", false, {}, {}, false, {}};
};
/// Hy4: the template puts `<think>` in the prompt (reasoning effort `high` by default).
struct hy_v4_reasoning {
    static constexpr reasoning_syntax syntax{"hy_v4", "<think>", "</think>", true, {}, {}, false, {}};
};
/// MiniMax M3: `<mm:think>…</mm:think>`, opened by the model unless the template's thinking_mode
/// `enabled` prefilled the opener.
struct minimax_m3_reasoning {
    static constexpr reasoning_syntax syntax{"minimax_m3", "<mm:think>", "</mm:think>", false, {}, {}, false, {}};
};
/// Step 3.5: open from the start; one line break on each side of `</think>` belongs to it.
struct step3p5_reasoning {
    static constexpr reasoning_syntax syntax{
        "step3p5", "<think>", "</think>", true, {}, {}, false, {}, {}, {"\n</think>\n", "\n</think>", "</think>\n"}};
};
/// Inkling: thinking blocks of special tokens, anywhere, ended by `<|end_message|>` or the
/// end-of-sampling token; the `<|message_model|>` header before one is its markup, and a tool
/// block ends one.
struct inkling_reasoning {
    static constexpr reasoning_syntax syntax{.name = "inkling", .open = "<|content_thinking|>", .close = "<|end_message|>",
                                             .yields_to = "<|content_invoke_tool_json|>", .recurs = true,
                                             .open_alternatives = {"<|message_model|><|content_thinking|>"},
                                             .close_alternatives = {"<|content_model_end_sampling|>"},
                                             .yields_to_calls = true};
};
/// MuseGlimmer: `to=self<|message|>…<|eom|>` channels (or `<|eot|>`), several per turn.
struct muse_glimmer_reasoning {
    static constexpr reasoning_syntax syntax{
        "muse_glimmer", "to=self<|message|>", "<|eom|>", false, {}, {}, true, {}, {}, {"<|eot|>"}};
};
/// vLLM's names for parser classes above: mimo is Qwen3's, ling3 the GLM-4.7 engine (thinking on
/// by default), poolside_v1 deepseek_v3's (its change is to the prompt check only).
struct mimo_reasoning {
    static constexpr reasoning_syntax syntax = named("mimo", qwen3_reasoning::syntax);
};
struct ling3_reasoning {
    static constexpr reasoning_syntax syntax = named("ling3", glm47_reasoning::syntax);
};
struct poolside_v1_reasoning {
    static constexpr reasoning_syntax syntax = named("poolside_v1", deepseek_v3_reasoning::syntax);
};
/// vLLM's minimax_m2_append_think splits nothing: the output is content, after a `<think>` it
/// inserts. No region here, and nothing inserted (every byte out is one the model wrote).
struct minimax_m2_append_think_reasoning {
    static constexpr reasoning_syntax syntax{"minimax_m2_append_think", {}, {}, false, {}, {}, false, {}};
};

/// The reasoning parsers by name (the CLI's --reasoning-parser); fuzz_formats picks among up to 255.
inline constexpr std::array reasoning_parsers{
    deepseek_r1_reasoning::syntax, qwen3_reasoning::syntax, minimax_m2_reasoning::syntax,
    kimi_k2_reasoning::syntax, openai_gptoss_reasoning::syntax, seed_oss_reasoning::syntax,
    step3_reasoning::syntax, deepseek_v3_reasoning::syntax, deepseek_v4_reasoning::syntax,
    glm45_reasoning::syntax, nemotron_v3_reasoning::syntax, hunyuan_a13b_reasoning::syntax,
    kimi_k3_reasoning::syntax, mistral_reasoning::syntax, gemma4_reasoning::syntax,
    glm47_reasoning::syntax, holo2_reasoning::syntax, ernie45_reasoning::syntax, olmo3_reasoning::syntax,
    granite_reasoning::syntax, hy_v3_reasoning::syntax, hy_v4_reasoning::syntax, minimax_m3_reasoning::syntax,
    step3p5_reasoning::syntax, inkling_reasoning::syntax, muse_glimmer_reasoning::syntax, mimo_reasoning::syntax,
    ling3_reasoning::syntax, poolside_v1_reasoning::syntax, minimax_m2_append_think_reasoning::syntax,
    cohere_command3_reasoning::syntax, cohere_command4_reasoning::syntax};

/// The reasoning parser called `name`, or nullptr.
constexpr const reasoning_syntax* find_reasoning_parser(std::string_view name) noexcept
{
    for (const auto& r : reasoning_parsers)
        if (r.name == name)
            return &r;
    return nullptr;
}

} // namespace toolstream
