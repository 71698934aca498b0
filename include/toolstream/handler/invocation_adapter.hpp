// Builds tool invocations from the END events of tool segments.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/tool_syntax.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream {

/// Turns each tool segment's END into a tool_invocation whose id is the segment id. Stateless,
/// and it parses nothing: the END event carries the parsed `arguments` (see segment_emitter),
/// the joined argument text, the status and the error.
///
/// The name is tool_name_of(e) (metadata `tool_name`, else the tool_syntax table's name for a
/// file or shell segment); a call without one is `invalid_arguments`. A segment that ended
/// `incomplete` stays incomplete whatever its arguments.
class invocation_adapter {
public:
    std::optional<tool_invocation> on_event(const segment_event& e) const
    {
        auto inv = build(e);
        if (inv) {
            inv->arguments_raw = e.arguments_text;
            if (e.arguments != nullptr)
                inv->arguments = *e.arguments;
        }
        return inv;
    }

    /// The same, taking the arguments and their text from the storage `e` points to (left
    /// empty) instead of copying them: a large call is not held twice. `streamed_body`: the size
    /// of a body the writer streamed without keeping it (tool_invocation::streamed_body_bytes).
    std::optional<tool_invocation> on_event(const segment_event& e, boost::json::object&& arguments,
                                            std::string&& arguments_text,
                                            std::optional<std::size_t> streamed_body = std::nullopt) const
    {
        auto inv = build(e);
        if (inv) {
            inv->streamed_body_bytes = streamed_body;
            inv->arguments_raw = std::move(arguments_text);
            if (e.arguments != nullptr)
                inv->arguments = std::move(arguments);
        }
        return inv;
    }

private:
    std::optional<tool_invocation> build(const segment_event& e) const
    {
        if (e.type != segment_event_type::SEGMENT_END || !is_tool_segment(e.segment_kind))
            return std::nullopt;
        tool_invocation inv;
        inv.id = e.segment_id;
        inv.status = to_invocation_status(e.status);
        inv.error = e.error;
        inv.name = tool_name_of(e);
        inv.free_form = is_free_form(e);
        if (inv.name.empty() && inv.status == invocation_status::complete) {
            inv.status = invocation_status::invalid_arguments;
            inv.error = make_error_code(error::missing_tool_name).message();
        }
        return inv;
    }

    static invocation_status to_invocation_status(segment_status s) noexcept
    {
        switch (s) {
        case segment_status::complete: return invocation_status::complete;
        case segment_status::incomplete: return invocation_status::incomplete;
        case segment_status::invalid_arguments: return invocation_status::invalid_arguments;
        }
        return invocation_status::invalid_arguments;
    }
};

} // namespace toolstream
