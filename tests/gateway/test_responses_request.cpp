// The gateway's OpenAI Responses request translation to a Chat Completions body (no network).
#include "catch_compat.hpp"

#include "../../programs/gateway/responses/request.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace test_responses_request {

namespace {

namespace json = boost::json;
namespace responses = gateway::responses;

responses::translated_request must_translate(std::string_view request)
{
    auto r = responses::to_chat_body(json::parse(request).as_object());
    if (auto* e = std::get_if<gateway::request_error>(&r))
        FAIL("refused: " << e->message);
    return std::get<responses::translated_request>(std::move(r));
}

json::object chat_body(std::string_view request)
{
    return must_translate(request).body;
}

json::value messages_of(std::string_view request)
{
    return chat_body(request).at("messages");
}

/// The refusal's message, or "accepted"; a refusal's code is always invalid_request.
std::string refusal(std::string_view request)
{
    auto r = responses::to_chat_body(json::parse(request).as_object());
    const auto* e = std::get_if<gateway::request_error>(&r);
    if (e == nullptr)
        return "accepted";
    CHECK(e->code == "invalid_request");
    return e->message;
}

/// The table as sorted lines `chat name = kind namespace/name`, to compare whole.
std::vector<std::string> table_lines(const responses::client_tool_table& table)
{
    std::vector<std::string> lines;
    for (const auto& [chat, tool] : table)
        lines.push_back(chat + " = " + (tool.kind == responses::tool_kind::custom ? "custom " : "function ") +
                        tool.namespace_name + "/" + tool.name);
    std::sort(lines.begin(), lines.end());
    return lines;
}

} // namespace

TEST_CASE("responses request: a Codex-shaped request", "[gateway]")
{
    const auto t = must_translate(R"({
        "model": "qwen3-coder",
        "instructions": "You are Codex.",
        "input": [
            {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "<permissions>sandbox</permissions>"}]},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<environment_context>cwd</environment_context>"},
                                                           {"type": "input_text", "text": "List the files."}]}
        ],
        "tools": [
            {"type": "function", "name": "exec_command", "description": "Runs a command.", "strict": false,
             "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"], "additionalProperties": false}},
            {"type": "function", "name": "write_stdin", "description": "Writes to a session.", "strict": false,
             "parameters": {"type": "object", "properties": {"session_id": {"type": "number"}, "chars": {"type": "string"}}}},
            {"type": "namespace", "name": "multi_agent_v1", "description": "Sub-agents.", "tools": [
                {"type": "function", "name": "spawn_agent", "description": "Starts an agent.",
                 "parameters": {"type": "object", "properties": {"message": {"type": "string"}}}},
                {"type": "function", "name": "wait", "description": "Waits for agents.", "parameters": null}
            ]},
            {"type": "web_search", "external_web_access": false},
            {"type": "custom", "name": "apply_patch", "description": "Edits files.",
             "format": {"type": "grammar", "syntax": "lark", "definition": "start: begin_patch hunk+ end_patch"}}
        ],
        "tool_choice": "auto",
        "parallel_tool_calls": false,
        "reasoning": {"effort": "medium", "summary": "auto"},
        "store": false,
        "stream": true,
        "include": ["reasoning.encrypted_content"],
        "prompt_cache_key": "0199a2b3-c4d5",
        "client_metadata": {"originator": "codex_exec"},
        "text": {"verbosity": "low"}
    })");
    CHECK(json::value(t.body) == json::parse(R"({
        "model": "qwen3-coder",
        "messages": [
            {"role": "system", "content": "You are Codex."},
            {"role": "system", "content": "<permissions>sandbox</permissions>"},
            {"role": "user", "content": "<environment_context>cwd</environment_context>\nList the files."}
        ],
        "stream": true,
        "reasoning_effort": "medium",
        "tools": [
            {"type": "function", "function": {"name": "exec_command", "description": "Runs a command.", "strict": false,
             "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"], "additionalProperties": false}}},
            {"type": "function", "function": {"name": "write_stdin", "description": "Writes to a session.", "strict": false,
             "parameters": {"type": "object", "properties": {"session_id": {"type": "number"}, "chars": {"type": "string"}}}}},
            {"type": "function", "function": {"name": "multi_agent_v1__spawn_agent", "description": "Starts an agent.",
             "parameters": {"type": "object", "properties": {"message": {"type": "string"}}}}},
            {"type": "function", "function": {"name": "multi_agent_v1__wait", "description": "Waits for agents.",
             "parameters": {"type": "object", "properties": {}}}},
            {"type": "function", "function": {"name": "apply_patch",
             "description": "Edits files.\n\nThe input must follow this lark grammar:\nstart: begin_patch hunk+ end_patch",
             "parameters": {"type": "object", "properties": {"input": {"type": "string",
                 "description": "The tool's input, as text in the lark grammar of the tool's description."}}, "required": ["input"]}}}
        ],
        "tool_choice": "auto",
        "parallel_tool_calls": false
    })"));
    CHECK(table_lines(t.tools) == std::vector<std::string>{
              "apply_patch = custom /apply_patch",
              "exec_command = function /exec_command",
              "multi_agent_v1__spawn_agent = function multi_agent_v1/spawn_agent",
              "multi_agent_v1__wait = function multi_agent_v1/wait",
              "write_stdin = function /write_stdin",
          });
    CHECK(t.dropped_tools == std::vector<std::string>{"web_search"});
    CHECK(t.tools.contains("multi_agent_v1__wait"));
    CHECK(!t.tools.contains("wait"));
}

