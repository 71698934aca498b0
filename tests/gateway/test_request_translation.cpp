// The gateway's request checks and its translation to the upstream dialects (no network).
#include "catch_compat.hpp"

#include "../../programs/gateway/request_translation.hpp"

#include <boost/json.hpp>

#include <string>
#include <variant>

namespace {

namespace json = boost::json;

gateway::chat_request must_read(std::string_view text)
{
    auto r = gateway::read_chat_request(text);
    REQUIRE(std::holds_alternative<gateway::chat_request>(r));
    return std::get<gateway::chat_request>(std::move(r));
}

std::string refusal_code(std::string_view text)
{
    auto r = gateway::read_chat_request(text);
    return std::holds_alternative<gateway::request_error>(r) ? std::get<gateway::request_error>(r).code : "accepted";
}

} // namespace

TEST_CASE("gateway request: checked before anything is sent", "[gateway]")
{
    CHECK(refusal_code("") == "invalid_json");
    CHECK(refusal_code("{\"messages\":[") == "invalid_json");
    CHECK(refusal_code("\"text\"") == "invalid_request");
    CHECK(refusal_code("{}") == "invalid_request");
    CHECK(refusal_code(R"({"messages":[]})") == "invalid_request");
    CHECK(refusal_code(R"({"messages":{}})") == "invalid_request");
    CHECK(refusal_code(R"({"messages":[{"role":"user","content":"x"}],"stream":1})") == "invalid_request");
    CHECK(refusal_code(R"({"messages":[{"role":"user","content":"x"}],"stream":null})") == "accepted");
    CHECK(must_read(R"({"messages":[{"role":"user","content":"x"}]})").stream == false);
    CHECK(must_read(R"({"messages":[{"role":"user","content":"x"}],"stream":true})").stream == true);
}

TEST_CASE("gateway request: Chat Completions upstreams stream, with usage for OpenAI-compatible ones", "[gateway]")
{
    const auto r = must_read(R"({"model":"m","messages":[{"role":"user","content":"x"}],"stream":false,)"
                             R"("stream_options":{"include_usage":false},"n":2,"tools":[]})");
    const auto openai = json::parse(gateway::upstream_body(r, "openai_chat")).as_object();
    CHECK(openai.at("stream") == true);
    CHECK(openai.at("stream_options") == json::object{{"include_usage", true}});
    CHECK(openai.at("n") == 2);
    CHECK(openai.at("messages") == r.body.at("messages"));
    CHECK(openai.at("tools") == json::array{});
    const auto mistral = json::parse(gateway::upstream_body(r, "mistral")).as_object();
    CHECK(mistral.at("stream") == true);
    CHECK(!mistral.contains("stream_options"));
}

TEST_CASE("gateway request: an OpenAI conversation in Ollama's /api/chat dialect", "[gateway]")
{
    const auto r = must_read(R"({
      "model": "qwen3:8b", "stream": false, "max_completion_tokens": 100, "top_p": 0.9, "seed": 3,
      "stop": ["a", "b"], "think": true,
      "response_format": {"type": "json_schema", "json_schema": {"name": "w", "schema": {"type": "object"}}},
      "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}],
      "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "What is "}, {"type": "text", "text": "this?"},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0K"}}]},
        {"role": "assistant", "content": null, "reasoning_content": "A call.",
         "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
                        {"id": "call_2", "type": "function", "function": {"name": "noop", "arguments": ""}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "18C"},
        {"role": "tool", "tool_call_id": "call_unknown", "content": "?"}
      ]})");
    const auto out = json::parse(gateway::upstream_body(r, "ollama")).as_object();
    CHECK(out.at("model") == "qwen3:8b");
    CHECK(out.at("stream") == true);
    CHECK(out.at("think") == true);
    CHECK(out.at("options") == json::parse(R"({"top_p":0.9,"seed":3,"num_predict":100,"stop":["a","b"]})"));
    CHECK(out.at("format") == json::object{{"type", "object"}});
    CHECK(out.at("tools") == r.body.at("tools"));
    const auto& m = out.at("messages").as_array();
    REQUIRE(m.size() == 5);
    CHECK(m[0] == json::parse(R"({"role":"system","content":"Be brief."})"));
    CHECK(m[1] == json::parse(R"({"role":"user","content":"What is this?","images":["iVBORw0K"]})"));
    CHECK(m[2] == json::parse(R"({"role":"assistant","content":"","thinking":"A call.","tool_calls":[
        {"function":{"name":"get_weather","arguments":{"city":"Paris"}}},
        {"function":{"name":"noop","arguments":{}}}]})"));
    CHECK(m[3] == json::parse(R"({"role":"tool","content":"18C","tool_name":"get_weather"})"));
    CHECK(m[4] == json::parse(R"({"role":"tool","content":"?"})"));
}
