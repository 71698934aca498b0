// Why a chat ended without its answer: the failure kinds, each with the error code the client and
// the access log get (docs/gateway.md lists them), a sentence for people, and an HTTP status.
#pragma once

#include <boost/beast/http.hpp>

#include <cstddef>
#include <string_view>

namespace gateway {

/// Why a chat ended without its answer. Each kind is one error code of docs/gateway.md.
enum class failure {
    none,
    unreachable,       // could not connect or send
    timeout,           // connect or a read took longer than --upstream-timeout
    deadline,          // the chat took longer than --max-duration
    truncated,         // the upstream's answer ended before its stream did
    broken,            // not HTTP, or a body the parser refused
    bad_answer,        // a 200 that is not a stream of the provider's dialect
    upstream_status,   // the upstream answered an error status
    too_large,         // over --max-response-bytes
    over_budget,       // over --memory-budget (all chats together)
    client_gone,       // the client left; nobody to answer
    upstream_error,    // the upstream's stream reported an error, or ended with no clean finish
    over_limit,        // more tool calls than --max-calls, or arguments over --max-argument-bytes
    shutting_down,     // the chat outlived --drain-timeout after SIGTERM
};
inline constexpr std::size_t failure_kinds = 14;

inline std::string_view code_of(failure f)
{
    switch (f) {
    case failure::none: return "";
    case failure::unreachable: return "upstream_unavailable";
    case failure::timeout: return "upstream_timeout";
    case failure::deadline: return "max_duration";
    case failure::truncated: return "upstream_truncated";
    case failure::broken: return "upstream_broken";
    case failure::bad_answer: return "upstream_bad_answer";
    case failure::upstream_status: return "upstream_status";
    case failure::too_large: return "response_too_large";
    case failure::over_budget: return "memory_budget";
    case failure::client_gone: return "client_gone";
    case failure::upstream_error: return "upstream_error";
    case failure::over_limit: return "tool_call_limit";
    case failure::shutting_down: return "shutting_down";
    }
    return "";
}

inline const char* describe(failure f)
{
    switch (f) {
    case failure::none: return "no failure";
    case failure::unreachable: return "the upstream could not be reached";
    case failure::timeout: return "the upstream timed out (--upstream-timeout)";
    case failure::deadline: return "the chat took longer than --max-duration";
    case failure::truncated: return "the upstream ended its answer before the end of its stream";
    case failure::broken: return "the upstream sent a malformed HTTP response";
    case failure::bad_answer: return "the upstream's answer is not a stream in its dialect";
    case failure::upstream_status: return "the upstream answered with an error status";
    case failure::too_large: return "the upstream's answer is over --max-response-bytes";
    case failure::over_budget: return "the gateway is over --memory-budget; retry later";
    case failure::client_gone: return "the client disconnected";
    case failure::upstream_error: return "the upstream reported an error in its answer";
    case failure::over_limit: return "the upstream's answer is over a tool-call limit";
    case failure::shutting_down: return "the gateway is shutting down: the chat outlived --drain-timeout";
    }
    return "";
}

/// HTTP status for a failure before anything was sent to the client.
inline boost::beast::http::status status_of(failure f)
{
    switch (f) {
    case failure::timeout:
    case failure::deadline: return boost::beast::http::status::gateway_timeout;
    case failure::over_budget:
    case failure::shutting_down: return boost::beast::http::status::service_unavailable;
    default: return boost::beast::http::status::bad_gateway;
    }
}

} // namespace gateway
