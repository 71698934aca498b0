// The gateway's Anthropic Messages → OpenAI Chat request translation (no network).
#include "catch_compat.hpp"

#include "../../programs/gateway/anthropic/request.hpp"

#include <boost/json.hpp>

#include <string>
#include <variant>
#include <vector>

namespace test_anthropic_request {

namespace {

namespace json = boost::json;
namespace anthropic = gateway::anthropic;

json::object object(std::string_view text)
{
    return json::parse(text).as_object();
}

anthropic::translated_request must_translate(std::string_view text)
{
    auto r = anthropic::to_chat_body(object(text));
    if (const auto* e = std::get_if<gateway::request_error>(&r))
        FAIL("refused: " << e->message);
    return std::get<anthropic::translated_request>(std::move(r));
}

/// The refusal's code and message ("accepted" if there is none).
std::string refusal(std::string_view text)
{
    const auto r = anthropic::to_chat_body(object(text));
    const auto* e = std::get_if<gateway::request_error>(&r);
    return e == nullptr ? "accepted" : e->code + ": " + e->message;
}

/// A request of one user message "x" with `extra` members.
std::string with(std::string_view extra)
{
    return R"({"model":"m","messages":[{"role":"user","content":"x"}])" + std::string(extra) + "}";
}

/// A request whose only message is a user one with `content`.
std::string user_says(std::string_view content)
{
    return R"({"messages":[{"role":"user","content":)" + std::string(content) + "}]}";
}

} // namespace

TEST_CASE("anthropic request: a Claude Code request, with what Chat has no use for ignored", "[gateway]")
{
    const auto r = must_translate(R"({
      "model": "claude-opus-5-5", "max_tokens": 128000, "stream": true,
      "system": [{"type": "text", "text": "You are Claude Code.", "cache_control": {"type": "ephemeral"}},
                 {"type": "text", "text": "Work in /tmp/w."}],
      "messages": [
        {"role": "system", "content": [{"type": "text", "text": "Be terse.", "cache_control": {"type": "ephemeral"}}]},
        {"role": "user", "content": [{"type": "text", "text": "<system-reminder>ctx</system-reminder>"},
                                     {"type": "text", "text": "Write hello.txt", "cache_control": {"type": "ephemeral", "ttl": "1h"}}]}
      ],
      "tools": [
        {"name": "Write", "description": "Writes a file",
         "input_schema": {"type": "object", "properties": {"file_path": {"type": "string"}, "content": {"type": "string"}},
                          "required": ["file_path", "content"]}},
        {"name": "Bash", "description": "Runs a command", "cache_control": {"type": "ephemeral"},
         "input_schema": {"type": "object", "properties": {"command": {"type": "string"}, "description": {"type": "string"},
                                                           "timeout": {"type": "number"}}, "required": ["command"]}},
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 5}
      ],
      "thinking": {"type": "adaptive", "display": "omitted"},
      "metadata": {"user_id": "user_abc"},
      "context_management": {"edits": [{"type": "clear_tool_uses_20250919"}]},
      "output_config": {"effort": "high"}, "service_tier": "auto"
    })");
    CHECK(r.body == object(R"({
      "model": "claude-opus-5-5", "max_tokens": 128000, "stream": true, "user": "user_abc",
      "messages": [
        {"role": "system", "content": "You are Claude Code.\n\nWork in /tmp/w."},
        {"role": "system", "content": "Be terse."},
        {"role": "user", "content": "<system-reminder>ctx</system-reminder>\n\nWrite hello.txt"}
      ],
      "tools": [
        {"type": "function", "function": {"name": "Write", "description": "Writes a file",
         "parameters": {"type": "object", "properties": {"file_path": {"type": "string"}, "content": {"type": "string"}},
                        "required": ["file_path", "content"]}}},
        {"type": "function", "function": {"name": "Bash", "description": "Runs a command",
         "parameters": {"type": "object", "properties": {"command": {"type": "string"}, "description": {"type": "string"},
                                                         "timeout": {"type": "number"}}, "required": ["command"]}}}
      ]
    })"));
    CHECK(r.dropped_tools == std::vector<std::string>{"web_search"});
}

