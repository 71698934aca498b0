// granite: IBM Granite 3.x tool calls, as vLLM's --tool-call-parser granite reads them:
// `<|tool_call|>[{"name": …, "arguments": {…}}, …]` (3.0, a special token), `<tool_call>[…]` (3.1),
// or the bare array as the whole answer.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>

#include <array>
#include <string_view>

namespace toolstream {

/// Traits of the granite format (text_format_traits):
/// - `<|tool_call|>` or `<tool_call>`, blanks, then a JSON array of call objects
///   `{"name": NAME, "arguments": {…}}` (keys in any order; `"parameters"` read alike). Each
///   object is a call, ENDed where it closes; `,` and blanks between them are syntax.
/// - A bare array opens calls too, when `[` is the output's first non-blank byte (then blanks and
///   `{`); a `[` anywhere else is text.
/// - The marker or bare `[` not followed (after blanks) by `[`, then `{` or `]`, is text. An
///   element that is not an object ends the array there: the calls before it stand, the rest is
///   text. After the array's `]`, the output is text again.
/// - The arguments stream as raw JSON fragments; `write_file` / `patch_file` / `run_bash` stream
///   their decoded body once the name is read.
/// - vLLM reads calls only at the start of the output (after `<|tool_call|>` and/or
///   `<tool_call>`), and an output that is not then wholly the array is content; here either
///   marker opens calls anywhere and text after the array stays text. `<|tool_call|><tool_call>[`
///   (both markers) leaves `<|tool_call|>` as text.
struct granite_format : marker_format {
    static constexpr std::string_view name = "granite";
    static constexpr std::string_view call_open = "<|tool_call|>";
    static constexpr text_arguments arguments = text_arguments::json_call;
    static constexpr json_call_list call_list = json_call_list::array;
    static constexpr std::array<call_markers, 1> other_calls{{{"<tool_call>", ""}}};
    static constexpr bool bare_array_at_start = true;
};

using granite = text_format_policy<granite_format>;
static_assert(text_format_traits<granite_format> && parser_policy<granite>);

} // namespace toolstream
