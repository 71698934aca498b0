// An OpenAI Chat Completions request, checked, then put in the upstream's dialect. The upstream
// is always asked to stream: a `stream: false` answer is built from the stream.
#pragma once

#include <boost/json.hpp>

#include <string>
#include <string_view>
#include <unordered_map>
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
    bool stream = false;
};

inline std::variant<chat_request, request_error> read_chat_request(std::string_view text)
{
    boost::system::error_code ec;
    json::value v = json::parse(text, ec);
    if (ec)
        return request_error{"invalid_json", "the request body is not valid JSON: " + ec.message()};
    if (!v.is_object())
        return request_error{"invalid_request", "the request body must be a JSON object"};
    chat_request r{std::move(v.get_object())};
    const auto* messages = r.body.if_contains("messages");
    if (messages == nullptr || !messages->is_array() || messages->get_array().empty())
        return request_error{"invalid_request", "`messages` must be a non-empty array"};
    if (const auto* stream = r.body.if_contains("stream"); stream != nullptr && !stream->is_null()) {
        if (!stream->is_bool())
            return request_error{"invalid_request", "`stream` must be a boolean"};
        r.stream = stream->get_bool();
    }
    return r;
}

/// Chat Completions dialects (OpenAI-compatible servers, Mistral): the body as is, streaming,
/// and for OpenAI-compatible servers with the usage chunk asked for.
inline json::object to_chat_completions(json::object body, bool include_usage)
{
    body["stream"] = true;
    if (include_usage) {
        auto& so = body["stream_options"];
        if (!so.is_object())
            so = json::object{};
        so.get_object()["include_usage"] = true;
    } else {
        body.erase("stream_options");
    }
    return body;
}

namespace detail {

/// OpenAI content: a string, or parts of which the text ones are joined and the data-URL
/// images go to Ollama's `images` (base64 without the prefix).
inline void put_ollama_content(const json::value& content, json::object& out)
{
    if (content.is_string()) {
        out["content"] = content.get_string();
        return;
    }
    std::string text;
    json::array images;
    if (const auto* parts = content.if_array()) {
        for (const auto& p : *parts) {
            const auto* part = p.if_object();
            if (part == nullptr)
                continue;
            if (const auto* t = part->if_contains("text"); t != nullptr && t->is_string())
                text.append(t->get_string());
            const auto* image = part->if_contains("image_url");
            const auto* url = image != nullptr && image->is_object() ? image->get_object().if_contains("url")
                                                                     : nullptr;
            if (url != nullptr && url->is_string()) {
                const std::string_view u = url->get_string();
                const auto comma = u.find(";base64,");
                if (u.starts_with("data:") && comma != std::string_view::npos)
                    images.emplace_back(u.substr(comma + 8));
            }
        }
    }
    out["content"] = text;
    if (!images.empty())
        out["images"] = std::move(images);
}

/// OpenAI `function.arguments` is JSON text; Ollama wants the object.
inline json::value ollama_arguments(const json::value* arguments)
{
    if (arguments == nullptr || arguments->is_null())
        return json::object{};
    if (!arguments->is_string())
        return *arguments;
    boost::system::error_code ec;
    auto parsed = json::parse(arguments->get_string(), ec);
    if (ec || !parsed.is_object())
        return json::object{};
    return parsed;
}

} // namespace detail

/// Ollama `/api/chat`: messages (content parts, images, assistant calls with object arguments,
/// tool results named by the call they answer), tools as they are, sampling in `options`,
/// `response_format` as `format`, and streaming.
inline json::object to_ollama_chat(const json::object& body)
{
    json::object out;
    if (const auto* model = body.if_contains("model"))
        out["model"] = *model;
    std::unordered_map<std::string, std::string> call_names;   // tool_call_id -> function name
    json::array messages;
    for (const auto& m : body.at("messages").get_array()) {
        const auto* in = m.if_object();
        if (in == nullptr)
            continue;
        json::object msg;
        const auto* role = in->if_contains("role");
        msg["role"] = role != nullptr && role->is_string() ? role->get_string() : json::string("user");
        if (const auto* content = in->if_contains("content"); content != nullptr && !content->is_null())
            detail::put_ollama_content(*content, msg);
        else
            msg["content"] = "";
        if (const auto* r = in->if_contains("reasoning_content"); r != nullptr && r->is_string())
            msg["thinking"] = *r;
        if (const auto* calls = in->if_contains("tool_calls"); calls != nullptr && calls->is_array()) {
            json::array out_calls;
            for (const auto& c : calls->get_array()) {
                const auto* call = c.if_object();
                const auto* fn = call != nullptr ? call->if_contains("function") : nullptr;
                if (fn == nullptr || !fn->is_object())
                    continue;
                const auto* name = fn->get_object().if_contains("name");
                const auto* id = call->if_contains("id");
                if (name != nullptr && name->is_string() && id != nullptr && id->is_string())
                    call_names[std::string(id->get_string())] = std::string(name->get_string());
                json::object function{{"name", name != nullptr ? *name : json::value("")},
                                      {"arguments", detail::ollama_arguments(fn->get_object().if_contains("arguments"))}};
                out_calls.push_back(json::object{{"function", std::move(function)}});
            }
            msg["tool_calls"] = std::move(out_calls);
        }
        if (const auto* id = in->if_contains("tool_call_id"); id != nullptr && id->is_string()) {
            if (auto it = call_names.find(std::string(id->get_string())); it != call_names.end())
                msg["tool_name"] = it->second;
        }
        messages.push_back(std::move(msg));
    }
    out["messages"] = std::move(messages);
    if (const auto* tools = body.if_contains("tools"))
        out["tools"] = *tools;

    json::object opts;
    const auto copy = [&](std::string_view from, std::string_view to) {
        if (const auto* v = body.if_contains(from); v != nullptr && !v->is_null())
            opts[to] = *v;
    };
    copy("temperature", "temperature");
    copy("top_p", "top_p");
    copy("top_k", "top_k");
    copy("seed", "seed");
    copy("presence_penalty", "presence_penalty");
    copy("frequency_penalty", "frequency_penalty");
    copy("max_tokens", "num_predict");
    copy("max_completion_tokens", "num_predict");
    if (const auto* stop = body.if_contains("stop"); stop != nullptr && !stop->is_null())
        opts["stop"] = stop->is_string() ? json::value(json::array{*stop}) : *stop;
    if (!opts.empty())
        out["options"] = std::move(opts);

    if (const auto* rf = body.if_contains("response_format"); rf != nullptr && rf->is_object()) {
        const auto& f = rf->get_object();
        const auto* type = f.if_contains("type");
        const auto* schema = f.if_contains("json_schema");
        if (type != nullptr && type->is_string() && type->get_string() == "json_object")
            out["format"] = "json";
        else if (schema != nullptr && schema->is_object() && schema->get_object().contains("schema"))
            out["format"] = schema->get_object().at("schema");
    }
    if (const auto* think = body.if_contains("think"))
        out["think"] = *think;
    if (const auto* keep_alive = body.if_contains("keep_alive"))
        out["keep_alive"] = *keep_alive;
    out["stream"] = true;
    return out;
}

/// The upstream request body for `provider` (one the options accepted).
inline std::string upstream_body(const chat_request& r, std::string_view provider)
{
    if (provider == "ollama")
        return json::serialize(to_ollama_chat(r.body));
    return json::serialize(to_chat_completions(r.body, provider == "openai_chat"));
}

} // namespace gateway