TEST_CASE("responses request: a custom tool without a grammar, and a function with no description", "[gateway]")
{
    CHECK(json::value(chat_body(R"({"input": "x", "tools": [
              {"type": "custom", "name": "note", "format": {"type": "text"}},
              {"type": "function", "name": "now"}]})")
                          .at("tools")) == json::parse(R"([
        {"type": "function", "function": {"name": "note", "parameters": {"type": "object",
            "properties": {"input": {"type": "string", "description": "The tool's input, as free-form text."}}, "required": ["input"]}}},
        {"type": "function", "function": {"name": "now", "parameters": {"type": "object", "properties": {}}}}
    ])"));
}

TEST_CASE("responses request: a history of calls, outputs and reasoning", "[gateway]")
{
    const auto messages = messages_of(R"({"model": "m", "input": [
        {"type": "message", "role": "user", "content": "Fix the bug."},
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Plan A."}, {"type": "summary_text", "text": "Plan B."}],
         "encrypted_content": "gAAAA"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Looking.", "annotations": []}]},
        {"type": "function_call", "call_id": "c1", "name": "exec_command", "arguments": "{\"cmd\":\"ls\"}", "id": "fc_1", "status": "completed"},
        {"type": "reasoning", "summary": [], "content": [{"type": "reasoning_text", "text": "Also spawn."}]},
        {"type": "function_call", "call_id": "c2", "name": "spawn_agent", "namespace": "multi_agent_v1", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "a.txt"},
        {"type": "function_call_output", "call_id": "c2", "output": [{"type": "input_text", "text": "agent 7"}, {"type": "input_text", "text": "started"}]},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "A summary, not used."}],
         "content": [{"type": "reasoning_text", "text": "Patch it."}, {"type": "reasoning_text", "text": "Carefully."}]},
        {"type": "custom_tool_call", "call_id": "c3", "name": "apply_patch", "input": "*** Begin Patch\n\"x\"\n*** End Patch"},
        {"type": "custom_tool_call_output", "call_id": "c3", "output": "Done."},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "Dropped: a user message follows."}]},
        {"role": "user", "content": "Thanks."},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "Dropped: nothing follows."}]}
    ]})");
    CHECK(messages == json::parse(R"([
        {"role": "user", "content": "Fix the bug."},
        {"role": "assistant", "content": "Looking.", "reasoning_content": "Plan A.\n\nPlan B.\n\nAlso spawn.", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "exec_command", "arguments": "{\"cmd\":\"ls\"}"}},
            {"id": "c2", "type": "function", "function": {"name": "multi_agent_v1__spawn_agent", "arguments": "{}"}}
        ]},
        {"role": "tool", "tool_call_id": "c1", "content": "a.txt"},
        {"role": "tool", "tool_call_id": "c2", "content": "agent 7\nstarted"},
        {"role": "assistant", "content": null, "reasoning_content": "Patch it.\nCarefully.", "tool_calls": [
            {"id": "c3", "type": "function", "function": {"name": "apply_patch",
             "arguments": "{\"input\":\"*** Begin Patch\\n\\\"x\\\"\\n*** End Patch\"}"}}
        ]},
        {"role": "tool", "tool_call_id": "c3", "content": "Done."},
        {"role": "user", "content": "Thanks."}
    ])"));
    // The custom call's arguments are the JSON the answer side reads back.
    CHECK(json::parse(messages.at(4).at("tool_calls").at(0).at("function").at("arguments").as_string()) ==
          json::parse(R"({"input": "*** Begin Patch\n\"x\"\n*** End Patch"})"));
}

