// poolside_v1: Poolside tool calls, as vLLM's --tool-call-parser poolside_v1 reads them: GLM-4's
// grammar, <tool_call>NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n…</tool_call>
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/glm45.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace toolstream {

/// Traits of the poolside_v1 format (text_format_traits): glm45's markers and rules. vLLM's
/// PoolsideV1ToolParser is a GLM-4 parser that streams string values as they arrive and, like
/// glm45, JSON-decodes a value no schema types when it parses (held to its close, else a
/// string); values typed by `options.schemas` are converted.
/// Unlike glm45, blanks inside the name are part of it (`get weather`), as vLLM's name pattern
/// `[^\n<]+?` has them: only a `<` in the header makes it name nothing.
struct poolside_v1_format : glm45_format {
    static constexpr std::string_view name = "poolside_v1";

    static std::optional<call_header> read_header(std::string_view header)
    {
        const std::string_view name = detail::trim_blanks(header);
        if (name.empty() || name.find('<') != std::string_view::npos)
            return std::nullopt;
        return call_header{std::string(name), {}};
    }
};

using poolside_v1 = text_format_policy<poolside_v1_format>;
static_assert(text_format_traits<poolside_v1_format> && parser_policy<poolside_v1>);

} // namespace toolstream
