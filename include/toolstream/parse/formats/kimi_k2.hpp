// Kimi K2 tool calls (vLLM --tool-call-parser kimi_k2):
// <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{…}<|tool_call_end|>…<|tool_calls_section_end|>
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace toolstream {

/// The header `functions.NAME:IDX` is kept whole as the call id (the model refers to it in the
/// tool result); the tool name is what lies between the first `.` and the last `:` (a header
/// without the `functions.` prefix: what lies before the last `:`). A header without `:IDX`
/// names no call: its bytes are text. The arguments are one JSON object. Reasoning
/// (`<think>…</think>`) comes from a reasoning parser (kimi_k2).
struct kimi_k2_format : marker_format {
    static constexpr std::string_view name = "kimi_k2";
    static constexpr std::string_view section_open = "<|tool_calls_section_begin|>";
    static constexpr std::string_view section_close = "<|tool_calls_section_end|>";
    static constexpr std::string_view call_open = "<|tool_call_begin|>";
    static constexpr std::string_view header_end = "<|tool_call_argument_begin|>";
    static constexpr std::string_view call_close = "<|tool_call_end|>";
    static constexpr text_arguments arguments = text_arguments::json_object;

    static std::optional<call_header> read_header(std::string_view header)
    {
        const std::string_view id = detail::trim_blanks(header);
        const auto colon = id.rfind(':');
        if (colon == std::string_view::npos || colon + 1 == id.size())
            return std::nullopt;
        std::string_view tool = id.substr(0, colon);
        if (const auto dot = tool.find('.'); dot != std::string_view::npos)
            tool = tool.substr(dot + 1);
        if (tool.empty())
            return std::nullopt;
        return call_header{std::string(tool), std::string(id)};
    }
};

using kimi_k2 = text_format_policy<kimi_k2_format>;
static_assert(text_format_traits<kimi_k2_format> && parser_policy<kimi_k2>);

} // namespace toolstream
