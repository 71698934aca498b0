// The gateway's non-streamed replies: OpenAI-shaped JSON errors with a proper status, the model
// list, and a whole JSON body.
#pragma once

#include <boost/beast/http.hpp>
#include <boost/json.hpp>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace gateway {

namespace http = boost::beast::http;

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

/// `{"error":{"message","type","code"}}`, as the OpenAI SDKs read it into an APIError.
inline string_response error_reply(http::status status, std::string_view code, std::string_view message,
                                   bool keep_alive = true)
{
    const unsigned s = static_cast<unsigned>(status);
    const std::string_view type = s == 429 ? "rate_limit_exceeded"
                                  : s == 503 ? "server_error"
                                  : s >= 500 ? "upstream_error"
                                             : "invalid_request_error";
    boost::json::object error{{"message", message}, {"type", type}, {"code", code}};
    auto res = json_reply(status, boost::json::serialize(boost::json::object{{"error", std::move(error)}}), keep_alive);
    if (status == http::status::service_unavailable)
        res.set(http::field::retry_after, "1");
    return res;
}

/// GET /v1/models: the names given with --model.
inline string_response models_reply(const std::vector<std::string>& models, bool keep_alive)
{
    const auto created = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch()).count();
    boost::json::array data;
    for (const auto& m : models)
        data.push_back(boost::json::object{{"id", m}, {"object", "model"}, {"created", created},
                                           {"owned_by", "toolstream-gateway"}});
    return json_reply(http::status::ok,
                      boost::json::serialize(boost::json::object{{"object", "list"}, {"data", std::move(data)}}),
                      keep_alive);
}

} // namespace gateway
