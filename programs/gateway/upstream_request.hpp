// A Chat Completions request put in the upstream's dialect (upstream_apis.hpp): as the client wrote
// it for Chat Completions servers, translated for Ollama. The upstream is always asked to stream:
// a `stream: false` answer is built from the stream.
#pragma once

#include "chat_request.hpp"
#include "upstream_apis.hpp"

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/json_extent.hpp>
#include <toolstream/detail/json_string_skip.hpp>

#include <boost/json.hpp>

#include <cmath>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace gateway {

/// One member of a JSON object as the client wrote it: its key's text (quotes and escapes
/// included) and its value's.
struct raw_member {
    std::string_view key;
    std::string_view value;
};

/// The members of the object `text`, which is valid JSON (read_chat_request parsed it), each as
/// written: one pass, string and bracket aware (json_extent, string_skip).
inline std::vector<raw_member> raw_members(std::string_view text)
{
    std::vector<raw_member> members;
    std::size_t i = text.find('{') + 1;
    const auto skip_blanks = [&] {
        while (i < text.size() && toolstream::detail::is_blank(text[i]))
            ++i;
    };
    const auto string_end = [&](std::size_t open) {   // one past the quote that closes the string at `open`
        toolstream::detail::string_skip skip(text, text.size());
        return skip.closing_quote(skip.next(open + 1)) + 1;
    };
    for (skip_blanks(); i < text.size() && text[i] == '"'; skip_blanks()) {
        const std::size_t key = i;
        i = string_end(i);
        raw_member m{text.substr(key, i - key), {}};
        skip_blanks();
        ++i;   // the colon
        skip_blanks();
        const std::size_t value = i;
        if (text[i] == '"') {
            i = string_end(i);
        } else if (text[i] == '{' || text[i] == '[') {
            toolstream::detail::json_extent extent;
            i += extent.scan(text.substr(i));
        } else {
            while (i < text.size() && text[i] != ',' && text[i] != '}' && !toolstream::detail::is_blank(text[i]))
                ++i;
        }
        m.value = text.substr(value, i - value);
        members.push_back(m);
        skip_blanks();
        if (i < text.size() && text[i] == ',')
            ++i;
    }
    return members;
}

/// Chat Completions dialects (OpenAI-compatible servers, Mistral): the body as the client wrote
/// it, so that every number keeps its text (`1e400`, a 30-digit `seed`: the upstream judges them),
/// with `stream: true` and, for OpenAI-compatible servers, the usage chunk asked for.
inline std::string chat_completions_body(const chat_request& r, bool include_usage)
{
    std::string out = "{";
    for (const auto& [key, value] : raw_members(r.text)) {
        const auto name = json::parse(key).as_string();   // the key decoded, escapes and all
        if (name == "stream" || name == "stream_options")
            continue;
        out.append(key).append(":").append(value).append(",");
    }
    out += R"("stream":true)";
    if (include_usage) {
        json::object so;
        if (const auto* given = r.body.if_contains("stream_options"); given != nullptr && given->is_object())
            so = given->get_object();
        so["include_usage"] = true;
        out += R"(,"stream_options":)" + json::serialize(so);
    }
    return out + "}";
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

/// Whether `v` holds a number that is not finite (`1e400` read as a double): JSON has no
/// infinity, so such a body could not be sent. `path` gets where it is (`options.temperature`),
/// built only on the way back from the one found.
inline bool non_finite_at(const json::value& v, std::string& path)
{
    if (const auto* d = v.if_double())
        return !std::isfinite(*d);
    if (const auto* o = v.if_object())
        for (const auto& [key, member] : *o)
            if (non_finite_at(member, path)) {
                path.insert(0, std::string(key) + (path.empty() || path.front() == '[' ? "" : "."));
                return true;
            }
    if (const auto* a = v.if_array())
        for (std::size_t k = 0; k < a->size(); ++k)
            if (non_finite_at((*a)[k], path)) {
                path.insert(0, "[" + std::to_string(k) + "]" + (path.empty() || path.front() == '[' ? "" : "."));
                return true;
            }
    return false;
}

/// The upstream request body for `provider` (one the options accepted), or why the request cannot
/// be put in its dialect: a number the translation must read out of range.
inline std::variant<std::string, request_error> upstream_body(const chat_request& r, std::string_view provider)
{
    const auto upstream = upstream_provider_named(provider);
    if (upstream && upstream->api == upstream_api::chat_completions)
        return chat_completions_body(r, upstream->asks_usage);
    const auto out = to_ollama_chat(r.body);
    if (std::string at; non_finite_at(out, at))
        return request_error{"invalid_request", "`" + at + "` is out of range: a number JSON can hold is finite"};
    if (const auto* options = out.if_contains("options"))
        for (const char* integer : {"seed", "top_k", "num_predict"})
            if (const auto* n = options->get_object().if_contains(integer);
                n != nullptr && n->is_double() && std::abs(n->get_double()) >= 0x1p63)
                return request_error{"invalid_request", "`" + std::string(integer == std::string_view("num_predict") ? "max_tokens" : integer) +
                                                            "` is out of range: it must be an integer of at most 64 bits"};
    return json::serialize(out);
}

} // namespace gateway
