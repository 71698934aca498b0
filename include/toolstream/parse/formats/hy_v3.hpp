// hy_v3: Tencent Hy3 tool calls, as vLLM's --tool-call-parser hy_v3 reads them:
// <tool_calls>\n<tool_call>NAME<tool_sep>\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n</tool_call>\n</tool_calls>
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include <optional>
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
struct hy_v3_format : marker_format {
    static constexpr std::string_view name = "hy_v3";
    static constexpr std::string_view section_open = "<tool_calls>";
    static constexpr std::string_view section_close = "</tool_calls>";
    static constexpr std::string_view call_open = "<tool_call>";
    static constexpr std::string_view header_end = "<tool_sep>";
    static constexpr std::string_view call_close = "</tool_call>";
    static constexpr text_arguments arguments = text_arguments::key_value;
    static constexpr std::string_view parameter_open = "<arg_key>";
    static constexpr std::string_view parameter_name_end = "</arg_key>";
    static constexpr std::string_view value_open = "<arg_value>";
    static constexpr std::string_view value_close = "</arg_value>";

    static std::optional<call_header> read_header(std::string_view header)
    {
        return named_call(detail::trim_blanks(header));
    }
};

using hy_v3 = text_format_policy<hy_v3_format>;
static_assert(text_format_traits<hy_v3_format> && parser_policy<hy_v3>);

} // namespace toolstream
