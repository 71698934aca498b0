// A tool call ready for (or refused from) execution.
#pragma once

#include <toolstream/types.hpp>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>
#include <boost/json/object.hpp>

#include <string>

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

    bool is_complete() const noexcept { return status == invocation_status::complete; }

    friend bool operator==(const tool_invocation&, const tool_invocation&) = default;
};
BOOST_DESCRIBE_STRUCT(tool_invocation, (), (id, name, arguments, status, error, arguments_raw))

} // namespace toolstream
