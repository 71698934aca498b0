// The tools of an OpenAI Responses request as Chat Completions functions, and the table that maps
// the model's calls back to the tools the client named.
#pragma once

#include "../chat_request.hpp"
#include "../request_checks.hpp"
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

namespace detail {

using namespace gateway::checks;

/// A function tool (`{name, description?, parameters?, strict?}`) as a Chat one.
inline json::object chat_function(const json::object& tool, const std::string& name, std::string_view path)
{
    json::object fn{{"name", name}};
    if (const auto description = optional_string(tool, "description", path); !description.empty())
        fn["description"] = description;
    const auto& parameters = member(tool, "parameters");
    if (!parameters.is_null() && !parameters.is_object())
        refuse(backticked(at(path, "parameters")) + " must be an object (a JSON schema)");
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
    std::string description(optional_string(tool, "description", path));
    std::string input_description = "The tool's input, as free-form text.";
    if (const auto& format = member(tool, "format"); !format.is_null()) {
        const auto format_path = at(path, "format");
        const auto& f = object_at(format, format_path);
        const auto type = required_string(f, "type", format_path);
        if (type == "grammar") {
            const auto syntax = required_string(f, "syntax", format_path);
            const auto definition = required_string(f, "definition", format_path);
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
    client_tool_table table;
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
        const auto name = required_string(tool, "name", path);
        if (name.empty())
            refuse("`" + at(path, "name") + "` must not be empty");
        const auto chat = chat_name(namespace_name, name);
        if (!namespace_name.empty() && chat.size() > max_function_name)
            refuse("`" + at(path, "name") + "`: the flattened function name `" + chat + "` is longer than " +
                   std::to_string(max_function_name) + " characters, OpenAI's limit");
        const auto kind = required_string(tool, "type", path) == "custom" ? tool_kind::custom : tool_kind::function;
        if (!out.table.emplace(chat, client_tool{kind, std::string(name), std::string(namespace_name)}).second)
            refuse("`" + at(path, "name") + "`: two tools would have the function name `" + chat +
                   "` (a namespace's tools are named `<namespace>__<name>`)");
        out.tools.push_back(kind == tool_kind::custom ? chat_custom(tool, chat, path) : chat_function(tool, chat, path));
    };
    const auto& list = tools.get_array();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto path = at("tools", i);
        const auto& tool = object_at(list[i], path);
        const auto type = required_string(tool, "type", path);
        if (type == "function" || type == "custom") {
            add(tool, {}, path);
        } else if (type == "namespace") {
            const auto namespace_name = required_string(tool, "name", path);
            if (namespace_name.empty())
                refuse("`" + at(path, "name") + "` must not be empty");
            const auto* nested = optional_array(tool, "tools", path);
            for (std::size_t k = 0; nested != nullptr && k < nested->size(); ++k) {
                const auto nested_path = at(at(path, "tools"), k);
                const auto& t = object_at((*nested)[k], nested_path);
                const auto nested_type = required_string(t, "type", nested_path);
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
inline json::value to_chat_tool_choice(const json::value& choice, const client_tool_table& table)
{
    if (choice.is_null())
        return nullptr;
    if (const auto* s = choice.if_string(); s != nullptr && (*s == "auto" || *s == "none" || *s == "required"))
        return choice;
    if (!choice.is_object())
        refuse("`tool_choice` must be `auto`, `none`, `required` or an object");
    const auto& o = choice.get_object();
    const auto type = required_string(o, "type", "tool_choice");
    if (type == "function" || type == "custom") {
        const std::string name(required_string(o, "name", "tool_choice"));
        if (!table.contains(name))
            refuse("`tool_choice.name`: `" + name + "` is not a function or custom tool in `tools`");
        return json::object{{"type", "function"}, {"function", json::object{{"name", name}}}};
    }
    if (type == "allowed_tools") {
        const auto mode = required_string(o, "mode", "tool_choice");
        if (mode != "auto" && mode != "required")
            refuse("`tool_choice.mode` must be `auto` or `required`");
        return json::string(mode);
    }
    return "auto";
}

} // namespace detail

} // namespace gateway::responses
