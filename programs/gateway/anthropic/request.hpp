// An Anthropic Messages request (POST /v1/messages) as an OpenAI Chat Completions request body,
// which the gateway then sends upstream as it sends its own Chat clients' (chat_request.hpp, upstream_request.hpp).
#pragma once

#include "../chat_request.hpp"
#include "../request_checks.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gateway::anthropic {

namespace json = boost::json;

struct translated_request {
    json::object body;                        // an OpenAI Chat Completions request body
    std::vector<std::string> dropped_tools;   // tools left out (Anthropic server tools), for a log line
};

/// What the content of an `is_error: true` tool result starts with (unless it already does): Chat
/// has no such flag, and the model still has to learn that the call failed.
inline constexpr std::string_view tool_error_marker = "Error: ";

/// estimate_input_tokens: what one image counts, its size unread (about what a one-megapixel image
/// costs Claude, width × height / 750), and what each message adds for its role and delimiters.
inline constexpr std::uint64_t image_tokens = 1600, message_tokens = 4;

namespace detail {

using namespace gateway::checks;

/// Calls `f(block, type, path)` for each block of `content`, an array of typed objects at `at`.
template <class F>
void for_each_block(const json::value& content, const std::string& where, F&& f)
{
    if (!content.is_array())
        refuse(backticked(where) + " must be a string or an array of content blocks");
    for (std::size_t k = 0; k < content.get_array().size(); ++k) {
        const std::string path = at(where, k);
        const auto& block = object_at(content.get_array()[k], path);
        f(block, required_string(block, "type", path), path);
    }
}

/// A block refused `where` it is: misplaced (a tool_use from the user), or one the gateway cannot
/// translate at all (server tool calls and results, container uploads, search results, …).
[[noreturn]] inline void refuse_block(std::string_view type, std::string_view where, const std::string& path)
{
    refuse(backticked(path) + " is a `" + std::string(type) + "` block, which the gateway cannot translate in " + std::string(where));
}

/// Appends `text` to `to` after `separator`: empty texts add no stray separator.
inline void append(std::string& to, std::string_view text, std::string_view separator)
{
    if (!text.empty())
        to.append(to.empty() ? std::string_view{} : separator).append(text);
}

/// An image block's URL: a data URL for base64 data, or the URL it names. A file id would need
/// Anthropic's Files API: refused.
inline std::string image_url(const json::object& block, const std::string& path)
{
    const std::string where = at(path, "source");
    const auto& source = object_at(member(block, "source"), where);
    const auto type = required_string(source, "type", where);
    if (type == "base64")
        return "data:" + std::string(required_string(source, "media_type", where)) + ";base64," +
               std::string(required_string(source, "data", where));
    if (type != "url")
        refuse(backticked(where) + " is a `" + std::string(type) + "` image source, which the gateway cannot translate (only `base64` and `url`)");
    return std::string(required_string(source, "url", where));
}

/// A text document's text, after its title and a blank line if it has one. PDFs and files would
/// need a reader the upstream may not have: refused.
inline std::string document_text(const json::object& block, const std::string& path)
{
    const std::string where = at(path, "source");
    const auto& source = object_at(member(block, "source"), where);
    if (const auto type = required_string(source, "type", where); type != "text")
        refuse(backticked(path) + " is a document with a `" + std::string(type) + "` source, which the gateway cannot translate (only `text`)");
    std::string text(optional_string(block, "title", path));
    append(text, required_string(source, "data", where), "\n\n");
    return text;
}

/// User or system content on its way out, as OpenAI parts: one string (texts joined by a blank
/// line) while it is all text, the parts once it holds an image.
struct parts {
    json::array list;
    bool image = false;
    void text(std::string_view t) { list.push_back(json::object{{"type", "text"}, {"text", t}}); }
    void image_url(std::string url)
    {
        list.push_back(json::object{{"type", "image_url"}, {"image_url", json::object{{"url", url}}}});
        image = true;
    }
    json::value content() const
    {
        if (image)
            return list;
        std::string joined;
        for (const auto& p : list)
            append(joined, p.at("text").get_string(), "\n\n");
        return json::string(joined);
    }
};

/// A `tool_result` block as a `tool` message: its texts joined by a newline, `is_error` as
/// tool_error_marker. A tool message holds no image: a result's images go to `next`, the user
/// message that follows the tool messages, and the tool message ends with a line saying so.
inline json::object tool_message(const json::object& block, const std::string& path, parts& next)
{
    std::string text;
    const auto before = next.list.size();
    if (const auto& content = member(block, "content"); content.is_string())
        text = content.get_string();
    else if (!content.is_null())
        for_each_block(content, at(path, "content"), [&](const json::object& b, std::string_view type, const std::string& p) {
            if (type == "text")
                append(text, required_string(b, "text", p), "\n");
            else if (type == "document")
                append(text, document_text(b, p), "\n");
            else if (type == "image")
                next.image_url(image_url(b, p));
            else
                refuse_block(type, "a tool result", p);
        });
    if (const auto images = next.list.size() - before; images > 0)
        append(text, "(" + std::to_string(images) + (images == 1 ? " image" : " images") + " of this result: in the next user message)", "\n");
    const auto& is_error = member(block, "is_error");
    if (!is_error.is_null() && !is_error.is_bool())
        refuse(backticked(at(path, "is_error")) + " must be a boolean");
    if (is_error.is_bool() && is_error.get_bool() && !text.starts_with(tool_error_marker))
        text.insert(0, tool_error_marker);
    return {{"role", "tool"}, {"tool_call_id", required_string(block, "tool_use_id", path)}, {"content", text}};
}

/// An assistant turn: texts joined by a blank line, thinking as `reasoning_content` (signatures,
/// and redacted thinking, are for Anthropic's models only: left out), tool_use as tool_calls.
inline json::object assistant_message(const json::value& content, const std::string& where)
{
    std::string text, reasoning;
    json::array calls;
    for_each_block(content, where, [&](const json::object& b, std::string_view type, const std::string& p) {
        if (type == "text") {
            append(text, required_string(b, "text", p), "\n\n");
        } else if (type == "thinking") {
            append(reasoning, required_string(b, "thinking", p), "\n\n");
        } else if (type == "tool_use") {
            const auto& input = member(b, "input");
            const auto arguments = input.is_null() ? "{}" : json::serialize(object_at(input, at(p, "input")));
            json::object function{{"name", required_string(b, "name", p)}, {"arguments", arguments}};
            calls.push_back(json::object{{"id", required_string(b, "id", p)}, {"type", "function"}, {"function", std::move(function)}});
        } else if (type != "redacted_thinking") {
            refuse_block(type, "an assistant message", p);
        }
    });
    json::object msg{{"role", "assistant"}, {"content", nullptr}};
    if (!text.empty() || calls.empty())
        msg["content"] = text;
    if (!reasoning.empty())
        msg["reasoning_content"] = reasoning;
    if (!calls.empty())
        msg["tool_calls"] = std::move(calls);
    return msg;
}

/// The blocks of a user or system message as Chat content, in their order, with the images of
/// its tool results where those were; the tool results themselves go to `out` as `tool` messages.
inline json::value user_content(const json::value& content, std::string_view role, const std::string& where, json::array& out)
{
    parts c;
    for_each_block(content, where, [&](const json::object& b, std::string_view type, const std::string& p) {
        if (type == "text")
            c.text(required_string(b, "text", p));
        else if (role == "user" && type == "image")
            c.image_url(image_url(b, p));
        else if (role == "user" && type == "document")
            c.text(document_text(b, p));
        else if (role == "user" && type == "tool_result")
            out.push_back(tool_message(b, p, c));
        else
            refuse_block(type, "a " + std::string(role) + " message", p);
    });
    return c.content();
}

/// One Anthropic message as Chat messages. A user message's tool results come first, as `tool`
/// messages (Chat wants them right after the assistant's calls), then a user message with the rest.
inline void put_message(const json::value& v, const std::string& path, json::array& out)
{
    const auto& m = object_at(v, path);
    const auto role = required_string(m, "role", path);
    if (role != "user" && role != "assistant" && role != "system")
        refuse(backticked(at(path, "role")) + " is `" + std::string(role) + "`: it must be `user`, `assistant` or `system`");
    const auto& content = member(m, "content");
    if (content.is_string()) {
        out.push_back(json::object{{"role", role}, {"content", content}});
    } else if (role == "assistant") {
        out.push_back(assistant_message(content, at(path, "content")));
    } else {
        const auto before = out.size();
        auto c = user_content(content, role, at(path, "content"), out);
        if (out.size() == before || c != json::string())
            out.push_back(json::object{{"role", role}, {"content", std::move(c)}});
    }
}

/// Copies `from` as `to` if it is there, refused unless `ok` (it `must` be …). JSON has no
/// infinity: a number read as one (`1e400`) is refused, not sent as something else.
template <class Check>
void copy_member(const json::object& in, std::string_view from, std::string_view to, std::string_view must, Check ok, json::object& out)
{
    const auto& v = member(in, from);
    if (v.is_null())
        return;
    if (!ok(v))
        refuse(backticked(from) + " must be " + std::string(must));
    if (v.is_double() && !std::isfinite(v.get_double()))
        refuse(backticked(from) + " is out of range: a number JSON can hold is finite");
    out[to] = v;
}

/// Client tools as functions. Anthropic-defined ones (any `type` but `custom`) run on Anthropic's
/// side or expect a model trained on them: left out, their names (or types) in `dropped`.
inline json::array tools(const json::object& request, std::vector<std::string>& dropped)
{
    json::array out;
    const auto* list = optional_array(request, "tools", "");
    for (std::size_t k = 0; list != nullptr && k < list->size(); ++k) {
        const std::string p = at("tools", k);
        const auto& t = object_at((*list)[k], p);
        if (const auto type = optional_string(t, "type", p); !type.empty() && type != "custom") {
            const auto name = optional_string(t, "name", p);
            dropped.emplace_back(name.empty() ? type : name);
            continue;
        }
        json::object function{{"name", required_string(t, "name", p)}};
        if (const auto description = optional_string(t, "description", p); !description.empty())
            function["description"] = description;
        function["parameters"] = object_at(member(t, "input_schema"), at(p, "input_schema"));
        out.push_back(json::object{{"type", "function"}, {"function", std::move(function)}});
    }
    return out;
}

/// `tool_choice` as Chat's, `disable_parallel_tool_use` as `parallel_tool_calls: false`. Chat
/// refuses a choice without tools: with none sent (all dropped), neither is sent.
inline void put_tool_choice(const json::value& v, const json::array& tools, json::object& out)
{
    const auto& choice = object_at(v, "tool_choice");
    const auto type = required_string(choice, "type", "tool_choice");
    json::value chat(type == "any" ? std::string_view("required") : type);
    if (type == "tool") {
        const auto name = required_string(choice, "name", "tool_choice");
        const auto named = [&](const json::value& t) { return t.at("function").at("name").get_string() == name; };
        if (std::none_of(tools.begin(), tools.end(), named))
            refuse("`tool_choice.name` is `" + std::string(name) + "`, which is not one of the `tools` the gateway sends upstream");
        chat = json::object{{"type", "function"}, {"function", json::object{{"name", name}}}};
    } else if (type != "auto" && type != "any" && type != "none") {
        refuse("`tool_choice.type` is `" + std::string(type) + "`: it must be `auto`, `any`, `tool` or `none`");
    }
    const auto& serial = member(choice, "disable_parallel_tool_use");
    if (!serial.is_null() && !serial.is_bool())
        refuse("`tool_choice.disable_parallel_tool_use` must be a boolean");
    if (!tools.empty())
        out["tool_choice"] = std::move(chat);
    if (!tools.empty() && serial.is_bool() && serial.get_bool() && type != "none")
        out["parallel_tool_calls"] = false;
}

/// The bytes estimate_input_tokens counts in `v`: its strings but those the model never reads as
/// text (roles, types, ids, signatures, media types, cache and citation details), `input` and
/// `input_schema` as JSON text; an image counts in `images` instead; redacted thinking is not sent.
inline std::uint64_t text_bytes(const json::value& v, std::uint64_t& images)
{
    static constexpr std::string_view unread[] = {"role", "type", "id", "tool_use_id", "signature", "media_type",
                                                  "cache_control", "citations", "is_error"};
    if (const auto* s = v.if_string())
        return s->size();
    std::uint64_t bytes = 0;
    if (const auto* a = v.if_array())
        for (const auto& e : *a)
            bytes += text_bytes(e, images);
    if (const auto* o = v.if_object()) {
        const auto* type = o->if_contains("type");
        images += type != nullptr && *type == "image";
        if (type != nullptr && (*type == "image" || *type == "redacted_thinking"))
            return 0;
        for (const auto& [key, value] : *o)
            if (key == "input" || key == "input_schema")
                bytes += json::serialize(value).size();
            else if (std::find(std::begin(unread), std::end(unread), key) == std::end(unread))
                bytes += text_bytes(value, images);
    }
    return bytes;
}

/// The walk of to_chat_body, which throws a refusal where it finds one.
inline translated_request translate(const json::object& in)
{
    translated_request r;
    auto& body = r.body;
    const auto integer = [](const json::value& v) { return v.is_int64() || v.is_uint64(); };
    const auto number = [](const json::value& v) { return v.is_number(); };
    copy_member(in, "model", "model", "a string", [](const json::value& v) { return v.is_string(); }, body);
    const auto& messages = member(in, "messages");
    if (!messages.is_array() || messages.get_array().empty())
        refuse("`messages` must be a non-empty array");
    json::array out;
    if (const auto& system = member(in, "system"); !system.is_null()) {
        auto text = system.is_string() ? system : user_content(system, "system", "system", out);
        if (text != json::string())
            out.push_back(json::object{{"role", "system"}, {"content", std::move(text)}});
    }
    for (std::size_t i = 0; i < messages.get_array().size(); ++i)
        put_message(messages.get_array()[i], at("messages", i), out);
    body["messages"] = std::move(out);
    copy_member(in, "max_tokens", "max_tokens", "an integer", integer, body);
    copy_member(in, "temperature", "temperature", "a number", number, body);
    copy_member(in, "top_p", "top_p", "a number", number, body);
    copy_member(in, "top_k", "top_k", "an integer", integer, body);
    copy_member(in, "stream", "stream", "a boolean", [](const json::value& v) { return v.is_bool(); }, body);
    copy_member(in, "stop_sequences", "stop", "an array of strings", [](const json::value& v) {
        const auto is_string = [](const json::value& s) { return s.is_string(); };
        return v.is_array() && std::all_of(v.get_array().begin(), v.get_array().end(), is_string);
    }, body);
    if (const auto& metadata = member(in, "metadata"); metadata.is_object())
        if (const auto& user = member(metadata.get_object(), "user_id"); user.is_string())
            body["user"] = user;
    json::array sent = tools(in, r.dropped_tools);
    if (const auto& choice = member(in, "tool_choice"); !choice.is_null())
        put_tool_choice(choice, sent, body);
    if (!sent.empty())
        body["tools"] = std::move(sent);
    return r;
}

} // namespace detail

