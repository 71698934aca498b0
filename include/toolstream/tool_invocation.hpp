// A tool call ready for (or refused from) execution.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/parse_json.hpp>
#include <toolstream/detail/valid_json.hpp>
#include <toolstream/types.hpp>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value_from.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream {

/// Whether an invocation may be executed.
enum class invocation_status {
    complete,           ///< The call ended and its arguments are valid: safe to execute.
    incomplete,         ///< The stream ended before the call did. Never execute.
    invalid_arguments,  ///< The call ended but its arguments are malformed or miss a required field.
};
BOOST_DESCRIBE_ENUM(invocation_status, complete, incomplete, invalid_arguments)

/// One tool call built from a tool segment. Its `id` is the segment's id.
struct tool_invocation {
    std::string id;
    std::string name;
    boost::json::object arguments;   ///< Empty unless the arguments could be read.
    invocation_status status = invocation_status::complete;
    std::string error;               ///< Why the status is not `complete`; empty otherwise.
    std::string arguments_raw;       ///< The argument text as received (JSON, XML or file body).
    /// The call's input is free-form text, not JSON (OpenAI Responses custom tools): it is
    /// `arguments_raw`, and `arguments` stays empty. Such a call is complete once the provider
    /// completes it.
    bool free_form = false;
    /// Set when the call's file body was streamed and not kept (handler_options::keep_file_bodies
    /// off): the body's size in bytes, as its CONTENT events carried it. `arguments` then has
    /// every argument but the body (its key is absent, so no reader takes it for an empty file)
    /// and `arguments_raw` is empty. Unset whenever the body is kept.
    std::optional<std::size_t> streamed_body_bytes = std::nullopt;

    bool is_complete() const noexcept { return status == invocation_status::complete; }

    friend bool operator==(const tool_invocation&, const tool_invocation&) = default;
};
BOOST_DESCRIBE_STRUCT(tool_invocation, (),
    (id, name, arguments, status, error, arguments_raw, free_form, streamed_body_bytes))

/// Parses a call's raw argument text the way the fixtures' `arguments` field is defined:
/// `{}` when empty, null when not valid JSON.
inline boost::json::value parse_arguments_raw(std::string_view raw)
{
    if (detail::all_blank(raw))
        return boost::json::object{};
    boost::system::error_code ec;
    auto v = detail::parse_json(raw, ec);
    if (ec)
        return nullptr;
    return v;
}

/// A call's `arguments` as every JSON output reports it (the summary, `--emit invocations`): the
/// invocation's own when it is complete; else its argument text read with the wire semantics
/// above, so a call cut after whole JSON arguments reports them and one cut inside them reports
/// null. A free-form input (`free_form`) is no JSON: read the same way, it is usually null, and
/// the input is `arguments_raw`.
inline boost::json::value reported_arguments(const tool_invocation& inv)
{
    if (inv.is_complete() && !inv.free_form)
        return inv.arguments;
    return parse_arguments_raw(inv.arguments_raw);
}
/// The same, moving the arguments out of `inv` when they are what is reported.
inline boost::json::value reported_arguments(tool_invocation&& inv)
{
    if (inv.is_complete() && !inv.free_form)
        return std::move(inv.arguments);
    return parse_arguments_raw(inv.arguments_raw);
}

/// One invocation as `toolstream-replay --emit invocations` prints it: `id`, `name`,
/// `arguments` (reported_arguments), `status`, `streamed_body_bytes` when the body was not kept,
/// and `error` when the status is not `complete`; `input` (the raw text) for a free-form call.
/// Strings that are not UTF-8 get U+FFFD (see docs/errors.md).
inline boost::json::object to_json(const tool_invocation& inv)
{
    // By emplace: an initializer list would copy the arguments a second time.
    boost::json::object out;
    out.emplace("id", inv.id);
    out.emplace("name", inv.name);
    out.emplace("arguments", reported_arguments(inv));
    out.emplace("status", boost::json::value_from(inv.status));
    if (inv.free_form)
        out["input"] = inv.arguments_raw;
    if (inv.streamed_body_bytes)
        out["streamed_body_bytes"] = *inv.streamed_body_bytes;
    if (!inv.is_complete())
        out["error"] = inv.error;
    detail::make_valid_utf8(out);
    return out;
}

} // namespace toolstream