TEST_CASE("responses request: consecutive assistant messages stay apart, and a call after a user message starts one", "[gateway]")
{
    CHECK(messages_of(R"({"input": [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": "b"},
        {"role": "assistant", "content": "c"},
        {"role": "system", "content": "d"},
        {"type": "function_call", "call_id": "x", "name": "f", "arguments": "{}"}
    ]})") == json::parse(R"([
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": "b"},
        {"role": "assistant", "content": "c"},
        {"role": "system", "content": "d"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "x", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}
    ])"));
}

TEST_CASE("responses request: images in messages and in tool outputs", "[gateway]")
{
    CHECK(messages_of(R"({"input": [
        {"role": "user", "content": [{"type": "input_text", "text": "What is this?"},
                                     {"type": "input_image", "image_url": "https://example.com/cat.png", "detail": "high"},
                                     {"type": "input_image", "image_url": "data:image/png;base64,iVBOR", "detail": "original"}]},
        {"type": "function_call", "call_id": "v1", "name": "view_image", "arguments": "{\"path\":\"a.png\"}"},
        {"type": "function_call", "call_id": "v2", "name": "view_image", "arguments": "{\"path\":\"b.png\"}"},
        {"type": "function_call_output", "call_id": "v1", "output": [{"type": "input_image", "image_url": "data:image/png;base64,AAAA"}]},
        {"type": "function_call_output", "call_id": "v2", "output": [{"type": "input_text", "text": "b.png:"},
                                                                    {"type": "input_image", "image_url": "data:image/png;base64,BBBB", "detail": "low"}]},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "Two of them."}]},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Two images."}, {"type": "refusal", "refusal": "No faces."}]}
    ]})") == json::parse(R"([
        {"role": "user", "content": [{"type": "text", "text": "What is this?"},
                                     {"type": "image_url", "image_url": {"url": "https://example.com/cat.png", "detail": "high"}},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBOR"}}]},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "v1", "type": "function", "function": {"name": "view_image", "arguments": "{\"path\":\"a.png\"}"}},
            {"id": "v2", "type": "function", "function": {"name": "view_image", "arguments": "{\"path\":\"b.png\"}"}}
        ]},
        {"role": "tool", "tool_call_id": "v1", "content": "The result is the images in the next user message."},
        {"role": "tool", "tool_call_id": "v2", "content": "b.png:"},
        {"role": "user", "content": [{"type": "text", "text": "The images in the result of call v1:"},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
                                     {"type": "text", "text": "The images in the result of call v2:"},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,BBBB", "detail": "low"}}]},
        {"role": "assistant", "content": "Two images.\nNo faces.", "reasoning_content": "Two of them."}
    ])"));

    // Images of the last item are not lost.
    CHECK(messages_of(R"({"input": [
        {"type": "custom_tool_call", "call_id": "s", "name": "shot", "input": ""},
        {"type": "custom_tool_call_output", "call_id": "s", "output": [{"type": "input_image", "image_url": "https://example.com/s.png"}]}
    ]})") == json::parse(R"([
        {"role": "assistant", "content": null, "tool_calls": [{"id": "s", "type": "function", "function": {"name": "shot", "arguments": "{\"input\":\"\"}"}}]},
        {"role": "tool", "tool_call_id": "s", "content": "The result is the images in the next user message."},
        {"role": "user", "content": [{"type": "text", "text": "The images in the result of call s:"},
                                     {"type": "image_url", "image_url": {"url": "https://example.com/s.png"}}]}
    ])"));
}

