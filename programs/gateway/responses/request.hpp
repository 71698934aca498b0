// An OpenAI Responses request (POST /v1/responses: Codex CLI, the OpenAI Agents SDK, openai-node's
// `responses`) as an OpenAI Chat Completions request body, which the gateway then sends on as it
// sends a Chat client's. The gateway keeps no state: the whole conversation comes in `input`.
#pragma once

#include "../chat_request.hpp"
#include "../request_checks.hpp"
#include "tools.hpp"

#include <boost/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace gateway::responses {

struct translated_request {
    json::object body;                        // an OpenAI Chat Completions request body
    client_tool_table tools;                        // to map the model's calls back to the client's tools
    std::vector<std::string> dropped_tools;   // the types of the hosted tools left out, for a log line
};

namespace detail {

using namespace gateway::checks;

/// Text parts are joined with a newline, as vLLM joins them: one string is the content every
/// upstream reads.
inline void append_text(std::string& text, std::string_view part)
{
    if (!text.empty())
        text += '\n';
    text.append(part);
}

/// An `input_image` part as a Chat `image_url` one. Chat's `detail` knows low, high and auto; any
/// other (`original`) is left to the upstream's default.
inline json::object image_part(const json::object& part, const std::string& path)
{
    const auto url = optional_string(part, "image_url", path);
    if (url.empty())
        refuse(member(part, "file_id").is_null()
                   ? "`" + at(path, "image_url") + "` must be a URL or a data URL"
                   : "`" + path + "` is an `input_image` by `file_id`: the gateway has no file store, so send the image as `image_url` (a URL or a data URL)");
    json::object image{{"url", url}};
    if (const auto detail = optional_string(part, "detail", path); detail == "low" || detail == "high" || detail == "auto")
        image["detail"] = detail;
    return {{"type", "image_url"}, {"image_url", std::move(image)}};
}

/// Content parts the gateway cannot send: files and audio need a store or a modality open-model
/// upstreams do not have.
[[noreturn]] inline void refuse_part(std::string_view type, const std::string& path)
{
    if (type == "input_file" || type == "input_audio")
        refuse("`" + path + "` is an `" + std::string(type) + "` part: the gateway has no file store and sends text and images only");
    refuse("`" + at(path, "type") + "`: `" + std::string(type) + "` is not a content part the gateway knows");
}

/// A message's content: a string, or parts. Text alone becomes one string; with images, Chat parts.
/// An assistant's content is text alone: Chat has no images there.
inline json::value message_content(const json::value& content, const std::string& path, bool assistant)
{
    if (content.is_string())
        return content;
    if (!content.is_array())
        refuse("`" + path + "` must be a string or an array of content parts");
    json::array parts;
    std::string text;
    bool images = false;
    for (std::size_t i = 0; i < content.get_array().size(); ++i) {
        const auto part_path = at(path, i);
        const auto& part = object_at(content.get_array()[i], part_path);
        const auto type = required_string(part, "type", part_path);
        std::string_view t;
        if (type == "input_text" || type == "output_text") {
            t = required_string(part, "text", part_path);
        } else if (type == "refusal") {
            t = required_string(part, "refusal", part_path);
        } else if (type == "input_image" && !assistant) {
            parts.push_back(image_part(part, part_path));
            images = true;
            continue;
        } else {
            refuse_part(type, part_path);
        }
        append_text(text, t);
        parts.push_back(json::object{{"type", "text"}, {"text", t}});
    }
    return images ? json::value(std::move(parts)) : json::value(std::move(text));
}

/// The texts of a reasoning item's `content` or `summary` parts.
inline std::string reasoning_text(const json::object& item, std::string_view key, const std::string& path, std::string_view separator)
{
    std::string text;
    const auto* parts = optional_array(item, key, path);
    for (std::size_t i = 0; parts != nullptr && i < parts->size(); ++i) {
        const auto part_path = at(at(path, key), i);
        const auto t = required_string(object_at((*parts)[i], part_path), "text", part_path);
        if (!text.empty() && !t.empty())
            text.append(separator);
        text.append(t);
    }
    return text;
}

/// The Chat `messages` of the `input` items, built in order.
///
/// - Calls (`function_call`, `custom_tool_call`) join the assistant message just before them, an
///   assistant message item's or the previous call's, so that one model turn is one message.
/// - A reasoning item becomes `reasoning_content` of the assistant message that follows it (the
///   content texts, else the summaries; `encrypted_content` is OpenAI's own and left out). With no
///   assistant message or call right after it, it is dropped.
/// - A tool message holds text only, and the tool messages of one turn must follow it unbroken, so
///   the images of tool outputs go to one user message after the run of outputs, each call's
///   images after a line naming it.
class history {
public:
    explicit history(json::array& messages) : messages_(messages) {}

