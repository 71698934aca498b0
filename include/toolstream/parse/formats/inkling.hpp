// inkling: Inkling tool calls, as vLLM's --tool-call-parser inkling reads them: a tool block
// <|content_invoke_tool_json|>{"name": NAME, "args": {…}}<|end_message|>
#pragma once

#include <toolstream/parse/engine/text_format.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the inkling format (text_format_traits):
/// - a call is `<|content_invoke_tool_json|>`, blanks, one JSON object `{"name": NAME, "args":
///   {…}}` (`"arguments"` and `"parameters"` are read too), blanks, `<|end_message|>`. The
///   template prefills `<|message_model|>`, so a block may start the output with no header.
/// - The object's end ends the arguments: markers inside JSON strings end nothing, and a call
///   whose object is complete is `complete` whatever follows it (`<|content_model_end_sampling|>`,
///   a stop sequence), the bytes after it being text.
/// - The arguments stream as raw JSON fragments; `write_file` streams its decoded body live.
/// - The other block markers (`<|message_model|>`, `<|content_text|>`, `<|end_message|>` of a
///   text block) are text; thinking blocks come from a reasoning parser.
struct inkling_format : marker_format {
    static constexpr std::string_view name = "inkling";
    static constexpr std::string_view call_open = "<|content_invoke_tool_json|>";
    static constexpr std::string_view call_close = "<|end_message|>";
    static constexpr text_arguments arguments = text_arguments::json_call;
};

using inkling = text_format_policy<inkling_format>;
static_assert(text_format_traits<inkling_format> && parser_policy<inkling>);

} // namespace toolstream
