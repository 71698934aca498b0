// minimax: MiniMax-Text-01 / MiniMax-M1 tool calls, as vLLM's --tool-call-parser minimax reads
// them: `<tool_calls>` then one `{"name": …, "arguments": {…}}` per line, `</tool_calls>`.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/think_guarded_calls_format.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the minimax format (text_format_traits); minimax_m2 is the later models' XML format:
/// - `<tool_calls>`, then call objects `{"name": NAME, "arguments": {…}}` with blanks (a line
///   break) between them, then `</tool_calls>`. Each object is a call, ENDed where it closes.
/// - `<tool_calls>` not followed (after blanks) by `{` is text. After a call, anything but
///   blanks and another object (or `</tool_calls>`) ends the block: the rest is text.
/// - A stream that ends before `</tool_calls>` keeps its complete calls.
/// - The arguments stream as raw JSON fragments; `write_file` / `patch_file` / `run_bash` stream
///   their decoded body once the name is read.
/// - vLLM reads an object only when it fills its line (and skips a line that does not parse);
///   here an object may span lines, and one that is not valid JSON ENDs `invalid_arguments`.
/// - vLLM drops an entry without `name` or without `arguments`; here it is flagged, as every
///   format flags an invalid entry: a call that ENDs `invalid_arguments`, the next entry read.
/// - From `<think>` to `</think>` (or the end of the stream) no call opens: the block, calls
///   written in it included, is text, as vLLM's parser leaves it in the content. A reasoning
///   parser in front makes a block it reads reasoning instead.
struct minimax_format : detail::think_guarded_calls_format {
    static constexpr std::string_view name = "minimax";
    static constexpr json_call_list call_list = json_call_list::sequence;
    static constexpr bool call_needs_arguments = true;
};

using minimax = text_format_policy<minimax_format>;
static_assert(text_format_traits<minimax_format> && parser_policy<minimax>);

} // namespace toolstream
