// The gateway's request checks and its translation to the upstream dialects (no network).
#include "catch_compat.hpp"

#include "../../programs/gateway/chat_request.hpp"
#include "../../programs/gateway/upstream_request.hpp"

#include <boost/json.hpp>

#include <string>
#include <variant>

namespace test_request_translation {

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

namespace {

std::string refusal_message(std::string_view text)
{
    auto r = gateway::read_chat_request(text);
    return std::holds_alternative<gateway::request_error>(r) ? std::get<gateway::request_error>(r).message : "accepted";
}

/// A request whose one tool's schema nests `levels` objects deep.
std::string nested_schema_request(std::size_t levels)
{
    std::string schema = R"({"type":"string"})";
    for (std::size_t i = 0; i < levels; ++i)
        schema = R"({"type":"object","properties":{"a":)" + schema + "}}";
    return R"({"messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f","parameters":)" +
           schema + "}}]}";
}

} // namespace

TEST_CASE("gateway request: usage only when asked, deep schemas, and what is wrong with a bad body", "[gateway]")
{
    const std::string messages = R"({"messages":[{"role":"user","content":"x"}])";
    CHECK(must_read(messages + "}").include_usage == false);
    CHECK(must_read(messages + R"(,"stream_options":null})").include_usage == false);
    CHECK(must_read(messages + R"(,"stream_options":{}})").include_usage == false);
    CHECK(must_read(messages + R"(,"stream_options":{"include_usage":false}})").include_usage == false);
    CHECK(must_read(messages + R"(,"stream_options":{"include_usage":true}})").include_usage == true);
    CHECK(refusal_code(messages + R"(,"stream_options":{"include_usage":"yes"}})") == "invalid_request");
    CHECK(refusal_code(messages + R"(,"stream_options":true})") == "invalid_request");

    // A real schema 40 levels deep passes (each level is two JSON levels); the bound still holds.
    CHECK(refusal_code(nested_schema_request(40)) == "accepted");
    CHECK(refusal_code(nested_schema_request(200)) == "invalid_json");
    CHECK(refusal_message(nested_schema_request(200)).find("deeper than 256 levels") != std::string::npos);

    // A lone surrogate is named as what it is, leading or trailing, not as a syntax error.
    for (const std::string escape : {R"(\ud800)", R"(\uDBFF)", R"(\udc00)"}) {
        INFO(escape);
        const auto message = refusal_message(R"({"messages":[{"role":"user","content":"a\\ b )" + escape + R"(x"}]})");
        CHECK(message.find(escape + " is a lone UTF-16 surrogate") != std::string::npos);
    }
    CHECK(refusal_code(R"({"messages":[{"role":"user","content":"\ud83d\ude00 \\ud800"}]})") == "accepted");
}

TEST_CASE("gateway request: Chat Completions upstreams stream, with usage for OpenAI-compatible ones", "[gateway]")
{
    const auto r = must_read(R"({"model":"m","messages":[{"role":"user","content":"x"}],"stream":false,)"
                             R"("stream_options":{"include_usage":false},"n":2,"tools":[]})");
    const auto openai = json::parse(std::get<std::string>(gateway::upstream_body(r, "openai_chat"))).as_object();
    CHECK(openai.at("stream") == true);
    CHECK(openai.at("stream_options") == json::object{{"include_usage", true}});
    CHECK(openai.at("n") == 2);
    CHECK(openai.at("messages") == r.body.at("messages"));
    CHECK(openai.at("tools") == json::array{});
    const auto mistral = json::parse(std::get<std::string>(gateway::upstream_body(r, "mistral"))).as_object();
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
    const auto out = json::parse(std::get<std::string>(gateway::upstream_body(r, "ollama"))).as_object();
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

TEST_CASE("gateway request: numbers pass upstream as written; those the translation reads are checked", "[gateway]")
{
    const auto r = must_read(R"({"model":"m", "messages":[{"role":"user","content":"x"}], "max_tokens": 1e400,)"
                             R"( "temperature":1e999999,"seed" : 123456789012345678901234567890, "stream":false,)"
                             R"( "stream_options":{"include_usage":false,"x":1}, "n":2.50, "str\u0065am":false, "nested":{"a":[1e400, "}"]}})");
    const auto openai = std::get<std::string>(gateway::upstream_body(r, "openai_chat"));
    CHECK(openai == R"({"model":"m","messages":[{"role":"user","content":"x"}],"max_tokens":1e400,"temperature":1e999999,)"
                    R"("seed":123456789012345678901234567890,"n":2.50,"nested":{"a":[1e400, "}"]},"stream":true,)"
                    R"("stream_options":{"include_usage":true,"x":1}})");
    const auto mistral = std::get<std::string>(gateway::upstream_body(r, "mistral"));
    CHECK(mistral.ends_with(R"("nested":{"a":[1e400, "}"]},"stream":true})"));

    // Ollama's translation reads them: out of range is a 400 naming the field.
    const auto error_of = [](std::string_view text) {
        const auto e = gateway::upstream_body(must_read(text), "ollama");
        return std::holds_alternative<gateway::request_error>(e) ? std::get<gateway::request_error>(e).message : std::string("accepted");
    };
    const std::string messages = R"({"messages":[{"role":"user","content":"x"}])";
    CHECK(error_of(messages + R"(,"temperature":1e999999})").starts_with("`options.temperature` is out of range"));
    CHECK(error_of(messages + R"(,"max_tokens":1e400})").starts_with("`options.num_predict` is out of range"));
    CHECK(error_of(messages + R"(,"seed":123456789012345678901234567890})").starts_with("`seed` is out of range"));
    CHECK(error_of(messages + R"(,"tools":[{"type":"function","function":{"name":"f","parameters":{"maximum":1e400}}}]})")
              .starts_with("`tools[0].function.parameters.maximum` is out of range"));
    CHECK(error_of(messages + R"(,"seed":18446744073709551615,"temperature":0.5})") == "accepted");
}

} // namespace test_request_translation
