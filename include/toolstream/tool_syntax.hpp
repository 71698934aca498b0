// The one table that maps file and shell tools to segments and back.
#pragma once

#include <toolstream/segment_event.hpp>

#include <boost/json/object.hpp>

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

/// A call named after a row streams as its file or shell segment only when the tool has the row's
/// shape; else it is an ordinary call, whatever its name (a model's own `write_file` with
/// `content` and `mode`). The tool's parameters schema shows the shape: its properties hold the
/// row's required member (when the row has one) and its body, and nothing but those and the row's
/// options.
inline bool has_tool_shape(const tool_syntax& row, const boost::json::object& parameters)
{
    const auto* p = parameters.if_contains("properties");
    if (p == nullptr || !p->is_object())
        return false;
    const auto& properties = p->get_object();
    for (const auto& property : properties) {
        const std::string_view key = property.key();
        if (key != row.required_metadata && key != row.content_argument && key != row.extra_metadata[0]
            && key != row.extra_metadata[1])
            return false;
    }
    return properties.contains(row.content_argument)
        && (row.required_metadata.empty() || properties.contains(row.required_metadata));
}

/// Without a schema the arguments show the shape, as far as their first member shows it before
/// the call must stream: a call has the row's shape when that member is the row's leading one,
/// its required member (`path`), or its body for a row without one (run_bash's `command`).
constexpr std::string_view leading_member(const tool_syntax& row) noexcept
{
    return row.required_metadata.empty() ? row.content_argument : row.required_metadata;
}

/// The name of a tool segment's tool, the one lookup every output uses: metadata `tool_name`
/// when it is a non-empty string, else a file or shell segment's table name, else empty.
inline std::string_view tool_name_of(const segment_event& e) noexcept
{
    if (const auto name = metadata_string(e, "tool_name"); !name.empty())
        return name;
    const tool_syntax* syntax = find_tool_syntax(e.segment_kind);
    return syntax != nullptr ? syntax->tool_name : std::string_view{};
}

} // namespace toolstream