/// The request `in` in Chat's dialect, or why not (`invalid_request`, naming the member). What
/// Chat has no use for (metadata, thinking, context_management, output_config, service_tier,
/// cache_control, citations, …) is ignored, never refused; what it cannot say is refused, never
/// silently dropped, but for the server tools, listed in `dropped_tools`.
inline std::variant<translated_request, request_error> to_chat_body(const json::object& in)
{
    return checks::translated_or_refused([&] { return detail::translate(in); });
}

/// POST /v1/messages/count_tokens: an estimate, since open-model tokenizers are not at hand.
/// ceil(bytes / 4), about what BPE tokenizers make of English and code, where bytes are
/// detail::text_bytes of `system`, `messages` and `tools` (server tools too: a few bytes each);
/// plus message_tokens per message (a system prompt is one) and image_tokens per image.
/// Deterministic, and it refuses nothing: malformed parts count what they hold.
inline std::uint64_t estimate_input_tokens(const json::object& messages_request)
{
    using checks::member;
    std::uint64_t bytes = 0, images = 0, messages = member(messages_request, "system").is_null() ? 0 : 1;
    for (const std::string_view key : {"system", "messages", "tools"})
        bytes += detail::text_bytes(member(messages_request, key), images);
    if (const auto& list = member(messages_request, "messages"); list.is_array())
        messages += list.get_array().size();
    return (bytes + 3) / 4 + messages * message_tokens + images * image_tokens;
}

} // namespace gateway::anthropic
