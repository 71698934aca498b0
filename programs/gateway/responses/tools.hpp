// The tools of an OpenAI Responses request as Chat Completions functions, and the table that maps
// the model's calls back to the tools the client named. Also the checks both translations share.
#pragma once

#include "../chat_request.hpp"
#include "tool_table.hpp"

#include <boost/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gateway::responses {

namespace json = boost::json;

/// Between a namespace and its tool in a flattened function name (`multi_agent_v1__spawn_agent`).
/// Chat function names allow only `[A-Za-z0-9_-]`, so no dot; two underscores, as MCP clients do.
inline constexpr std::string_view namespace_separator = "__";

/// OpenAI's limit on a function name: a longer flattened name would be refused upstream.
inline constexpr std::size_t max_function_name = 64;

/// The Chat function name of a client's tool.
inline std::string chat_name(std::string_view namespace_name, std::string_view name)
{
    if (namespace_name.empty())
        return std::string(name);
    std::string out(namespace_name);
    out.append(namespace_separator).append(name);
    return out;
}

/// Chat function name → the client's tool (tool_kind, client_tool: tool_table.hpp), for every tool
/// offered, plain functions too, so that a name missing here is one the model made up;
/// `&by_chat_name` is what client_tool_calls reads.
struct tool_table {
    client_tool_table by_chat_name;

    /// The client's tool behind a function the model called, or null.
    const client_tool* find(const std::string& chat_function_name) const
    {
        const auto it = by_chat_name.find(chat_function_name);
        return it != by_chat_name.end() ? &it->second : nullptr;
    }
};