TEST_CASE("responses request: sampling, limits, formats, and what is ignored", "[gateway]")
{
    CHECK(json::value(chat_body(R"({"model": "m", "input": "Hi", "instructions": "Be brief.", "max_output_tokens": 100,
        "temperature": 0.5, "top_p": 0.9, "stream": false,
        "text": {"format": {"type": "json_schema", "name": "answer", "description": "The answer.", "schema": {"type": "object"}, "strict": true},
                 "verbosity": "low"},
        "store": true, "background": false, "previous_response_id": null, "conversation": null, "metadata": {"a": "b"},
        "service_tier": "auto", "truncation": "auto", "user": "u", "safety_identifier": "s", "reasoning": {"summary": "auto"},
        "include": [], "prompt_cache_key": "k", "client_metadata": {}, "parallel_tool_calls": true, "tool_choice": "none"})")) ==
          json::parse(R"({"model": "m",
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}],
        "max_tokens": 100, "temperature": 0.5, "top_p": 0.9, "stream": false,
        "response_format": {"type": "json_schema", "json_schema": {"name": "answer", "description": "The answer.", "schema": {"type": "object"}, "strict": true}}})"));

    CHECK(json::value(chat_body(R"({"input": "x", "text": {"format": {"type": "json_object"}}})")) ==
          json::parse(R"({"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "json_object"}})"));
    CHECK(json::value(chat_body(R"({"input": "x", "text": {"format": {"type": "text"}}, "reasoning": null})")) ==
          json::parse(R"({"messages": [{"role": "user", "content": "x"}]})"));
}

namespace {

/// The Chat `tool_choice` for `choice`, with the tools f, ns.g and the custom tool p offered.
json::value chat_choice(std::string_view choice)
{
    const auto body = chat_body(std::string(R"({"input": "x", "tool_choice": )") + std::string(choice) + R"(, "tools": [
        {"type": "function", "name": "f"}, {"type": "custom", "name": "p"},
        {"type": "namespace", "name": "ns", "description": "", "tools": [{"type": "function", "name": "g"}]}]})");
    const auto* c = body.if_contains("tool_choice");
    return c != nullptr ? *c : json::value("(left out)");
}

} // namespace

TEST_CASE("responses request: tool_choice", "[gateway]")
{
    CHECK(chat_choice(R"("auto")") == "auto");
    CHECK(chat_choice(R"("none")") == "none");
    CHECK(chat_choice(R"("required")") == "required");
    CHECK(chat_choice("null") == "(left out)");
    CHECK(chat_choice(R"({"type": "function", "name": "f"})") == json::parse(R"({"type": "function", "function": {"name": "f"}})"));
    CHECK(chat_choice(R"({"type": "custom", "name": "p"})") == json::parse(R"({"type": "function", "function": {"name": "p"}})"));
    CHECK(chat_choice(R"({"type": "function", "name": "ns__g"})") == json::parse(R"({"type": "function", "function": {"name": "ns__g"}})"));
    CHECK(chat_choice(R"({"type": "allowed_tools", "mode": "required", "tools": [{"type": "function", "name": "f"}]})") == "required");
    CHECK(chat_choice(R"({"type": "allowed_tools", "mode": "auto", "tools": []})") == "auto");
    CHECK(chat_choice(R"({"type": "web_search_preview"})") == "auto");
    CHECK(chat_choice(R"({"type": "mcp", "server_label": "deepwiki"})") == "auto");

    // With only hosted tools, nothing about tools is sent.
    const auto t = must_translate(R"({"input": "x", "tool_choice": "required", "parallel_tool_calls": true,
        "tools": [{"type": "file_search", "vector_store_ids": []}, {"type": "mcp", "server_label": "d"}, {"type": "image_generation"}]})");
    CHECK(json::value(t.body) == json::parse(R"({"messages": [{"role": "user", "content": "x"}]})"));
    CHECK(t.dropped_tools == std::vector<std::string>{"file_search", "mcp", "image_generation"});
    CHECK(t.tools.empty());
}