TEST_CASE("anthropic request: a tool loop with thinking, an error and an image in the history", "[gateway]")
{
    const auto r = must_translate(R"({"model": "m", "messages": [
      {"role": "user", "content": "Make a file, then list the directory."},
      {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "Write first.", "signature": "sig1"},
        {"type": "redacted_thinking", "data": "opaque"},
        {"type": "thinking", "thinking": "Then list.", "signature": "sig2"},
        {"type": "text", "text": "Writing it.", "citations": null},
        {"type": "tool_use", "id": "toolu_1", "name": "Write", "input": {"file_path": "/tmp/a.txt", "content": "hi"}},
        {"type": "tool_use", "id": "toolu_2", "name": "Bash", "input": {"command": "ls /nope"}, "cache_control": {"type": "ephemeral"}}]},
      {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": [
          {"type": "text", "text": "Wrote /tmp/a.txt"}, {"type": "text", "text": "1 line"},
          {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0K"}}]},
        {"type": "tool_result", "tool_use_id": "toolu_2", "content": "ls: cannot access '/nope'", "is_error": true},
        {"type": "text", "text": "Go on."}]},
      {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_3", "name": "Bash", "input": {"command": "ls"}}]},
      {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_3", "content": "a.txt", "is_error": false}]},
      {"role": "assistant", "content": [{"type": "thinking", "thinking": "Done.", "signature": "s"}, {"type": "text", "text": "All done."}]}
    ]})");
    CHECK(r.body == object(R"j({"model": "m", "messages": [
      {"role": "user", "content": "Make a file, then list the directory."},
      {"role": "assistant", "content": "Writing it.", "reasoning_content": "Write first.\n\nThen list.", "tool_calls": [
        {"id": "toolu_1", "type": "function", "function": {"name": "Write", "arguments": "{\"file_path\":\"/tmp/a.txt\",\"content\":\"hi\"}"}},
        {"id": "toolu_2", "type": "function", "function": {"name": "Bash", "arguments": "{\"command\":\"ls /nope\"}"}}]},
      {"role": "tool", "tool_call_id": "toolu_1", "content": "Wrote /tmp/a.txt\n1 line\n(1 image of this result: in the next user message)"},
      {"role": "tool", "tool_call_id": "toolu_2", "content": "Error: ls: cannot access '/nope'"},
      {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0K"}},
                                   {"type": "text", "text": "Go on."}]},
      {"role": "assistant", "content": null, "tool_calls": [
        {"id": "toolu_3", "type": "function", "function": {"name": "Bash", "arguments": "{\"command\":\"ls\"}"}}]},
      {"role": "tool", "tool_call_id": "toolu_3", "content": "a.txt"},
      {"role": "assistant", "content": "All done.", "reasoning_content": "Done."}
    ]})j"));
    CHECK(r.dropped_tools.empty());
}

TEST_CASE("anthropic request: tool results: the error marker once, images only, no content", "[gateway]")
{
    const auto r = must_translate(user_says(R"([
      {"type": "tool_result", "tool_use_id": "a", "content": "Error: exit 1", "is_error": true},
      {"type": "tool_result", "tool_use_id": "b", "is_error": true, "content": [
        {"type": "image", "source": {"type": "url", "url": "https://example.com/1.png"}},
        {"type": "image", "source": {"type": "base64", "media_type": "image/gif", "data": "R0lG"}}]},
      {"type": "tool_result", "tool_use_id": "c"},
      {"type": "tool_result", "tool_use_id": "d", "content": [{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "doc"}}]}
    ])"));
    CHECK(r.body == object(R"j({"messages": [
      {"role": "tool", "tool_call_id": "a", "content": "Error: exit 1"},
      {"role": "tool", "tool_call_id": "b", "content": "Error: (2 images of this result: in the next user message)"},
      {"role": "tool", "tool_call_id": "c", "content": ""},
      {"role": "tool", "tool_call_id": "d", "content": "doc"},
      {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://example.com/1.png"}},
                                   {"type": "image_url", "image_url": {"url": "data:image/gif;base64,R0lG"}}]}
    ]})j"));
}

