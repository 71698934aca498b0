// hermes: Hermes 2 Pro, Qwen2.5 and Qwen3 tool calls, as vLLM's --tool-call-parser hermes reads
// them: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, any number of them, prose around.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the hermes format (text_format_traits):
/// - a call is `<tool_call>`, blanks, one JSON object `{"name": NAME, "arguments": {…}}`, blanks,
///   `</tool_call>`. `"parameters"` is read as `"arguments"`: Agent TARS's prompt-engineering
///   engine asks models for `{"name":…,"parameters":{…}}` and stops generation at
///   `</tool_call>`, so a call whose object is complete when the stream ends is `complete`
///   without its closing marker.
/// - The arguments stream as raw JSON fragments; `write_file` / `patch_file` / `run_bash` become
///   file or shell segments streaming their decoded body once the name is read.
/// - `<tool_call>` or `</tool_call>` inside a JSON string ends nothing: the object's end is found
///   by the JSON parser, not by a marker search, so no lookahead is needed.
/// - `<tool_call>` not followed (after blanks, within `max_held`) by `{` is text.
/// - No reasoning of its own: `<think>` is text unless a reasoning parser (qwen3) is combined.
struct hermes_format : marker_format {
    static constexpr std::string_view name = "hermes";
    static constexpr std::string_view call_open = "<tool_call>";
    static constexpr std::string_view call_close = "</tool_call>";
    static constexpr text_arguments arguments = text_arguments::json_call;
};

using hermes = text_format_policy<hermes_format>;
static_assert(text_format_traits<hermes_format> && parser_policy<hermes>);

} // namespace toolstream