namespace detail {

/// Why the request is refused. The checks throw it and `to_chat_body` catches it, so a check is one
/// line however deep the member sits.
struct refused {
    std::string message;
};

[[noreturn]] inline void refuse(std::string message)
{
    throw refused{std::move(message)};
}

/// Where a member is, for a message: `input[3].content[0].image_url`.
inline std::string at(std::string_view path, std::string_view key)
{
    return path.empty() ? std::string(key) : std::string(path) + "." + std::string(key);
}

inline std::string at(std::string_view path, std::size_t index)
{
    return std::string(path) + "[" + std::to_string(index) + "]";
}

/// `o[key]`, null when absent: the Responses API takes a missing member and a null one alike.
inline const json::value& member(const json::object& o, std::string_view key)
{
    static const json::value none;
    const auto* v = o.if_contains(key);
    return v != nullptr ? *v : none;
}

inline const json::object& object_of(const json::value& v, std::string_view path)
{
    if (!v.is_object())
        refuse("`" + std::string(path) + "` must be an object");
    return v.get_object();
}

/// The string `o[key]`: empty when it is missing or null, unless it is `required`.
inline std::string_view string_at(const json::object& o, std::string_view key, std::string_view path, bool required = false)
{
    const auto& v = member(o, key);
    if (v.is_string())
        return v.get_string();
    if (required || !v.is_null())
        refuse("`" + at(path, key) + "` must be a string");
    return {};
}

/// The array `o[key]`, or null when it is missing or null.
inline const json::array* array_at(const json::object& o, std::string_view key, std::string_view path)
{
    const auto& v = member(o, key);
    if (!v.is_null() && !v.is_array())
        refuse("`" + at(path, key) + "` must be an array");
    return v.if_array();
}

/// A function tool (`{name, description?, parameters?, strict?}`) as a Chat one.
inline json::object chat_function(const json::object& tool, const std::string& name, std::string_view path)
{
    json::object fn{{"name", name}};
    if (const auto description = string_at(tool, "description", path); !description.empty())
        fn["description"] = description;
    const auto& parameters = member(tool, "parameters");
    if (!parameters.is_null() && !parameters.is_object())
        refuse("`" + at(path, "parameters") + "` must be an object (a JSON schema)");
    fn["parameters"] = parameters.is_object() ? parameters : json::object{{"type", "object"}, {"properties", json::object{}}};
    if (const auto& strict = member(tool, "strict"); strict.is_bool())
        fn["strict"] = strict;
    else if (!strict.is_null())
        refuse("`" + at(path, "strict") + "` must be a boolean");
    return {{"type", "function"}, {"function", std::move(fn)}};
}

/// A custom tool (free-form text in, such as Codex's `apply_patch`) as a function of one string,
/// `input`. Chat cannot hold the model to a grammar, so the grammar goes into the description: the
/// model then knows the format, and the client still checks it.
inline json::object chat_custom(const json::object& tool, const std::string& name, std::string_view path)
{
    std::string description(string_at(tool, "description", path));
    std::string input_description = "The tool's input, as free-form text.";
    if (const auto& format = member(tool, "format"); !format.is_null()) {
        const auto format_path = at(path, "format");
        const auto& f = object_of(format, format_path);
        const auto type = string_at(f, "type", format_path, true);
        if (type == "grammar") {
            const auto syntax = string_at(f, "syntax", format_path, true);
            const auto definition = string_at(f, "definition", format_path, true);
            description += (description.empty() ? "" : "\n\n") + std::string("The input must follow this ") +
                           std::string(syntax) + " grammar:\n" + std::string(definition);
            input_description = "The tool's input, as text in the " + std::string(syntax) + " grammar of the tool's description.";
        } else if (type != "text") {
            refuse("`" + at(format_path, "type") + "` must be `text` or `grammar`");
        }
    }
    json::object input{{"type", "string"}, {"description", input_description}};
    json::object parameters{{"type", "object"}, {"properties", json::object{{"input", std::move(input)}}}, {"required", json::array{"input"}}};
    json::object fn{{"name", name}};
    if (!description.empty())
        fn["description"] = description;
    fn["parameters"] = std::move(parameters);
    return {{"type", "function"}, {"function", std::move(fn)}};
}

/// The Chat side of the Responses `tools`.
struct chat_tools {
    json::array tools;
    tool_table table;
    std::vector<std::string> dropped;   // the types of the hosted tools left out
};

/// Function and custom tools become functions; a namespace's tools are flattened to
/// `<namespace>__<name>` (its own description is left out: Chat has no place for it). Hosted tools
/// (web_search, file_search, mcp, …) run on OpenAI's side, which an open-model upstream has no
/// equivalent of: they are left out, never refused, since clients such as Codex always send one.
inline chat_tools to_chat_tools(const json::value& tools)
{
    chat_tools out;
    if (tools.is_null())
        return out;
    if (!tools.is_array())
        refuse("`tools` must be an array");
    const auto add = [&](const json::object& tool, std::string_view namespace_name, const std::string& path) {
        const auto name = string_at(tool, "name", path, true);
        if (name.empty())
            refuse("`" + at(path, "name") + "` must not be empty");
        const auto chat = chat_name(namespace_name, name);
        if (!namespace_name.empty() && chat.size() > max_function_name)
            refuse("`" + at(path, "name") + "`: the flattened function name `" + chat + "` is longer than " +
                   std::to_string(max_function_name) + " characters, OpenAI's limit");
        const auto kind = string_at(tool, "type", path, true) == "custom" ? tool_kind::custom : tool_kind::function;
        if (!out.table.by_chat_name.emplace(chat, client_tool{kind, std::string(name), std::string(namespace_name)}).second)
            refuse("`" + at(path, "name") + "`: two tools would have the function name `" + chat +
                   "` (a namespace's tools are named `<namespace>__<name>`)");
        out.tools.push_back(kind == tool_kind::custom ? chat_custom(tool, chat, path) : chat_function(tool, chat, path));
    };
    const auto& list = tools.get_array();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto path = at("tools", i);
        const auto& tool = object_of(list[i], path);
        const auto type = string_at(tool, "type", path, true);
        if (type == "function" || type == "custom") {
            add(tool, {}, path);
        } else if (type == "namespace") {
            const auto namespace_name = string_at(tool, "name", path, true);
            if (namespace_name.empty())
                refuse("`" + at(path, "name") + "` must not be empty");
            const auto* nested = array_at(tool, "tools", path);
            for (std::size_t k = 0; nested != nullptr && k < nested->size(); ++k) {
                const auto nested_path = at(at(path, "tools"), k);
                const auto& t = object_of((*nested)[k], nested_path);
                const auto nested_type = string_at(t, "type", nested_path, true);
                if (nested_type != "function" && nested_type != "custom")
                    refuse("`" + at(nested_path, "type") + "` must be `function` or `custom`: a namespace holds only those");
                add(t, namespace_name, nested_path);
            }
        } else {
            out.dropped.emplace_back(type);
        }
    }
    return out;
}

/// The Chat `tool_choice`, or null to leave it out. A forced function or custom tool is named by its
/// Chat name; `allowed_tools` keeps only its mode (open-model upstreams know no allowed list); a
/// hosted tool, which was left out, becomes `auto`.
inline json::value to_chat_tool_choice(const json::value& choice, const tool_table& table)
{
    if (choice.is_null())
        return nullptr;
    if (const auto* s = choice.if_string(); s != nullptr && (*s == "auto" || *s == "none" || *s == "required"))
        return choice;
    if (!choice.is_object())
        refuse("`tool_choice` must be `auto`, `none`, `required` or an object");
    const auto& o = choice.get_object();
    const auto type = string_at(o, "type", "tool_choice", true);
    if (type == "function" || type == "custom") {
        const std::string name(string_at(o, "name", "tool_choice", true));
        if (table.find(name) == nullptr)
            refuse("`tool_choice.name`: `" + name + "` is not a function or custom tool in `tools`");
        return json::object{{"type", "function"}, {"function", json::object{{"name", name}}}};
    }
    if (type == "allowed_tools") {
        const auto mode = string_at(o, "mode", "tool_choice", true);
        if (mode != "auto" && mode != "required")
            refuse("`tool_choice.mode` must be `auto` or `required`");
        return json::string(mode);
    }
    return "auto";
}

} // namespace detail

} // namespace gateway::responses
