// xlam: Salesforce xLAM tool calls, as vLLM's --tool-call-parser xlam reads them: a JSON array
// `[{"name": …, "arguments": {…}}, …]` as the answer, in a ```json (or ```) fence, after
// `[TOOL_CALLS]`, or between `<tool_call>` and `</tool_call>`.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>

#include <array>
#include <string_view>

namespace toolstream {

/// Traits of the xlam format (text_format_traits):
/// - A JSON array of call objects `{"name": NAME, "arguments": …}` (the arguments an object or
///   a JSON string holding one): bare, when `[` is the output's first non-blank byte; after
///   `[TOOL_CALLS]`; or between ```` ```json ```` (or ```` ``` ````) and ```` ``` ````, or
///   `<tool_call>` and `</tool_call>`. Each object is a call, ENDed where it closes.
/// - An opener not followed (after blanks) by `[`, then `{` or `]`, is text (a fence of code or
///   of a JSON object is prose). An element that is not an object ends the array: the calls
///   before it stand, the rest is text.
/// - The arguments stream as raw JSON fragments; `write_file` / `patch_file` / `run_bash` stream
///   their decoded body once the name is read.
/// - vLLM also reads a JSON array right after `</think>`; here reasoning belongs to a reasoning
///   parser, after which the array is the answer's start. vLLM takes the first fenced or marked
///   JSON that parses and drops it from the content; here every block is read in turn.
struct xlam_format : marker_format {
    static constexpr std::string_view name = "xlam";
    static constexpr std::string_view call_open = "[TOOL_CALLS]";
    static constexpr text_arguments arguments = text_arguments::json_call;
    static constexpr json_call_list call_list = json_call_list::array;
    static constexpr std::array<call_markers, 3> other_calls{{
        {"<tool_call>", "</tool_call>"},
        {"```json", "```"},
        {"```", "```"},
    }};
    static constexpr bool bare_array_at_start = true;
};

using xlam = text_format_policy<xlam_format>;
static_assert(text_format_traits<xlam_format> && parser_policy<xlam>);

} // namespace toolstream