TEST_CASE("anthropic request: images from base64 and from a URL, and text documents", "[gateway]")
{
    CHECK(must_translate(user_says(R"([
      {"type": "text", "text": "Compare"},
      {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQ"}},
      {"type": "image", "source": {"type": "url", "url": "https://example.com/b.png"}, "cache_control": {"type": "ephemeral"}},
      {"type": "document", "title": "Notes", "source": {"type": "text", "media_type": "text/plain", "data": "n1"}}
    ])")).body == object(R"({"messages": [{"role": "user", "content": [
      {"type": "text", "text": "Compare"},
      {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,/9j/4AAQ"}},
      {"type": "image_url", "image_url": {"url": "https://example.com/b.png"}},
      {"type": "text", "text": "Notes\n\nn1"}]}]})"));
    CHECK(must_translate(user_says(R"([
      {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "d"}, "citations": {"enabled": true}},
      {"type": "text", "text": "Summarize"}
    ])")).body == object(R"({"messages": [{"role": "user", "content": "d\n\nSummarize"}]})"));
}

TEST_CASE("anthropic request: every tool_choice, and the tools a choice needs", "[gateway]")
{
    const std::string tools = R"(,"tools":[{"name":"f","input_schema":{"type":"object"}},)"
                              R"({"type":"custom","name":"g","description":"G","input_schema":{"type":"object","properties":{}}}])";
    const std::string chat_tools = R"("tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}},)"
                                   R"({"type":"function","function":{"name":"g","description":"G","parameters":{"type":"object","properties":{}}}}])";
    const auto chat = [&](std::string_view extra) {
        return object(R"({"model":"m","messages":[{"role":"user","content":"x"}],)" + chat_tools + std::string(extra) + "}");
    };
    CHECK(must_translate(with(tools)).body == chat(""));
    CHECK(must_translate(with(tools + R"(,"tool_choice":{"type":"auto"})")).body == chat(R"(,"tool_choice":"auto")"));
    CHECK(must_translate(with(tools + R"(,"tool_choice":{"type":"any"})")).body == chat(R"(,"tool_choice":"required")"));
    CHECK(must_translate(with(tools + R"(,"tool_choice":{"type":"none"})")).body == chat(R"(,"tool_choice":"none")"));
    CHECK(must_translate(with(tools + R"(,"tool_choice":{"type":"tool","name":"g"})")).body ==
          chat(R"(,"tool_choice":{"type":"function","function":{"name":"g"}})"));
    CHECK(must_translate(with(tools + R"(,"tool_choice":{"type":"auto","disable_parallel_tool_use":true})")).body ==
          chat(R"(,"tool_choice":"auto","parallel_tool_calls":false)"));
    CHECK(must_translate(with(tools + R"(,"tool_choice":{"type":"tool","name":"f","disable_parallel_tool_use":true})")).body ==
          chat(R"(,"tool_choice":{"type":"function","function":{"name":"f"}},"parallel_tool_calls":false)"));
    CHECK(must_translate(with(tools + R"(,"tool_choice":{"type":"any","disable_parallel_tool_use":false})")).body ==
          chat(R"(,"tool_choice":"required")"));
    CHECK(must_translate(with(tools + R"(,"tool_choice":{"type":"none","disable_parallel_tool_use":true})")).body ==
          chat(R"(,"tool_choice":"none")"));

    // Only server tools: nothing to choose from upstream, so neither tools nor a choice is sent.
    const auto servers = must_translate(with(R"(,"tools":[{"type":"bash_20250124","name":"bash"},)"
                                             R"({"type":"text_editor_20250728","name":"str_replace_based_edit_tool"},)"
                                             R"({"type":"code_execution_20250825","name":"code_execution"}],"tool_choice":{"type":"any"})"));
    CHECK(servers.body == object(R"({"model":"m","messages":[{"role":"user","content":"x"}]})"));
    CHECK(servers.dropped_tools == std::vector<std::string>{"bash", "str_replace_based_edit_tool", "code_execution"});
    CHECK(must_translate(with(R"(,"tools":[])")).body == object(R"({"model":"m","messages":[{"role":"user","content":"x"}]})"));
}

