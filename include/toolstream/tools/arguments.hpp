// arguments_as<T>: a tool invocation's arguments as a described struct, or an error that names
// the JSON Pointer of the offending value (`/items/2/qty: expected integer`).
//
// The reading follows json_schema<T>() rule for rule; it is lenient only where the schema is
// silent: unknown keys are ignored, a missing or null optional member is empty, and a number
// with an exact integer value (`2.0`) is an integer. Boost 1.81's value_to is not used: it
// rejects missing optionals and unknown keys, and reports no path.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/tools/detail/argument_reader.hpp>
#include <toolstream/tools/detail/type_classes.hpp>

#include <boost/assert/source_location.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/system/result.hpp>
#include <boost/system/system_error.hpp>
#include <boost/throw_exception.hpp>

#include <ostream>
#include <string>

namespace toolstream {

/// Why arguments did not convert: where (a JSON Pointer into the arguments, empty for the
/// whole call), what (`expected integer`), and a code for programs.
struct argument_error {
    std::string path;
    std::string message;
    error_code code;

    /// `path: message`, or the message alone when the error concerns the whole call.
    std::string to_string() const { return path.empty() ? message : path + ": " + message; }

    friend std::ostream& operator<<(std::ostream& os, const argument_error& e) { return os << e.to_string(); }
    friend bool operator==(const argument_error&, const argument_error&) = default;
};

/// What result<T, argument_error>::value() throws on an error: a boost::system::system_error
/// whose what() is the error printed as above.
[[noreturn]] inline void throw_exception_from_error(const argument_error& e, const boost::source_location& loc)
{
    boost::throw_exception(boost::system::system_error(e.code, e.to_string()), loc);
}

/// The value, or an argument_error: has_value(), value(), error(), and a test in `if`.
template<class T>
using arguments_result = boost::system::result<T, argument_error>;

/// Converts a JSON object to `T` (see the header comment for the rules).
template<described_struct T>
arguments_result<T> arguments_as(const boost::json::object& arguments)
{
    T out{};
    detail::argument_reader reader;
    if (!reader.read_members(arguments, out))
        return std::move(reader).error<argument_error>();
    return out;
}

/// Converts a complete invocation's arguments to `T`. An invocation that is not complete never
/// converts: its error says why (code error::incomplete_call or error::invalid_arguments).
template<described_struct T>
arguments_result<T> arguments_as(const tool_invocation& invocation)
{
    switch (invocation.status) {
    case invocation_status::complete: break;
    case invocation_status::incomplete:
        return argument_error{{}, "the call is incomplete: " + invocation.error, error::incomplete_call};
    case invocation_status::invalid_arguments:
        return argument_error{{}, "the call's arguments are invalid: " + invocation.error, error::invalid_arguments};
    }
    return arguments_as<T>(invocation.arguments);
}

} // namespace toolstream
