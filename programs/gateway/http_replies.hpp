// The gateway's non-streamed replies: JSON errors in the client's dialect with a proper status, the
// model list, and a whole JSON body.
#pragma once

#include <boost/beast/http.hpp>
#include <boost/json.hpp>

#include <chrono>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

namespace gateway {

namespace http = boost::beast::http;

/// The API a client speaks, by the route it posted to: it shapes the answer and every error.
enum class dialect { openai_chat, anthropic_messages, openai_responses };

/// The dialect of the route `path` (without its query): Anthropic's routes, Responses', else Chat's.
inline dialect dialect_of_route(std::string_view path)
{
    if (path == "/v1/messages" || path == "/v1/messages/count_tokens")
        return dialect::anthropic_messages;
    return path == "/v1/responses" ? dialect::openai_responses : dialect::openai_chat;
}

using string_response = http::response<http::string_body>;

inline string_response json_reply(http::status status, std::string body, bool keep_alive)
{
    string_response res{status, 11};
    res.set(http::field::server, "toolstream-gateway");
    res.set(http::field::content_type, "application/json");
    res.keep_alive(keep_alive);
    res.body() = std::move(body);
    res.prepare_payload();
    return res;
}

/// Anthropic's error type for a status, as its SDKs map them to error classes.
inline std::string_view anthropic_error_type(unsigned status)
{
    switch (status) {
    case 400: return "invalid_request_error";
    case 401: return "authentication_error";
    case 403: return "permission_error";
    case 404: return "not_found_error";
    case 413: return "request_too_large";
    case 429: return "rate_limit_error";
    case 503: return "overloaded_error";
    case 504: return "timeout_error";
    default: return status >= 500 ? "api_error" : "invalid_request_error";
    }
}

/// The error body of `dialect`: `{"error":{"message","type","code"}}` for the OpenAI APIs (their
/// SDKs read it into an APIError), `{"type":"error","error":{"type","message"}}` for Anthropic's,
/// whose `type` follows the status; the gateway's own code is in the message's access-log line.
inline string_response error_reply(http::status status, std::string_view code, std::string_view message,
                                   bool keep_alive = true, dialect d = dialect::openai_chat)
{
    const unsigned s = static_cast<unsigned>(status);
    boost::json::object body;
    if (d == dialect::anthropic_messages) {
        body = {{"type", "error"}, {"error", {{"type", anthropic_error_type(s)}, {"message", message}}}};
    } else {
        const std::string_view type = s == 429   ? "rate_limit_exceeded"
                                      : s == 503 ? "server_error"
                                      : s >= 500 ? "upstream_error"
                                                 : "invalid_request_error";
        body = {{"error", {{"message", message}, {"type", type}, {"code", code}}}};
    }
    auto res = json_reply(status, boost::json::serialize(body), keep_alive);
    if (status == http::status::service_unavailable)
        res.set(http::field::retry_after, "1");
    return res;
}

/// GET /v1/models: the names given with --model, each in both shapes its clients read: OpenAI's
/// (`object`, `created`, `owned_by`) and Anthropic's (`type`, `display_name`, `created_at`, and
/// the page's `has_more`, `first_id`, `last_id`).
inline string_response models_reply(const std::vector<std::string>& models, bool keep_alive)
{
    const auto created = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch()).count();
    char created_at[32];
    const std::time_t t = created;
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::strftime(created_at, sizeof created_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    boost::json::array data;
    for (const auto& m : models)
        data.push_back(boost::json::object{{"id", m}, {"object", "model"}, {"created", created},
                                           {"owned_by", "toolstream-gateway"}, {"type", "model"},
                                           {"display_name", m}, {"created_at", created_at}});
    boost::json::object list{{"object", "list"}, {"data", std::move(data)}, {"has_more", false}};
    list["first_id"] = models.empty() ? boost::json::value(nullptr) : boost::json::value(models.front());
    list["last_id"] = models.empty() ? boost::json::value(nullptr) : boost::json::value(models.back());
    return json_reply(http::status::ok, boost::json::serialize(list), keep_alive);
}

} // namespace gateway
