// mistral_calls: Mistral tool calls, as vLLM's --tool-call-parser mistral reads them, both tokenizer
// generations: `[TOOL_CALLS][{"name": …, "arguments": {…}}, …]` (pre-v11) and
// `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}` (v11+; `[CALL_ID]ID` optional, `[ARGS]` often skipped
// by the detokenizer as a special token, leaving `[TOOL_CALLS]NAME{…}`).
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/mistral_reader.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the mistral_calls format (text_format_traits):
/// - `[TOOL_CALLS]` then `[{"name": NAME, "arguments": {…}}, …]`: each object of the array is a
///   call (keys in any order; "id" is not kept: vLLM makes its own ids either way).
/// - `[TOOL_CALLS]NAME[ARGS]{…}`, `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}` or `[TOOL_CALLS]NAME{…}`:
///   one call whose arguments are the object; `ID` is its call id. Calls repeat the opener.
/// - The arguments stream as raw JSON fragments; `write_file` / `patch_file` / `run_bash` stream
///   their decoded body. `[TOOL_CALLS]` inside a JSON string ends nothing (brackets balance
///   outside strings); the call ENDs where its JSON closes, so no end marker can be missing.
/// - `[TOOL_CALLS]` followed by anything else (prose, a name with blanks, `[` not then `{`) is
///   text, decided at the first byte that cannot continue a call.
struct mistral_format : reader_format<detail::mistral_reader> {
    static constexpr std::string_view name = "mistral_calls";   ///< vLLM's "mistral" is an alias
};

/// `toolstream::mistral` is the provider tag (providers/provider.hpp): the policy is mistral_calls.
using mistral_calls = text_format_policy<mistral_format>;
static_assert(text_format_traits<mistral_format> && parser_policy<mistral_calls>);

} // namespace toolstream