TEST_CASE("anthropic request: sampling, stop sequences, stream and metadata", "[gateway]")
{
    CHECK(must_translate(with(R"(,"max_tokens":1024,"temperature":0.2,"top_p":0.9,"top_k":40,"stream":false,)"
                              R"("stop_sequences":["\n\nHuman:","END"],"metadata":{"user_id":null},"service_tier":"standard_only")"))
              .body == object(R"({"model":"m","messages":[{"role":"user","content":"x"}],"max_tokens":1024,"temperature":0.2,)"
                              R"("top_p":0.9,"top_k":40,"stream":false,"stop":["\n\nHuman:","END"]})"));
    CHECK(must_translate(with(R"(,"temperature":1,"metadata":"not an object","stop_sequences":[],"system":"")")).body ==
          object(R"({"model":"m","messages":[{"role":"user","content":"x"}],"temperature":1,"stop":[]})"));
    CHECK(must_translate(R"({"messages":[{"role":"assistant","content":[]},{"role":"user","content":[]}],"model":null,"stream":null})")
              .body == object(R"({"messages":[{"role":"assistant","content":""},{"role":"user","content":""}]})"));
}

TEST_CASE("anthropic request: a malformed request is refused, naming the member", "[gateway]")
{
    const std::string invalid = "invalid_request: ";
    CHECK(refusal("{}") == invalid + "`messages` must be a non-empty array");
    CHECK(refusal(R"({"messages":[]})") == invalid + "`messages` must be a non-empty array");
    CHECK(refusal(R"({"messages":{"role":"user"}})") == invalid + "`messages` must be a non-empty array");
    CHECK(refusal(R"({"model":3,"messages":[{"role":"user","content":"x"}]})") == invalid + "`model` must be a string");
    CHECK(refusal(R"({"messages":["hi"]})") == invalid + "`messages[0]` must be an object");
    CHECK(refusal(R"({"messages":[{"content":"hi"}]})") == invalid + "`messages[0].role` must be a string");
    CHECK(refusal(R"({"messages":[{"role":"tool","content":"hi"}]})") ==
          invalid + "`messages[0].role` is `tool`: it must be `user`, `assistant` or `system`");
    CHECK(refusal(R"({"messages":[{"role":"user"}]})") ==
          invalid + "`messages[0].content` must be a string or an array of content blocks");
    CHECK(refusal(R"({"messages":[{"role":"assistant","content":{"type":"text"}}]})") ==
          invalid + "`messages[0].content` must be a string or an array of content blocks");
    CHECK(refusal(user_says(R"(["hi"])")) == invalid + "`messages[0].content[0]` must be an object");
    CHECK(refusal(user_says(R"([{"text":"hi"}])")) == invalid + "`messages[0].content[0].type` must be a string");
    CHECK(refusal(user_says(R"([{"type":"text","text":1}])")) == invalid + "`messages[0].content[0].text` must be a string");
    CHECK(refusal(R"({"messages":[{"role":"assistant","content":[{"type":"thinking"}]}]})") ==
          invalid + "`messages[0].content[0].thinking` must be a string");
    CHECK(refusal(R"({"system":7,"messages":[{"role":"user","content":"x"}]})") ==
          invalid + "`system` must be a string or an array of content blocks");
    CHECK(refusal(R"({"system":[{"type":"text"}],"messages":[{"role":"user","content":"x"}]})") ==
          invalid + "`system[0].text` must be a string");

    const std::string tool_use = R"({"messages":[{"role":"assistant","content":[{"type":"tool_use")";
    CHECK(refusal(tool_use + R"(,"name":"f","input":{}}]}]})") == invalid + "`messages[0].content[0].id` must be a string");
    CHECK(refusal(tool_use + R"(,"id":"t","input":{}}]}]})") == invalid + "`messages[0].content[0].name` must be a string");
    CHECK(refusal(tool_use + R"(,"id":"t","name":"f","input":"{}"}]}]})") == invalid + "`messages[0].content[0].input` must be an object");

    CHECK(refusal(user_says(R"([{"type":"tool_result","content":"x"}])")) == invalid + "`messages[0].content[0].tool_use_id` must be a string");
    CHECK(refusal(user_says(R"([{"type":"tool_result","tool_use_id":"t","content":5}])")) ==
          invalid + "`messages[0].content[0].content` must be a string or an array of content blocks");
    CHECK(refusal(user_says(R"([{"type":"tool_result","tool_use_id":"t","content":"x","is_error":"yes"}])")) ==
          invalid + "`messages[0].content[0].is_error` must be a boolean");
    CHECK(refusal(user_says(R"([{"type":"image","source":{"type":"base64","data":"AA"}}])")) ==
          invalid + "`messages[0].content[0].source.media_type` must be a string");
    CHECK(refusal(user_says(R"([{"type":"image"}])")) == invalid + "`messages[0].content[0].source` must be an object");

    CHECK(refusal(with(R"(,"tools":{})")) == invalid + "`tools` must be an array");
    CHECK(refusal(with(R"(,"tools":[{"input_schema":{}}])")) == invalid + "`tools[0].name` must be a string");
    CHECK(refusal(with(R"(,"tools":[{"name":"f","input_schema":{}},{"name":"g"}])")) == invalid + "`tools[1].input_schema` must be an object");
    CHECK(refusal(with(R"(,"tools":[{"name":"f","input_schema":"{}"}])")) == invalid + "`tools[0].input_schema` must be an object");
    CHECK(refusal(with(R"(,"tools":[{"name":"f","description":2,"input_schema":{}}])")) == invalid + "`tools[0].description` must be a string");
    CHECK(refusal(with(R"(,"tools":[{"type":7,"name":"f","input_schema":{}}])")) == invalid + "`tools[0].type` must be a string");

    const std::string one_tool = R"(,"tools":[{"name":"f","input_schema":{}},{"type":"web_search_20250305","name":"web_search"}])";
    CHECK(refusal(with(one_tool + R"(,"tool_choice":"auto")")) == invalid + "`tool_choice` must be an object");
    CHECK(refusal(with(one_tool + R"(,"tool_choice":{"type":"sometimes"})")) ==
          invalid + "`tool_choice.type` is `sometimes`: it must be `auto`, `any`, `tool` or `none`");
    CHECK(refusal(with(one_tool + R"(,"tool_choice":{"type":"tool"})")) == invalid + "`tool_choice.name` must be a string");
    CHECK(refusal(with(one_tool + R"(,"tool_choice":{"type":"tool","name":"g"})")) ==
          invalid + "`tool_choice.name` is `g`, which is not one of the `tools` the gateway sends upstream");
    CHECK(refusal(with(one_tool + R"(,"tool_choice":{"type":"tool","name":"web_search"})")) ==
          invalid + "`tool_choice.name` is `web_search`, which is not one of the `tools` the gateway sends upstream");
    CHECK(refusal(with(one_tool + R"(,"tool_choice":{"type":"auto","disable_parallel_tool_use":"no"})")) ==
          invalid + "`tool_choice.disable_parallel_tool_use` must be a boolean");

    CHECK(refusal(with(R"(,"max_tokens":"100")")) == invalid + "`max_tokens` must be an integer");
    CHECK(refusal(with(R"(,"max_tokens":100.5)")) == invalid + "`max_tokens` must be an integer");
    CHECK(refusal(with(R"(,"top_k":2.5)")) == invalid + "`top_k` must be an integer");
    CHECK(refusal(with(R"(,"temperature":"hot")")) == invalid + "`temperature` must be a number");
    CHECK(refusal(with(R"(,"top_p":[1])")) == invalid + "`top_p` must be a number");
    CHECK(refusal(with(R"(,"temperature":1e400)")) == invalid + "`temperature` is out of range: a number JSON can hold is finite");
    CHECK(refusal(with(R"(,"stop_sequences":"END")")) == invalid + "`stop_sequences` must be an array of strings");
    CHECK(refusal(with(R"(,"stop_sequences":["END",1])")) == invalid + "`stop_sequences` must be an array of strings");
    CHECK(refusal(with(R"(,"stream":"yes")")) == invalid + "`stream` must be a boolean");
}

