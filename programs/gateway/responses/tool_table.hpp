// What a Responses client's tools became in the Chat Completions request sent upstream, keyed by
// the function name the upstream model sees: the request side fills it, the answer side
// (client_tool_calls) turns the model's calls back into the client's.
#pragma once

#include <string>
#include <unordered_map>

namespace gateway::responses {

/// How the client declared the tool.
enum class tool_kind {
    function,   ///< A `function` tool: JSON arguments, passed on as they are.
    custom,     ///< A free-form `custom` tool (`apply_patch`): offered as a function whose one
                ///< string parameter `input` is the raw text the client wants.
};

/// One client tool, as the client names it.
struct client_tool {
    tool_kind kind = tool_kind::function;
    std::string name;             ///< The client's name (without its namespace).
    std::string namespace_name;   ///< The client `namespace` it was declared in; empty if none.
};

/// Keyed by the chat function name: the client's name, or `<namespace>__<name>` for a tool in a
/// namespace. Tools offered under their own name with nothing to undo need no entry.
using client_tool_table = std::unordered_map<std::string, client_tool>;

} // namespace gateway::responses
