// The one table that maps file and shell tools to segments and back.
#pragma once

#include <toolstream/types.hpp>

#include <array>
#include <string_view>

namespace toolstream {

/// How a file or shell segment maps to tool arguments: the segment's content is the string
/// argument `content_argument`; `required_metadata` (when not empty) must come as a string in
/// the segment's metadata; `extra_metadata` are copied into the arguments when present.
struct tool_syntax {
    segment_type type;
    std::string_view tool_name;
    std::string_view content_argument;
    std::string_view required_metadata;
    std::array<std::string_view, 2> extra_metadata;
};

inline constexpr std::array<tool_syntax, 3> tool_syntax_table{{
    {segment_type::write_file, "write_file", "content", "path", {}},
    {segment_type::patch_file, "patch_file", "patch", "path", {}},
    {segment_type::run_bash, "run_bash", "command", "", {"background", "timeout_seconds"}},
}};

/// The row of a segment type, or null for segments that are not file or shell tools.
constexpr const tool_syntax* find_tool_syntax(segment_type type) noexcept
{
    for (const auto& s : tool_syntax_table)
        if (s.type == type)
            return &s;
    return nullptr;
}

/// The row of a tool name (`write_file`...), or null.
constexpr const tool_syntax* find_tool_syntax(std::string_view tool_name) noexcept
{
    for (const auto& s : tool_syntax_table)
        if (s.tool_name == tool_name)
            return &s;
    return nullptr;
}

} // namespace toolstream
