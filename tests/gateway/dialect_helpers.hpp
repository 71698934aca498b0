// What the tests of /v1/messages and /v1/responses share: request bodies of both dialects, one
// request with its headers, and Anthropic's error shape. The SSE bodies are read by the writers'
// strict readers (tests/writers/anthropic_sse_reader.hpp, responses_sse_reader.hpp).
#pragma once

#include "gateway/helpers.hpp"
#include "writers/anthropic_sse_reader.hpp"
#include "writers/responses_sse_reader.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gateway_test {

using toolstream::test::read_anthropic_sse;
using toolstream::test::read_responses_sse;

inline constexpr std::string_view weather_schema =
    R"({"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]})";

/// An Anthropic Messages request asking for the weather, with the get_weather tool.
inline std::string messages_body(bool stream, std::string_view text = "What is the weather in Paris?")
{
    return R"({"model":"m","max_tokens":256,"messages":[{"role":"user","content":)" + json::serialize(json::value(text)) +
           R"(}],"tools":[{"name":"get_weather","description":"Weather","input_schema":)" + std::string(weather_schema) +
           R"(}],"stream":)" + (stream ? "true" : "false") + "}";
}

/// The same as an OpenAI Responses request (`extra` members added).
inline std::string responses_body(bool stream, std::string_view extra = {})
{
    return R"({"model":"m","input":"What is the weather in Paris?","tools":[{"type":"function","name":"get_weather",)"
           R"("parameters":)" + std::string(weather_schema) + R"(}],"stream":)" + (stream ? "true" : "false") +
           std::string(extra) + "}";
}

/// POST `target` with `body` and the headers `headers` (name, value) set.
inline http_answer post_with(unsigned short port, std::string target, std::string body,
                             std::vector<std::pair<std::string, std::string>> headers)
{
    return send_with(port, http::verb::post, std::move(target), std::move(body), [headers](auto& req) {
        for (const auto& [name, value] : headers)
            req.set(name, value);
    });
}

/// An Anthropic error body `{"type":"error","error":{"type","message"}}`: its error type, or why
/// the body is not one.
inline std::string anthropic_error_type_of(const http_answer& a)
{
    const auto v = parse(a.body);
    const auto* o = v.if_object();
    const auto* e = o != nullptr ? o->if_contains("error") : nullptr;
    if (o == nullptr || o->size() != 2 || !o->contains("type") || o->at("type") != "error" || e == nullptr ||
        !e->is_object() || !e->get_object().contains("message") || e->get_object().contains("code"))
        return "(not an Anthropic error object: " + a.body + ")";
    return string_of(e->get_object().if_contains("type"));
}

inline std::string error_message_of(const http_answer& a)
{
    const auto v = parse(a.body);
    const auto* o = v.if_object();
    const auto* e = o != nullptr ? o->if_contains("error") : nullptr;
    return e != nullptr && e->is_object() ? string_of(e->get_object().if_contains("message")) : "(no message: " + a.body + ")";
}

/// The violations of a strict reader, one a line ("" when none), for a readable CHECK.
inline std::string lines_of(const std::vector<std::string>& violations)
{
    std::string out;
    for (const auto& v : violations)
        out += v + "\n";
    return out;
}

} // namespace gateway_test
