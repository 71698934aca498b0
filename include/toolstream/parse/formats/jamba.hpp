// jamba: AI21 Jamba tool calls, as vLLM's --tool-call-parser jamba reads them:
// `<tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>` (special tokens).
#pragma once

#include <toolstream/parse/engine/text_format.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the jamba format (text_format_traits):
/// - `<tool_calls>`, blanks, a JSON array of call objects `{"name": NAME, "arguments": {…}}`,
///   blanks, `</tool_calls>`; the markers are special tokens, so the stream must keep them (vLLM
///   sets skip_special_tokens=false). Each object is a call, ENDed where it closes.
/// - `<tool_calls>` not followed (after blanks) by `[`, then `{` or `]`, is text. An element
///   that is not an object ends the array: the calls before it stand, the rest is text.
/// - The arguments stream as raw JSON fragments; `write_file` / `patch_file` / `run_bash` stream
///   their decoded body once the name is read.
/// - vLLM reads the first block only and drops the text after it; here every block is read and
///   the text between them kept.
struct jamba_format : marker_format {
    static constexpr std::string_view name = "jamba";
    static constexpr std::string_view call_open = "<tool_calls>";
    static constexpr std::string_view call_close = "</tool_calls>";
    static constexpr text_arguments arguments = text_arguments::json_call;
    static constexpr json_call_list call_list = json_call_list::array;
};

using jamba = text_format_policy<jamba_format>;
static_assert(text_format_traits<jamba_format> && parser_policy<jamba>);

} // namespace toolstream
