// A client's request on each route, read into the Chat Completions request the chat core sends
// upstream (client_requests.hpp): the translated ones keep their text, and lead with one system
// message.
#include "catch_compat.hpp"

#include "../../programs/gateway/client_requests.hpp"

#include <boost/json.hpp>

#include <string>
#include <variant>

namespace test_client_requests {

namespace {

namespace json = boost::json;

json::array messages_read(gateway::dialect api, std::string_view body, gateway::client_request& kept)
{
    auto read = gateway::read_client_request(api, body, kept);
    REQUIRE(std::holds_alternative<gateway::chat_request>(read));
    const auto& chat = std::get<gateway::chat_request>(read);
    CHECK(chat.text == kept.chat_text);   // the request the core serves is the one kept
    return chat.body.at("messages").as_array();
}

} // namespace

TEST_CASE("client requests: Anthropic's system prompt and system messages between turns lead as one", "[gateway]")
{
    gateway::client_request kept;
    const auto messages = messages_read(gateway::dialect::anthropic_messages, R"({
        "model": "m", "max_tokens": 100, "stream": true,
        "system": [{"type": "text", "text": "You are Claude Code."}, {"type": "text", "text": "Be brief."}],
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "system", "content": "<system-reminder>todo list empty</system-reminder>"},
            {"role": "assistant", "content": "hello"},
            {"role": "user", "content": [{"type": "text", "text": "go"}]}]})", kept);
    CHECK(messages == json::parse(R"([
        {"role": "system", "content": "You are Claude Code.\n\nBe brief.\n\n<system-reminder>todo list empty</system-reminder>"},
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello"},
        {"role": "user", "content": "go"}])").as_array());
}

TEST_CASE("client requests: Responses instructions and developer messages lead as one system message", "[gateway]")
{
    gateway::client_request kept;
    const auto messages = messages_read(gateway::dialect::openai_responses, R"({
        "model": "m", "instructions": "You are Codex.",
        "input": [
            {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "sandbox: none"}]},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "run it"}]}],
        "tools": [{"type": "custom", "name": "apply_patch", "description": "patch"}]})", kept);
    REQUIRE(messages.size() == 2);
    CHECK(messages[0] == json::parse(R"({"role": "system", "content": "You are Codex.\n\nsandbox: none"})"));
    CHECK(messages[1].at("role") == "user");
    REQUIRE(kept.tools.contains("apply_patch"));   // the custom tool, for the answer to map back
    CHECK(kept.tools.at("apply_patch").kind == gateway::responses::tool_kind::custom);
}

TEST_CASE("client requests: a translated request without a system message keeps every message as it was", "[gateway]")
{
    gateway::client_request kept;
    const auto messages = messages_read(gateway::dialect::anthropic_messages, R"({
        "model": "m", "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "get", "input": {"q": "Paris"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "rain"}]}]})", kept);
    CHECK(messages == json::parse(R"([
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": null,
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get", "arguments": "{\"q\":\"Paris\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "rain"}])").as_array());
}

TEST_CASE("client requests: a Chat request is served as its client wrote it, system messages in place", "[gateway]")
{
    gateway::client_request kept;
    const std::string body = R"({"model":"m","messages":[{"role":"user","content":"a"},{"role":"system","content":"b"}]})";
    auto read = gateway::read_client_request(gateway::dialect::openai_chat, body, kept);
    REQUIRE(std::holds_alternative<gateway::chat_request>(read));
    CHECK(std::get<gateway::chat_request>(read).text == body);
    CHECK(kept.chat_text.empty());
    CHECK(std::get<gateway::chat_request>(read).body.at("messages").as_array().at(1).at("role") == "system");
}

TEST_CASE("client requests: a translation's refusal and a body that is not JSON are 400s of the route", "[gateway]")
{
    gateway::client_request kept;
    auto bad = gateway::read_client_request(gateway::dialect::anthropic_messages, R"({"model":"m","messages":7})", kept);
    REQUIRE(std::holds_alternative<gateway::request_error>(bad));
    CHECK(std::get<gateway::request_error>(bad).message.find("messages") != std::string::npos);
    bad = gateway::read_client_request(gateway::dialect::openai_responses, "{\"input\":", kept);
    REQUIRE(std::holds_alternative<gateway::request_error>(bad));
    CHECK(std::get<gateway::request_error>(bad).code == "invalid_json");
}

} // namespace test_client_requests