TEST_CASE("anthropic request: blocks the gateway cannot translate are refused where they are", "[gateway]")
{
    const std::string invalid = "invalid_request: ";
    CHECK(refusal(R"({"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"},)"
                  R"({"role":"user","content":[{"type":"text","text":"Read this"},)"
                  R"({"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBE"}}]}]})") ==
          invalid + "`messages[3].content[1]` is a document with a `base64` source, which the gateway cannot translate (only `text`)");
    CHECK(refusal(R"({"messages":[{"role":"assistant","content":[{"type":"server_tool_use","id":"s","name":"web_search","input":{}}]}]})") ==
          invalid + "`messages[0].content[0]` is a `server_tool_use` block, which the gateway cannot translate in an assistant message");
    CHECK(refusal(R"({"messages":[{"role":"assistant","content":[{"type":"text","text":"x"},)"
                  R"({"type":"web_search_tool_result","tool_use_id":"s","content":[]}]}]})") ==
          invalid + "`messages[0].content[1]` is a `web_search_tool_result` block, which the gateway cannot translate in an assistant message");
    CHECK(refusal(user_says(R"([{"type":"container_upload","file_id":"f"}])")) ==
          invalid + "`messages[0].content[0]` is a `container_upload` block, which the gateway cannot translate in a user message");
    CHECK(refusal(user_says(R"([{"type":"tool_use","id":"t","name":"f","input":{}}])")) ==
          invalid + "`messages[0].content[0]` is a `tool_use` block, which the gateway cannot translate in a user message");
    CHECK(refusal(R"({"messages":[{"role":"assistant","content":[{"type":"image","source":{"type":"url","url":"u"}}]}]})") ==
          invalid + "`messages[0].content[0]` is a `image` block, which the gateway cannot translate in an assistant message");
    CHECK(refusal(R"({"messages":[{"role":"system","content":[{"type":"image","source":{"type":"url","url":"u"}}]}]})") ==
          invalid + "`messages[0].content[0]` is a `image` block, which the gateway cannot translate in a system message");
    CHECK(refusal(R"({"system":[{"type":"text","text":"a"},{"type":"document","source":{"type":"text","data":"d"}}],)"
                  R"("messages":[{"role":"user","content":"x"}]})") ==
          invalid + "`system[1]` is a `document` block, which the gateway cannot translate in a system message");
    CHECK(refusal(user_says(R"([{"type":"image","source":{"type":"file","file_id":"file_1"}}])")) ==
          invalid + "`messages[0].content[0].source` is a `file` image source, which the gateway cannot translate (only `base64` and `url`)");
    CHECK(refusal(user_says(R"([{"type":"tool_result","tool_use_id":"t","content":[{"type":"search_result","source":"s","title":"t","content":[]}]}])")) ==
          invalid + "`messages[0].content[0].content[0]` is a `search_result` block, which the gateway cannot translate in a tool result");
    CHECK(refusal(user_says(R"([{"type":"tool_result","tool_use_id":"t","content":[{"type":"document","source":{"type":"file","file_id":"f"}}]}])")) ==
          invalid + "`messages[0].content[0].content[0]` is a document with a `file` source, which the gateway cannot translate (only `text`)");
}

