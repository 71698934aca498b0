// internlm: InternLM2 / InternLM2.5 tool calls, as vLLM's --tool-call-parser internlm reads them:
// <|action_start|><|plugin|>\n{"name": …, "parameters": {…}}<|action_end|>
#pragma once

#include <toolstream/parse/engine/text_format.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the internlm format (text_format_traits):
/// - a call is `<|action_start|><|plugin|>`, blanks, one JSON object `{"name": NAME,
///   "parameters": {…}}` (`"arguments"` read alike), blanks, `<|action_end|>`; the markers are
///   special tokens, so the stream must keep them (vLLM sets skip_special_tokens=false).
/// - The arguments stream as raw JSON fragments; `write_file` streams its decoded body live.
/// - A call whose object is complete when the stream ends is `complete` without `<|action_end|>`.
/// - `<|action_start|><|plugin|>` not followed by `{` (after blanks) is text; so is any other
///   action (`<|action_start|><|interpreter|>`: code, not a tool call), which vLLM's streaming
///   drops instead.
/// - vLLM reads one call per response and drops what follows it; this reads every call and
///   keeps the text between them.
struct internlm_format : marker_format {
    static constexpr std::string_view name = "internlm";
    static constexpr std::string_view call_open = "<|action_start|><|plugin|>";
    static constexpr std::string_view call_close = "<|action_end|>";
    static constexpr text_arguments arguments = text_arguments::json_call;
};

using internlm = text_format_policy<internlm_format>;
static_assert(text_format_traits<internlm_format> && parser_policy<internlm>);

} // namespace toolstream
