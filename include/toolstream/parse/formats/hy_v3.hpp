// hy_v3: Tencent Hy3 tool calls, as vLLM's --tool-call-parser hy_v3 reads them:
// <tool_calls>\n<tool_call>NAME<tool_sep>\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n</tool_call>\n</tool_calls>
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/arg_key_value_format.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the hy_v3 format (text_format_traits):
/// - a section `<tool_calls>` … `</tool_calls>` of calls `<tool_call>NAME<tool_sep>` …
///   `</tool_call>`, blanks between them; a `<tool_call>` outside a section is text, as in vLLM,
///   which looks for calls only after `<tool_calls>`.
/// - The name is the header, without surrounding blanks; a header with blanks or markup inside
///   names nothing and its bytes are text.
/// - Parameters `<arg_key>K</arg_key>`, blanks, `<arg_value>V</arg_value>`: keys are trimmed,
///   values raw text kept as written. Values stream as JSON string fragments; `write_file`
///   streams its body live. A value no schema types is a string (vLLM's default type); with
///   `options.schemas`, non-string typed values are held to their close and converted.
/// - `</arg_value>` ends a value only when blanks and then `<arg_key>` or `</tool_call>` follow
///   (lookahead of 64 blanks, error::marker_too_long past it).
struct hy_v3_format : detail::arg_key_value_format {
    static constexpr std::string_view name = "hy_v3";
    static constexpr std::string_view section_open = "<tool_calls>";
    static constexpr std::string_view section_close = "</tool_calls>";
    static constexpr std::string_view header_end = "<tool_sep>";
};

using hy_v3 = text_format_policy<hy_v3_format>;
static_assert(text_format_traits<hy_v3_format> && parser_policy<hy_v3>);

} // namespace toolstream
