// Error codes of toolstream: an enum with its own boost::system category, as Boost.JSON does.
#pragma once

#include <boost/system/error_code.hpp>
#include <boost/system/result.hpp>

#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace toolstream {

using error_code = boost::system::error_code;
template<class T>
using result = boost::system::result<T, error_code>;

/// Everything toolstream itself reports. Values are stable; 0 is success.
enum class error {
    // Handler life cycle.
    feed_after_finalize = 1,   ///< feed() called after finalize().
    unknown_parser,            ///< A runtime parser name that no policy has.
    unknown_provider,          ///< A runtime provider name that no converter has.

    // Tool-call arguments.
    invalid_arguments,         ///< Tool-call arguments are not valid JSON (raw text kept).
    incomplete_call,           ///< The stream ended before the call did.
    missing_argument,          ///< A file or shell tool lacks a required argument (path, command).
    missing_tool_name,         ///< A native tool call never received a name.

    // Transport and provider payloads.
    event_too_large,           ///< An SSE event exceeded the configured maximum.
    line_too_large,            ///< An NDJSON line exceeded the configured maximum.
    invalid_payload,           ///< A provider event is not the JSON the dialect promises.
    provider_error,            ///< The provider reported an error inside the stream.

    // Limits on hostile input.
    marker_too_long,           ///< A tag or marker kept growing past its holdback cap.
    arguments_too_large,       ///< One call's arguments exceeded the configured maximum.
    nesting_too_deep,          ///< JSON nesting exceeded the configured maximum depth.
    too_many_calls,            ///< More parallel calls than the configured maximum.

    // Resources.
    out_of_memory,             ///< An allocation failed; the event or input being decoded was dropped.

    // The stream as a whole.
    provider_mismatch,         ///< No event of a non-empty stream had the provider's shape.
    empty_stream,              ///< A provider stream with no event at all (no byte but blanks).
    finish_repeated,           ///< A choice's finish came again; the first stands, the later one is ignored.
};

namespace detail {

class error_category_impl final : public boost::system::error_category {
public:
    // A fixed id keeps the category unique across shared objects (as Boost.JSON's does).
    constexpr error_category_impl() noexcept : boost::system::error_category(0x746f6f6c73747265ULL) {}

    const char* name() const noexcept override { return "toolstream"; }

    std::string message(int ev) const override { return message(ev, nullptr, 0); }

    const char* message(int ev, char*, std::size_t) const noexcept override
    {
        switch (static_cast<error>(ev)) {
        case error::feed_after_finalize: return "feed() after finalize()";
        case error::unknown_parser: return "unknown parser name";
        case error::unknown_provider: return "unknown provider name";
        case error::invalid_arguments: return "tool-call arguments are not valid JSON";
        case error::incomplete_call: return "stream ended before the tool call was complete";
        case error::missing_argument: return "a required tool argument is missing";
        case error::missing_tool_name: return "tool call has no name";
        case error::event_too_large: return "SSE event exceeds the maximum size";
        case error::line_too_large: return "NDJSON line exceeds the maximum size";
        case error::invalid_payload: return "provider event is not valid for its dialect";
        case error::provider_error: return "the provider reported an error";
        case error::marker_too_long: return "tag or marker exceeds the holdback cap";
        case error::arguments_too_large: return "tool-call arguments exceed the maximum size";
        case error::nesting_too_deep: return "JSON nesting exceeds the maximum depth";
        case error::too_many_calls: return "too many parallel tool calls";
        case error::out_of_memory: return "out of memory: an allocation failed";
        case error::provider_mismatch: return "no event of the stream has the provider's shape (wrong provider?)";
        case error::empty_stream: return "the provider stream is empty";
        case error::finish_repeated: return "a choice's finish reason came again (the first stands)";
        }
        return "unknown toolstream error";
    }
};

} // namespace detail

/// The category of toolstream::error.
inline const boost::system::error_category& error_category() noexcept
{
    static const detail::error_category_impl instance;
    return instance;
}

inline error_code make_error_code(error e) noexcept
{
    return {static_cast<int>(e), error_category()};
}

} // namespace toolstream

template<>
struct boost::system::is_error_code_enum<toolstream::error> : std::true_type {};

namespace toolstream::detail {

/// Calls `f`, which returns an error_code or a result, and returns what it returns; an
/// allocation that fails inside it (std::bad_alloc, or std::length_error for a size beyond what
/// a container can hold) is returned as error::out_of_memory instead of escaping. Other
/// exceptions (a user callback's own) pass through.
template<class F>
auto guard_allocation(F&& f) -> decltype(f())
{
    try {
        return f();
    } catch (const std::bad_alloc&) {
    } catch (const std::length_error&) {
    }
    return error_code(error::out_of_memory);
}

} // namespace toolstream::detail
