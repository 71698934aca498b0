// gemma4: Gemma 4 tool calls, as vLLM's --tool-call-parser gemma4 reads them:
// `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:42,flag:true,obj:{…},list:[…]}<tool_call|>`.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/gemma4_reader.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the gemma4 format (text_format_traits):
/// - `<|tool_call>call:NAME{…}<tool_call|>`, one call per marker pair, calls back to back or
///   between prose. `<|tool_call>` not followed at once by `call:NAME{` is text.
/// - The arguments are not JSON: bare keys, strings between `<|"|>` tokens (raw text, no
///   escapes), bare numbers, `true`/`false`/`null`, nested `{…}` and `[…]`. They are turned into
///   JSON argument fragments as they are read; a string streams as it comes, so a `write_file`
///   body streams live (its START waits for `path`).
/// - Reasoning (`<|channel>thought…<channel|>`) is not the format's: a reasoning policy splits it.
struct gemma4_format : reader_format<detail::gemma4_reader<detail::gemma4_markers>> {
    static constexpr std::string_view name = "gemma4";
};

using gemma4 = text_format_policy<gemma4_format>;
static_assert(text_format_traits<gemma4_format> && parser_policy<gemma4>);

} // namespace toolstream
