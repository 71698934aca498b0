// The request the chat core serves: a Chat Completions request, checked, whichever route it came
// by (the others translate theirs into one: anthropic/request.hpp, responses/request.hpp); and the
// JSON rules every route's body is read by.
#pragma once

#include <toolstream/detail/json_string_decoder.hpp>

#include <boost/json.hpp>

#include <string>
#include <string_view>
#include <variant>

namespace gateway {

namespace json = boost::json;

/// Why a request body was refused (400).
struct request_error {
    std::string code;      // invalid_json, invalid_request
    std::string message;
};

/// What the gateway needs from a client's request.
struct chat_request {
    json::object body;
    std::string_view text;        // the body as the client wrote it (it outlives the request)
    bool stream = false;
    bool include_usage = false;   // `stream_options.include_usage`: the client wants the usage chunk
};

/// How deep a request body may nest: far past any real tool schema, still bounded (Boost.JSON's
/// default of 32 counts the whole body, and refuses schemas of about 14 levels).
inline constexpr std::size_t max_request_depth = 256;

/// The first `\uXXXX` escape of `text` that is a UTF-16 surrogate out of its pair, or empty:
/// Boost.JSON calls a lone leading surrogate a syntax error.
inline std::string_view lone_surrogate(std::string_view text)
{
    const auto code_at = [&](std::size_t i) -> int {   // the escape `\uXXXX` at i, or -1
        if (i + 6 > text.size() || text[i] != '\\' || text[i + 1] != 'u')
            return -1;
        int code = 0;
        for (std::size_t k = i + 2; k < i + 6; ++k) {
            const int digit = toolstream::detail::json_string_decoder::hex_value(text[k]);
            if (digit < 0)
                return -1;
            code = code * 16 + digit;
        }
        return code;
    };
    for (std::size_t i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != '\\')
            continue;
        const int code = code_at(i);
        if (code >= 0xD800 && code <= 0xDBFF) {
            const int next = code_at(i + 6);
            if (next < 0xDC00 || next > 0xDFFF)
                return text.substr(i, 6);
            i += 11;   // the pair
        } else if (code >= 0xDC00 && code <= 0xDFFF) {
            return text.substr(i, 6);
        } else {
            ++i;   // the escaped character
        }
    }
    return {};
}

/// A client's request body as JSON: an object, nested at most max_request_depth levels, or why not
/// (the same rules for every route).
inline std::variant<json::object, request_error> parse_request_json(std::string_view text)
{
    boost::system::error_code ec;
    json::parse_options options;
    options.max_depth = max_request_depth;
    json::value v = json::parse(text, ec, {}, options);
    if (ec == json::error::too_deep)
        return request_error{"invalid_json", "the request body nests deeper than " + std::to_string(max_request_depth) + " levels"};
    if (const auto lone = ec ? lone_surrogate(text) : std::string_view{}; !lone.empty())
        return request_error{"invalid_json", "the request body is not valid JSON: " + std::string(lone) +
                                                 " is a lone UTF-16 surrogate (a \\uD800-\\uDBFF escape must be followed by a \\uDC00-\\uDFFF one)"};
    if (ec)
        return request_error{"invalid_json", "the request body is not valid JSON: " + ec.message()};
    if (!v.is_object())
        return request_error{"invalid_request", "the request body must be a JSON object"};
    return std::move(v.get_object());
}

inline std::variant<chat_request, request_error> read_chat_request(std::string_view text)
{
    auto parsed = parse_request_json(text);
    if (auto* bad = std::get_if<request_error>(&parsed))
        return std::move(*bad);
    chat_request r{std::move(std::get<json::object>(parsed)), text};
    const auto* messages = r.body.if_contains("messages");
    if (messages == nullptr || !messages->is_array() || messages->get_array().empty())
        return request_error{"invalid_request", "`messages` must be a non-empty array"};
    if (const auto* stream = r.body.if_contains("stream"); stream != nullptr && !stream->is_null()) {
        if (!stream->is_bool())
            return request_error{"invalid_request", "`stream` must be a boolean"};
        r.stream = stream->get_bool();
    }
    if (const auto* so = r.body.if_contains("stream_options"); so != nullptr && !so->is_null()) {
        const auto* usage = so->is_object() ? so->get_object().if_contains("include_usage") : nullptr;
        if (!so->is_object() || (usage != nullptr && !usage->is_bool() && !usage->is_null()))
            return request_error{"invalid_request", "`stream_options` must be an object whose `include_usage` is a boolean"};
        r.include_usage = usage != nullptr && usage->is_bool() && usage->get_bool();
    }
    return r;
}

} // namespace gateway
