// Reading what the upstream answered before streaming it: an error status becomes an OpenAI
// error with the upstream's own message (the raw body goes to the log only); the content type
// must be the dialect's stream, or one whole JSON answer, which is turned into a stream of one
// event; anything else (HTML, an unknown type) is refused.
#pragma once

#include "upstream_call.hpp"

#include <boost/json.hpp>

#include <cctype>
#include <string>
#include <string_view>

namespace gateway {

/// The media type of a Content-Type value: before any `;`, trimmed, lower case.
inline std::string media_type(std::string_view content_type)
{
    content_type = content_type.substr(0, content_type.find(';'));
    std::string out;
    for (const char c : content_type)
        if (c != ' ' && c != '\t')
            out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return out;
}

/// A media type a streamed answer may have: SSE or JSON lines. Which framing the body really has
/// is the provider's (--provider); an answer with nothing of its dialect is refused later.
inline bool stream_media_type(std::string_view type)
{
    return type == "text/event-stream" || type == "application/x-ndjson" || type == "application/jsonl" ||
           type == "application/x-jsonlines" || type == "application/stream+json";
}

/// The message in an error body: `{"error":{"message"}}`, `{"error":"..."}`, `{"message"}`, or
/// `{"detail"}`; empty when there is none.
inline std::string upstream_message(std::string_view body)
{
    boost::system::error_code ec;
    const auto v = boost::json::parse(body, ec);
    const auto* o = !ec ? v.if_object() : nullptr;
    if (o == nullptr)
        return {};
    const auto string_at = [](const boost::json::object& obj, std::string_view key) -> std::string {
        const auto* s = obj.if_contains(key);
        return s != nullptr && s->is_string() ? std::string(s->get_string()) : std::string();
    };
    if (const auto* e = o->if_contains("error")) {
        if (e->is_string())
            return std::string(e->get_string());
        if (e->is_object())
            return string_at(e->get_object(), "message");
    }
    if (auto m = string_at(*o, "message"); !m.empty())
        return m;
    return string_at(*o, "detail");
}

/// At most `n` bytes of `s` for a log line or a message, cut at a character boundary.
inline std::string clip(std::string_view s, std::size_t n)
{
    if (s.size() <= n)
        return std::string(s);
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80)
        --n;
    return std::string(s.substr(0, n)) + "...";
}

/// A non-streamed `chat.completion` object as the SSE of one `chat.completion.chunk` (each
/// message as the delta, calls given their index), then [DONE]; empty when `body` is not one.
inline std::string completion_as_sse(std::string_view body)
{
    boost::system::error_code ec;
    auto v = boost::json::parse(body, ec);
    auto* o = !ec ? v.if_object() : nullptr;
    const auto* choices = o != nullptr ? o->if_contains("choices") : nullptr;
    if (choices == nullptr || !choices->is_array())
        return {};
    boost::json::array out_choices;
    for (const auto& c : choices->get_array()) {
        const auto* choice = c.if_object();
        const auto* message = choice != nullptr ? choice->if_contains("message") : nullptr;
        if (message == nullptr || !message->is_object())
            return {};
        auto delta = message->get_object();
        if (auto* calls = delta.if_contains("tool_calls"); calls != nullptr && calls->is_array()) {
            std::size_t index = 0;
            for (auto& call : calls->get_array())
                if (auto* co = call.if_object())
                    (*co)["index"] = index++;
        }
        boost::json::object out{{"index", choice->contains("index") ? choice->at("index") : boost::json::value(out_choices.size())},
                                {"delta", std::move(delta)}};
        out["finish_reason"] = choice->contains("finish_reason") ? choice->at("finish_reason") : boost::json::value("stop");
        out_choices.push_back(std::move(out));
    }
    (*o)["object"] = "chat.completion.chunk";
    (*o)["choices"] = std::move(out_choices);
    return "data: " + boost::json::serialize(*o) + "\n\ndata: [DONE]\n\n";
}

/// The upstream's body as the pipeline reads it: straight from the socket, or one translated
/// piece when the upstream answered a whole JSON object.
class body_source {
public:
    explicit body_source(upstream_call& up) : up_(up) {}

    void replace_with(std::string text)
    {
        whole_ = std::move(text);
        replaced_ = true;
    }
    bool done() const { return replaced_ ? given_ : up_.done(); }
    asio::awaitable<failure> next(std::string_view& piece)
    {
        if (!replaced_)
            co_return co_await up_.read(piece);
        piece = given_ ? std::string_view{} : std::string_view(whole_);
        given_ = true;
        co_return failure::none;
    }

private:
    upstream_call& up_;
    std::string whole_;
    bool replaced_ = false;
    bool given_ = false;
};

/// What the client is told when the upstream answered an error status.
struct upstream_refusal {
    http::status status;
    std::string code;
    std::string message;
};

/// `body` must be redacted already (redactor): its message goes to the client.
inline upstream_refusal refusal_of(unsigned status, std::string_view body)
{
    auto message = clip(upstream_message(body), 1024);
    upstream_refusal r{http::status::bad_gateway, "upstream_status",
                       "the upstream answered " + std::to_string(status) + (message.empty() ? std::string() : ": " + message)};
    // A 4xx is about the request (an unknown model, say) and goes back as is, except the upstream's
    // own authentication: the client's key is not the one that was refused. 429 (rate limited)
    // and 503 (overloaded) keep their status, which the clients' retries read with Retry-After.
    if ((status >= 400 && status < 500 && status != 401 && status != 403 && status != 407) || status == 503)
        r.status = static_cast<http::status>(status);
    if (status == 429)
        r.code = "rate_limit_exceeded";
    return r;
}

} // namespace gateway