    void item(const json::value& v, const std::string& path)
    {
        const auto& item = object_at(v, path);
        std::string_view type = optional_string(item, "type", path);
        if (type.empty())
            type = !member(item, "role").is_null() ? "message" : !member(item, "id").is_null() ? "item_reference" : "";
        const bool output = type == "function_call_output" || type == "custom_tool_call_output";
        if (!output && type != "reasoning")
            flush_images();
        if (type == "message")
            message(item, path);
        else if (type == "function_call" || type == "custom_tool_call")
            call(item, path, type == "custom_tool_call");
        else if (output)
            tool_output(item, path);
        else if (type == "reasoning")
            reasoning(item, path);
        else if (type == "item_reference")
            refuse("`" + path + "` is an `item_reference`: the gateway keeps no items, so send the whole history in `input`");
        else if (type.empty())
            refuse("`" + at(path, "type") + "` must be a string");
        else
            refuse("`" + path + "` is a `" + std::string(type) + "` item, which the gateway cannot send to a Chat Completions upstream");
    }

    void finish() { flush_images(); }

private:
    void message(const json::object& item, const std::string& path)
    {
        const auto role = required_string(item, "role", path);
        const bool assistant = role == "assistant";
        if (!assistant && role != "user" && role != "system" && role != "developer")
            refuse("`" + at(path, "role") + "` must be `user`, `assistant`, `system` or `developer`");
        // `developer` is `system` to Chat upstreams, not all of which know the newer role.
        json::object m{{"role", assistant ? "assistant" : role == "user" ? "user" : "system"},
                       {"content", message_content(member(item, "content"), at(path, "content"), assistant)}};
        if (assistant)
            take_reasoning(m);
        else
            reasoning_.clear();
        messages_.push_back(std::move(m));
        open_ = assistant;
    }

    void call(const json::object& item, const std::string& path, bool custom)
    {
        const auto call_id = required_string(item, "call_id", path);
        const auto name = chat_name(optional_string(item, "namespace", path), required_string(item, "name", path));
        // A custom tool is a function of one string, `input` (tools.hpp).
        const std::string arguments = custom ? json::serialize(json::object{{"input", required_string(item, "input", path)}})
                                             : std::string(required_string(item, "arguments", path));
        if (!open_)
            messages_.push_back(json::object{{"role", "assistant"}, {"content", nullptr}});
        open_ = true;
        auto& m = messages_.back().as_object();
        take_reasoning(m);
        if (!m.contains("tool_calls"))
            m["tool_calls"] = json::array{};
        json::object function{{"name", name}, {"arguments", arguments}};
        m["tool_calls"].as_array().push_back(json::object{{"id", call_id}, {"type", "function"}, {"function", std::move(function)}});
    }

    void tool_output(const json::object& item, const std::string& path)
    {
        const auto call_id = required_string(item, "call_id", path);
        const auto& output = member(item, "output");
        const auto output_path = at(path, "output");
        std::string text;
        json::array images;
        if (output.is_string()) {
            text = output.get_string();
        } else if (const auto* parts = output.if_array()) {
            for (std::size_t i = 0; i < parts->size(); ++i) {
                const auto part_path = at(output_path, i);
                const auto& part = object_at((*parts)[i], part_path);
                const auto type = required_string(part, "type", part_path);
                if (type == "input_text" || type == "output_text")
                    append_text(text, required_string(part, "text", part_path));
                else if (type == "input_image")
                    images.push_back(image_part(part, part_path));
                else
                    refuse_part(type, part_path);
            }
        } else {
            refuse("`" + output_path + "` must be a string or an array of content parts");
        }
        if (!images.empty()) {
            images_.push_back(json::object{{"type", "text"}, {"text", "The images in the result of call " + std::string(call_id) + ":"}});
            for (auto& image : images)
                images_.push_back(std::move(image));
            if (text.empty())
                text = "The result is the images in the next user message.";
        }
        messages_.push_back(json::object{{"role", "tool"}, {"tool_call_id", call_id}, {"content", text}});
        open_ = false;
        reasoning_.clear();
    }

    void reasoning(const json::object& item, const std::string& path)
    {
        std::string text = reasoning_text(item, "content", path, "\n");
        if (text.empty())
            text = reasoning_text(item, "summary", path, "\n\n");
        if (!reasoning_.empty() && !text.empty())
            reasoning_ += "\n\n";
        reasoning_ += text;
    }

    void take_reasoning(json::object& m)
    {
        if (reasoning_.empty())
            return;
        if (const auto* before = m.if_contains("reasoning_content"); before != nullptr && before->is_string())
            reasoning_.insert(0, std::string(before->get_string()) + "\n\n");
        m["reasoning_content"] = reasoning_;
        reasoning_.clear();
    }

    void flush_images()
    {
        if (images_.empty())
            return;
        messages_.push_back(json::object{{"role", "user"}, {"content", std::move(images_)}});
        images_ = {};
        open_ = false;
    }

