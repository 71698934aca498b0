// hunyuan_a13b: Tencent Hunyuan-A13B tool calls, as vLLM's --tool-call-parser hunyuan_a13b reads
// them: `<tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>`.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/think_guarded_calls_format.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the hunyuan_a13b format (text_format_traits):
/// - `<tool_calls>`, blanks, a JSON array of call objects `{"name": NAME, "arguments": …}`, blanks,
///   `</tool_calls>`. Each object is a call, ENDed where it closes. The arguments are an object
///   or a JSON string holding one (decoded as it streams).
/// - `<tool_calls>` not followed (after blanks) by `[`, then `{` or `]`, is text. An element
///   that is not an object ends the array: the calls before it stand, the rest is text.
/// - A stream that ends after the array but before `</tool_calls>` keeps its calls complete.
/// - From `<think>` to `</think>` no call opens: the block, calls written in it included, is
///   text, as vLLM's parser skips a `<tool_calls>` inside a think block (its
///   preprocess_model_output). vLLM skips it only in a block that closes; here a block the
///   stream ends in keeps its calls text too, as they stream before the close could be known.
///   A reasoning parser in front makes a block it reads reasoning instead.
/// - vLLM also drops the template's `助手：` from an answer without calls and cuts the content
///   after the last `</think>`; here text is kept byte for byte (reasoning belongs to a
///   reasoning parser). vLLM's streaming reads calls only at the start of the output; here the
///   marker opens them anywhere.
struct hunyuan_a13b_format : detail::think_guarded_calls_format {
    static constexpr std::string_view name = "hunyuan_a13b";
    static constexpr json_call_list call_list = json_call_list::array;
};

using hunyuan_a13b = text_format_policy<hunyuan_a13b_format>;
static_assert(text_format_traits<hunyuan_a13b_format> && parser_policy<hunyuan_a13b>);

} // namespace toolstream
