// Builds tool invocations from the END events of tool segments.
#pragma once

#include <toolstream/detail/parse_json.hpp>
#include <toolstream/policies/detail/xml_arguments.hpp>
#include <toolstream/error.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>


#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace toolstream {

/// How a file or shell segment maps to tool arguments: its metadata gives `required_metadata`
/// (when not empty), its content gives `content_argument`.
struct tool_syntax {
    segment_type type;
    std::string_view tool_name;
    std::string_view content_argument;
    std::string_view required_metadata;
};

inline constexpr std::array<tool_syntax, 3> tool_syntax_table{{
    {segment_type::write_file, "write_file", "content", "path"},
    {segment_type::patch_file, "patch_file", "patch", "path"},
    {segment_type::run_bash, "run_bash", "command", ""},
}};

inline const tool_syntax* find_tool_syntax(segment_type type) noexcept
{
    for (const auto& s : tool_syntax_table)
        if (s.type == type)
            return &s;
    return nullptr;
}

/// Turns each tool segment's END into a tool_invocation whose id is the segment id. Stateless:
/// the END event carries the metadata and the whole content.
///
/// - file and shell segments: arguments from the syntax table; a missing required field gives
///   `invalid_arguments` (never a silent drop); run_bash takes `command` from the content, else
///   from metadata `command`/`cmd`, and copies `background`/`timeout_seconds` metadata;
/// - tool_call: metadata `arguments` when the policy parsed them, else the content parsed as
///   JSON (when it starts with `{`) or as XML arguments; empty content gives `{}`.
/// A segment that ended `incomplete` stays incomplete whatever its arguments.
class invocation_adapter {
public:
    std::optional<tool_invocation> on_event(const segment_event& e) const
    {
        if (e.type != segment_event_type::SEGMENT_END || !is_tool_segment(e.segment_kind))
            return std::nullopt;
        static const boost::json::object no_metadata;
        const auto& meta = e.metadata != nullptr ? *e.metadata : no_metadata;

        tool_invocation inv;
        inv.id = e.segment_id;
        inv.arguments_raw = e.raw.empty() ? e.content : e.raw;
        inv.status = to_invocation_status(e.status);
        inv.error = e.error;
        if (auto it = meta.find("tool_name"); it != meta.end() && it->value().is_string())
            inv.name = it->value().as_string();

        if (const tool_syntax* syntax = find_tool_syntax(e.segment_kind))
            build_from_syntax(*syntax, meta, e.content, inv);
        else
            build_tool_call(meta, e.content, inv);

        if (inv.name.empty())
            refuse(inv, invocation_status::invalid_arguments, error::missing_tool_name);
        return inv;
    }

private:
    static invocation_status to_invocation_status(segment_status s) noexcept
    {
        switch (s) {
        case segment_status::complete: return invocation_status::complete;
        case segment_status::incomplete: return invocation_status::incomplete;
        case segment_status::invalid_arguments: return invocation_status::invalid_arguments;
        }
        return invocation_status::invalid_arguments;
    }

    // Lowers the status (incomplete outranks invalid) and keeps the first error message.
    static void refuse(tool_invocation& inv, invocation_status status, std::string_view why)
    {
        if (inv.status == invocation_status::complete)
            inv.status = status;
        if (inv.error.empty())
            inv.error = why;
    }
    static void refuse(tool_invocation& inv, invocation_status status, error e)
    {
        refuse(inv, status, make_error_code(e).message());
    }

    static void build_from_syntax(const tool_syntax& syntax, const boost::json::object& meta,
                                  std::string_view content, tool_invocation& inv)
    {
        if (inv.name.empty())
            inv.name = syntax.tool_name;
        if (!syntax.required_metadata.empty()) {
            auto it = meta.find(syntax.required_metadata);
            if (it == meta.end() || !it->value().is_string() || it->value().as_string().empty()) {
                refuse(inv, invocation_status::invalid_arguments,
                       "missing required argument '" + std::string(syntax.required_metadata) + "'");
                return;
            }
            inv.arguments[syntax.required_metadata] = it->value();
        }
        if (syntax.type != segment_type::run_bash) {
            inv.arguments[syntax.content_argument] = content;
            return;
        }
        std::string_view command = content;
        for (const char* key : {"command", "cmd"})
            if (auto it = meta.find(key); command.empty() && it != meta.end() && it->value().is_string())
                command = it->value().as_string();
        if (command.empty()) {
            refuse(inv, invocation_status::invalid_arguments, "missing required argument 'command'");
            return;
        }
        inv.arguments["command"] = command;
        for (const char* key : {"background", "timeout_seconds"})
            if (auto it = meta.find(key); it != meta.end())
                inv.arguments[key] = it->value();
    }

    static void build_tool_call(const boost::json::object& meta, std::string_view content,
                                tool_invocation& inv)
    {
        if (auto it = meta.find("arguments"); it != meta.end() && it->value().is_object()) {
            inv.arguments = it->value().as_object();
            return;
        }
        const auto first = content.find_first_not_of(" \t\r\n");
        if (first == std::string_view::npos)
            return;   // no arguments at all: {}
        if (content[first] == '{') {
            error_code ec;
            auto parsed = detail::parse_json(content, ec);
            if (ec)
                refuse(inv, invocation_status::invalid_arguments, ec.message());
            else if (!parsed.is_object())
                refuse(inv, invocation_status::invalid_arguments, error::invalid_arguments);
            else
                inv.arguments = std::move(parsed.as_object());
            return;
        }
        auto parsed = detail::parse_xml_arguments(content);
        if (parsed)
            inv.arguments = std::move(*parsed);
        else
            refuse(inv, invocation_status::invalid_arguments, parsed.error().message());
    }
};

} // namespace toolstream
