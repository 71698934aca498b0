// gigachat3: GigaChat 3's tool calls, as vLLM's --tool-call-parser gigachat3 reads them: one JSON
// call object after `<|function_call|>` or after the role header `function call<|role_sep|>\n`.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>

#include <array>
#include <string_view>

namespace toolstream {

/// Traits of the gigachat3 format (text_format_traits):
/// - a call is `<|function_call|>` or `function call<|role_sep|>\n` (with the template's
///   `<|message_sep|>\n\n` before it when it follows text), blanks, then one JSON object
///   `{"name": NAME, "arguments": {…}}` (`"parameters"` and `"args"` are read too). No closing
///   marker: the object's end ends the call, and the bytes after it are text.
/// - An opener not followed (after blanks) by `{` is text, and so is `function call` without
///   `<|role_sep|>` and its line break.
/// - The arguments stream as raw JSON fragments; `write_file` streams its decoded body live.
struct gigachat3_format : marker_format {
    static constexpr std::string_view name = "gigachat3";
    static constexpr std::string_view call_open = "<|function_call|>";
    static constexpr text_arguments arguments = text_arguments::json_call;
    static constexpr std::array<call_markers, 2> other_calls{{
        {"function call<|role_sep|>\n", ""},
        {"<|message_sep|>\n\nfunction call<|role_sep|>\n", ""},   // the template's end of the text before
    }};
};

using gigachat3 = text_format_policy<gigachat3_format>;
static_assert(text_format_traits<gigachat3_format> && parser_policy<gigachat3>);

} // namespace toolstream
