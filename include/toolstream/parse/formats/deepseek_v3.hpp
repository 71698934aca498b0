// DeepSeek V3 / R1 tool calls (vLLM --tool-call-parser deepseek_v3):
// <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace toolstream {

/// The header runs from `<｜tool▁call▁begin｜>` to the opening fence "```json": a type
/// (`function`), `<｜tool▁sep｜>`, the tool name and a line break. The arguments are one JSON
/// object (any marker or fence inside its strings is data); the closing fence and
/// `<｜tool▁call▁end｜>` follow it. A header without `<｜tool▁sep｜>` or a name names no call:
/// its bytes are text. Reasoning (`<think>…</think>`) comes from a reasoning parser (deepseek_r1).
struct deepseek_v3_format : marker_format {
    static constexpr std::string_view name = "deepseek_v3";
    static constexpr std::string_view section_open = "<｜tool▁calls▁begin｜>";
    static constexpr std::string_view section_close = "<｜tool▁calls▁end｜>";
    static constexpr std::string_view call_open = "<｜tool▁call▁begin｜>";
    static constexpr std::string_view header_end = "```json";
    static constexpr std::string_view call_close = "```<｜tool▁call▁end｜>";
    static constexpr text_arguments arguments = text_arguments::json_object;

    static std::optional<call_header> read_header(std::string_view header)
    {
        constexpr std::string_view sep = "<｜tool▁sep｜>";
        const auto at = header.find(sep);
        if (at == std::string_view::npos)
            return std::nullopt;
        const std::string_view tool = detail::trim_blanks(header.substr(at + sep.size()));
        if (tool.empty())
            return std::nullopt;
        return call_header{std::string(tool), {}};
    }
};

using deepseek_v3 = text_format_policy<deepseek_v3_format>;
static_assert(text_format_traits<deepseek_v3_format> && parser_policy<deepseek_v3>);

} // namespace toolstream