TEST_CASE("responses request: refusals name the member", "[gateway]")
{
    const std::string long_name(60, 'n');
    const std::vector<std::pair<std::string, std::string>> cases = {
        // What needs stored state.
        {R"({"input": "x", "previous_response_id": "resp_1"})", "`previous_response_id` is not supported: the gateway keeps no state, so send the whole history in `input`"},
        {R"({"input": "x", "conversation": "conv_1"})", "`conversation` is not supported: the gateway keeps no state"},
        {R"({"input": "x", "background": true})", "`background: true` is not supported: the gateway keeps no state"},
        {R"({"input": [{"role": "user", "content": "a"}, {"type": "item_reference", "id": "msg_1"}]})", "`input[1]` is an `item_reference`: the gateway keeps no items"},
        {R"({"input": [{"id": "msg_1"}]})", "`input[0]` is an `item_reference`"},
        // Content the gateway cannot send.
        {R"({"input": [{"role": "user", "content": [{"type": "input_image", "file_id": "file_1"}]}]})", "`input[0].content[0]` is an `input_image` by `file_id`: the gateway has no file store"},
        {R"({"input": [{"role": "user", "content": [{"type": "input_text", "text": "a"}, {"type": "input_file", "file_data": "JVBER"}]}]})", "`input[0].content[1]` is an `input_file` part"},
        {R"({"input": [{"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": "", "format": "wav"}}]}]})", "`input[0].content[0]` is an `input_audio` part"},
        {R"({"input": [{"role": "assistant", "content": [{"type": "input_image", "image_url": "https://example.com/a.png"}]}]})", "`input[0].content[0].type`: `input_image` is not a content part the gateway knows"},
        {R"({"input": [{"type": "function_call_output", "call_id": "c", "output": [{"type": "input_file", "file_id": "f"}]}]})", "`input[0].output[0]` is an `input_file` part"},
        {R"({"input": [{"role": "user", "content": "a"}, {"type": "local_shell_call", "call_id": "c", "action": {}}]})", "`input[1]` is a `local_shell_call` item, which the gateway cannot send"},
        {R"({"input": [{"type": "web_search_call", "action": {}}]})", "`input[0]` is a `web_search_call` item"},
        {R"({"input": [{"type": "mcp_call", "name": "x"}]})", "`input[0]` is a `mcp_call` item"},
        // Wrong types.
        {R"({"input": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}, {"role": "user", "content": "c"},
                       {"role": "user", "content": [{"type": "input_image", "image_url": {"url": "https://example.com/a.png"}}]}]})", "`input[3].content[0].image_url` must be a string"},
        {R"({"input": [{"role": "user", "content": [{"type": "input_image", "image_url": null}]}]})", "`input[0].content[0].image_url` must be a URL or a data URL"},
        {R"({"input": [{"role": "tool", "content": "a"}]})", "`input[0].role` must be `user`, `assistant`, `system` or `developer`"},
        {R"({"input": [{"role": "user", "content": 7}]})", "`input[0].content` must be a string or an array of content parts"},
        {R"({"input": [{"role": "user", "content": [{"type": "input_text"}]}]})", "`input[0].content[0].text` must be a string"},
        {R"({"input": [{"type": "function_call", "name": "f", "arguments": "{}"}]})", "`input[0].call_id` must be a string"},
        {R"({"input": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": {}}]})", "`input[0].arguments` must be a string"},
        {R"({"input": [{"type": "custom_tool_call", "call_id": "c", "name": "p"}]})", "`input[0].input` must be a string"},
        {R"({"input": [{"type": "function_call_output", "call_id": "c", "output": 3}]})", "`input[0].output` must be a string or an array of content parts"},
        {R"({"input": [{"type": "reasoning", "summary": "s"}]})", "`input[0].summary` must be an array"},
        {R"({"input": [{"type": "reasoning", "summary": [{"type": "summary_text"}]}]})", "`input[0].summary[0].text` must be a string"},
        {R"({"input": [{"content": "a"}]})", "`input[0].type` must be a string"},
        {R"({"input": ["a"]})", "`input[0]` must be an object"},
        {R"({"input": 5})", "`input` must be a string or an array of items"},
        {R"({"input": []})", "`input` must hold at least one message"},
        {R"({})", "`input` must hold at least one message"},
        {R"({"input": "x", "model": 4})", "`model` must be a string"},
        {R"({"input": "x", "instructions": ["a"]})", "`instructions` must be a string"},
        {R"({"input": "x", "stream": "yes"})", "`stream` must be a boolean"},
        {R"({"input": "x", "background": "no"})", "`background` must be a boolean"},
        {R"({"input": "x", "max_output_tokens": "9"})", "`max_output_tokens` must be a number"},
        {R"({"input": "x", "temperature": "hot"})", "`temperature` must be a number"},
        {R"({"input": "x", "reasoning": {"effort": 3}})", "`reasoning.effort` must be a string"},
        {R"({"input": "x", "parallel_tool_calls": 1})", "`parallel_tool_calls` must be a boolean"},
        {R"({"input": "x", "text": {"format": {"type": "xml"}}})", "`text.format.type` must be `text`, `json_schema` or `json_object`"},
        {R"({"input": "x", "text": {"format": {"type": "json_schema", "name": "a"}}})", "`text.format.schema` must be an object"},
        {R"({"input": "x", "text": {"format": {"type": "json_schema", "schema": {}}}})", "`text.format.name` must be a string"},
        // Tools.
        {R"({"input": "x", "tools": {}})", "`tools` must be an array"},
        {R"({"input": "x", "tools": [{"name": "f"}]})", "`tools[0].type` must be a string"},
        {R"({"input": "x", "tools": [{"type": "function", "name": ""}]})", "`tools[0].name` must not be empty"},
        {R"({"input": "x", "tools": [{"type": "function", "name": "f", "parameters": "{}"}]})", "`tools[0].parameters` must be an object"},
        {R"({"input": "x", "tools": [{"type": "function", "name": "f", "strict": "yes"}]})", "`tools[0].strict` must be a boolean"},
        {R"({"input": "x", "tools": [{"type": "custom", "name": "p", "format": {"type": "grammar", "syntax": "lark"}}]})", "`tools[0].format.definition` must be a string"},
        {R"({"input": "x", "tools": [{"type": "custom", "name": "p", "format": {"type": "json"}}]})", "`tools[0].format.type` must be `text` or `grammar`"},
        {R"({"input": "x", "tools": [{"type": "namespace", "name": "ns", "tools": [{"type": "function", "name": "g"}]},
                                     {"type": "function", "name": "ns__g"}]})", "`tools[1].name`: two tools would have the function name `ns__g`"},
        {R"({"input": "x", "tools": [{"type": "function", "name": "ns__g"},
                                     {"type": "namespace", "name": "ns", "tools": [{"type": "function", "name": "g"}]}]})", "`tools[1].tools[0].name`: two tools would have the function name `ns__g`"},
        {R"({"input": "x", "tools": [{"type": "namespace", "name": "abcd", "tools": [{"type": "function", "name": ")" + long_name + R"("}]}]})",
         "`tools[0].tools[0].name`: the flattened function name `abcd__" + long_name + "` is longer than 64 characters"},
        {R"({"input": "x", "tools": [{"type": "namespace", "name": "ns", "tools": [{"type": "web_search"}]}]})", "`tools[0].tools[0].type` must be `function` or `custom`"},
        {R"({"input": "x", "tools": [{"type": "namespace", "name": "", "tools": []}]})", "`tools[0].name` must not be empty"},
        {R"({"input": "x", "tools": [{"type": "namespace", "name": "ns", "tools": 1}]})", "`tools[0].tools` must be an array"},
        {R"({"input": "x", "tool_choice": "any"})", "`tool_choice` must be `auto`, `none`, `required` or an object"},
        {R"({"input": "x", "tool_choice": {"type": "function", "name": "f"}, "tools": [{"type": "function", "name": "g"}]})", "`tool_choice.name`: `f` is not a function or custom tool in `tools`"},
        {R"({"input": "x", "tool_choice": {"type": "function", "name": "g"},
             "tools": [{"type": "namespace", "name": "ns", "tools": [{"type": "function", "name": "g"}]}]})", "`tool_choice.name`: `g` is not a function or custom tool"},
        {R"({"input": "x", "tool_choice": {"type": "allowed_tools", "mode": "none", "tools": []}})", "`tool_choice.mode` must be `auto` or `required`"},
    };
    for (const auto& [request, message] : cases) {
        INFO(request);
        const auto got = refusal(request);
        CHECK(got.substr(0, message.size()) == message);
    }
    // A flattened name of exactly 64 characters passes.
    CHECK(refusal(R"({"input": "x", "tools": [{"type": "namespace", "name": "abcd", "tools": [{"type": "function", "name": ")" +
                  std::string(58, 'n') + R"("}]}]})") == "accepted");
}

} // namespace test_responses_request