    json::array& messages_;
    std::string reasoning_;   // from reasoning items, for the next assistant message
    json::array images_;      // from tool outputs, for a user message after them
    bool open_ = false;       // the last message is an assistant one that a call may join
};

/// Copies the number `from` of `in` to `to` of `out`, if there is one.
inline void copy_number(const json::object& in, std::string_view from, json::object& out, std::string_view to)
{
    const auto& v = member(in, from);
    if (v.is_number())
        out[to] = v;
    else if (!v.is_null())
        refuse("`" + std::string(from) + "` must be a number");
}

/// `text.format` as a Chat `response_format`, or null for plain text.
inline json::value response_format(const json::object& request)
{
    const auto& text = member(request, "text");
    const auto& format = text.is_null() ? text : member(object_at(text, "text"), "format");
    if (format.is_null())
        return nullptr;
    const auto& f = object_at(format, "text.format");
    const auto type = required_string(f, "type", "text.format");
    if (type == "json_object")
        return json::object{{"type", "json_object"}};
    if (type == "text")
        return nullptr;
    if (type != "json_schema")
        refuse("`text.format.type` must be `text`, `json_schema` or `json_object`");
    json::object schema{{"name", required_string(f, "name", "text.format")}};
    if (const auto description = optional_string(f, "description", "text.format"); !description.empty())
        schema["description"] = description;
    if (!member(f, "schema").is_object())
        refuse("`text.format.schema` must be an object (a JSON schema)");
    schema["schema"] = member(f, "schema");
    if (const auto& strict = member(f, "strict"); strict.is_bool())
        schema["strict"] = strict;
    else if (!strict.is_null())
        refuse("`text.format.strict` must be a boolean");
    return json::object{{"type", "json_schema"}, {"json_schema", std::move(schema)}};
}

inline translated_request translate(const json::object& request)
{
    const auto stateless = " the gateway keeps no state, so send the whole history in `input`";
    if (!member(request, "previous_response_id").is_null())
        refuse(std::string("`previous_response_id` is not supported:") + stateless);
    if (!member(request, "conversation").is_null())
        refuse(std::string("`conversation` is not supported:") + stateless);
    if (const auto& background = member(request, "background"); background.is_bool() && background.get_bool())
        refuse(std::string("`background: true` is not supported:") + stateless + ", and wait for the answer");
    else if (!background.is_null() && !background.is_bool())
        refuse("`background` must be a boolean");

    translated_request out;
    auto& body = out.body;
    if (const auto model = optional_string(request, "model", ""); !model.empty())
        body["model"] = model;

    json::array messages;
    if (const auto instructions = optional_string(request, "instructions", ""); !instructions.empty())
        messages.push_back(json::object{{"role", "system"}, {"content", instructions}});
    if (const auto& input = member(request, "input"); input.is_string()) {
        messages.push_back(json::object{{"role", "user"}, {"content", input}});
    } else if (const auto* items = input.if_array()) {
        history h(messages);
        for (std::size_t i = 0; i < items->size(); ++i)
            h.item((*items)[i], at("input", i));
        h.finish();
    } else if (!input.is_null()) {
        refuse("`input` must be a string or an array of items");
    }
    if (messages.empty())
        refuse("`input` must hold at least one message");
    body["messages"] = std::move(messages);

    copy_number(request, "max_output_tokens", body, "max_tokens");
    copy_number(request, "temperature", body, "temperature");
    copy_number(request, "top_p", body, "top_p");
    if (const auto& stream = member(request, "stream"); stream.is_bool())
        body["stream"] = stream;
    else if (!stream.is_null())
        refuse("`stream` must be a boolean");
    if (const auto& reasoning = member(request, "reasoning"); !reasoning.is_null())
        if (const auto effort = optional_string(object_at(reasoning, "reasoning"), "effort", "reasoning"); !effort.empty())
            body["reasoning_effort"] = effort;
    if (auto format = response_format(request); !format.is_null())
        body["response_format"] = std::move(format);

    auto tools = to_chat_tools(member(request, "tools"));
    const auto choice = to_chat_tool_choice(member(request, "tool_choice"), tools.table);
    const auto& parallel = member(request, "parallel_tool_calls");
    if (!parallel.is_null() && !parallel.is_bool())
        refuse("`parallel_tool_calls` must be a boolean");
    // With no tools left, Chat refuses `tool_choice` and `parallel_tool_calls`: they go too.
    if (!tools.tools.empty()) {
        body["tools"] = std::move(tools.tools);
        if (!choice.is_null())
            body["tool_choice"] = choice;
        if (parallel.is_bool())
            body["parallel_tool_calls"] = parallel;
    }
    out.tools = std::move(tools.table);
    out.dropped_tools = std::move(tools.dropped);
    return out;
}

} // namespace detail

/// The Chat Completions request for a Responses one, or why it is refused (`invalid_request`).
/// Members with no Chat meaning for a stateless gateway (`store`, `include`, `metadata`,
/// `prompt_cache_key`, `client_metadata`, `service_tier`, `truncation`, `user`, `text.verbosity`,
/// `reasoning.summary`, …) are accepted and left out; what needs stored state is refused.
inline std::variant<translated_request, request_error> to_chat_body(const json::object& responses_request)
{
    return checks::translated_or_refused([&] { return detail::translate(responses_request); });
}

} // namespace gateway::responses
