// granite_20b_fc: granite-20b-functioncalling tool calls, as vLLM's --tool-call-parser
// granite-20b-fc reads them: `<function_call> {"name": …, "arguments": {…}}`, the marker before
// each call.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the granite_20b_fc format (text_format_traits):
/// - a call is `<function_call>`, blanks, one JSON object `{"name": NAME, "arguments": {…}}`
///   (`"parameters"` read alike); it ENDs where the object closes (no closing marker). Calls
///   repeat the marker.
/// - `<function_call>` not followed (after blanks) by `{` is text.
/// - The arguments stream as raw JSON fragments; `write_file` / `patch_file` / `run_bash` stream
///   their decoded body once the name is read.
/// - vLLM's streaming reads calls only when the output starts with `<function_call>`; here a
///   marker opens a call anywhere (as vLLM's non-streaming parser finds them), and the text
///   between calls is kept.
struct granite_20b_fc_format : marker_format {
    static constexpr std::string_view name = "granite_20b_fc";   ///< vLLM's "granite-20b-fc" is an alias
    static constexpr std::string_view call_open = "<function_call>";
    static constexpr text_arguments arguments = text_arguments::json_call;
};

using granite_20b_fc = text_format_policy<granite_20b_fc_format>;
static_assert(text_format_traits<granite_20b_fc_format> && parser_policy<granite_20b_fc>);

} // namespace toolstream
