// phi4_mini_json: Phi-4-mini tool calls, as vLLM's --tool-call-parser phi4_mini_json reads them:
// `functools[{"name": …, "arguments": {…}}, …]`.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the phi4_mini_json format (text_format_traits):
/// - `functools`, then a JSON array of call objects `{"name": NAME, "arguments": {…}}`
///   (`"parameters"` read alike); each object is a call, ENDed where it closes. No closing
///   marker: after the array's `]`, the output is text again.
/// - `functools` not followed (after blanks) by `[`, then `{` or `]`, is text (prose about
///   Python's module). An element that is not an object ends the array: the calls before it
///   stand, the rest is text.
/// - The arguments stream as raw JSON fragments; `write_file` / `patch_file` / `run_bash` stream
///   their decoded body once the name is read.
/// - vLLM's parser is not a streaming one (its streaming returns nothing) and takes the array up
///   to the first `]` (`functools\[(.*?)\]`), so an argument holding `]` breaks it; here the
///   JSON's own end ends the array, and blanks may come between `functools` and `[`. vLLM
///   returns no content with calls; here the text around them is kept.
struct phi4_mini_json_format : marker_format {
    static constexpr std::string_view name = "phi4_mini_json";
    static constexpr std::string_view call_open = "functools";
    static constexpr text_arguments arguments = text_arguments::json_call;
    static constexpr json_call_list call_list = json_call_list::array;
};

using phi4_mini_json = text_format_policy<phi4_mini_json_format>;
static_assert(text_format_traits<phi4_mini_json_format> && parser_policy<phi4_mini_json>);

} // namespace toolstream