TEST_CASE("anthropic request: the count_tokens estimate", "[gateway]")
{
    // Bytes: system 4, "12345678" 8, thinking 3 (not its signature), tool_use name 1 + input JSON
    // `{"a":1}` 7, tool result text 2, tools: name 1 + description 2 + schema JSON 17, server tool
    // name 10: 55, so 14 tokens; 4 messages (the system prompt is one) × 4; one image 1600.
    const auto request = object(R"({
      "system": "abcd", "model": "a-long-model-name-that-does-not-count",
      "messages": [
        {"role": "user", "content": [{"type": "text", "text": "12345678", "cache_control": {"type": "ephemeral"}}]},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "hmm", "signature": "SIGSIGSIG"},
                                          {"type": "redacted_thinking", "data": "zzzzzzzz"},
                                          {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": false, "content": [
          {"type": "text", "text": "ok"},
          {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAAAAAAAAAAAAAA"}}]}]}
      ],
      "tools": [{"name": "f", "description": "dd", "input_schema": {"type": "object"}},
                {"type": "web_search_20250305", "name": "web_search", "max_uses": 5}]
    })");
    CHECK(anthropic::estimate_input_tokens(request) == 14 + 4 * 4 + 1600);
    CHECK(anthropic::estimate_input_tokens(request) == anthropic::estimate_input_tokens(request));
    CHECK(anthropic::estimate_input_tokens(object("{}")) == 0);
    CHECK(anthropic::estimate_input_tokens(object(R"({"messages":[{"role":"user","content":"hello"}]})")) == 2 + 4);
    CHECK(anthropic::estimate_input_tokens(object(R"({"messages":[{"role":"user","content":7}],"tools":"x"})")) == 1 + 4);
}

} // namespace test_anthropic_request
