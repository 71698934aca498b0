// The gateway's Anthropic Messages and OpenAI Responses routes end to end, through real HTTP on
// loopback: a native tool call as each dialect streams and builds it, who may call them, and the
// errors in each dialect's shape. Terminal states, count_tokens, models, the log and metrics, and
// raw-text models: dialect_terminal_tests.cpp.
#include "catch_compat.hpp"

#include "gateway/dialect_helpers.hpp"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace dialect_route_tests {

using namespace gateway_test;

namespace {

const std::vector<std::pair<std::string, std::string>> claude_code_headers{
    {"anthropic-version", "2023-06-01"}, {"anthropic-beta", "fine-grained-tool-streaming-2025-05-14"},
    {"x-api-key", "sk-ant-client-1"}};

std::string whole_arguments()
{
    std::string out;
    for (const auto& p : native_call_pieces())
        out += p;
    return out;
}

/// The `event:` names of an SSE body, pings left out and runs of one name written once.
std::vector<std::string> event_runs(const std::string& sse)
{
    std::vector<std::string> out;
    for (std::size_t at = sse.find("event: "); at != std::string::npos; at = sse.find("\nevent: ", at + 1)) {
        const auto start = sse.find("event: ", at) + 7;
        const auto name = sse.substr(start, sse.find('\n', start) - start);
        if (name != "ping" && (out.empty() || out.back() != name))
            out.push_back(name);
    }
    return out;
}

std::size_t count_of(const std::string& text, std::string_view what)
{
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++n;
    return n;
}

} // namespace

TEST_CASE("gateway dialects: a native tool call on /v1/messages?beta=true, streamed as Anthropic events and whole", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/native-call/tool_calls", "openai_chat");
    const auto a = post_with(gw.port(), "/v1/messages?beta=true", messages_body(true), claude_code_headers);
    REQUIRE(a.status == 200);
    CHECK(a.content_type == "text/event-stream");
    CHECK(event_runs(a.body) == std::vector<std::string>{"message_start", "content_block_start", "content_block_delta",
                                                          "content_block_stop", "message_delta", "message_stop"});
    CHECK(count_of(a.body, "\"input_json_delta\"") >= 2);   // the arguments stream as they arrive
    const auto r = read_anthropic_sse(a.body);
    CHECK(lines_of(r.violations) == "");
    REQUIRE(r.content().size() == 1);
    const auto& block = r.content()[0];
    CHECK(block.at("type") == "tool_use");
    CHECK(block.at("id") == "call_w1");
    CHECK(block.at("name") == "get_weather");
    CHECK(r.json_texts[0] == whole_arguments());   // exactly the upstream's text
    CHECK(block.at("input") == json::value{{"city", "Paris"}, {"days", 3}});
    CHECK(r.stopped[0]);
    CHECK(r.stop_reason() == "tool_use");
    CHECK(r.message.at("usage").at("output_tokens") == 13);
    CHECK(r.message.at("usage").at("input_tokens") == 21);
    CHECK(r.message_stopped);
    CHECK(!r.error);
    // The request went upstream as Chat, streaming, with the tool; the client's x-api-key as a bearer token.
    const auto sent = parse(up.last_body());
    CHECK(sent.at("stream") == true);
    CHECK(sent.at("tools").at(0).at("function").at("name") == "get_weather");
    CHECK(up.last_authorization() == "Bearer sk-ant-client-1");

    const auto w = post_with(gw.port(), "/v1/messages?beta=true", messages_body(false), claude_code_headers);
    REQUIRE(w.status == 200);
    CHECK(w.content_type == "application/json");
    const auto m = parse(w.body);
    REQUIRE(m.is_object());
    CHECK(m.at("type") == "message");
    CHECK(m.at("role") == "assistant");
    REQUIRE(m.at("content").as_array().size() == 1);
    const auto& call = m.at("content").at(0);
    CHECK(call.at("type") == "tool_use");
    CHECK(call.at("id") == "call_w1");
    CHECK(call.at("name") == "get_weather");
    CHECK(call.at("input") == json::value{{"city", "Paris"}, {"days", 3}});
    CHECK(m.at("stop_reason") == "tool_use");
    CHECK(m.at("usage").at("output_tokens") == 13);
    CHECK(m.at("usage").at("input_tokens") == 21);
}

TEST_CASE("gateway dialects: a native tool call on /v1/responses, streamed as response.* events and whole", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/native-call/tool_calls", "openai_chat");
    const auto a = post(gw.port(), "/v1/responses", responses_body(true));
    REQUIRE(a.status == 200);
    CHECK(a.content_type == "text/event-stream");
    const auto r = read_responses_sse(a.body);
    CHECK(lines_of(r.violations) == "");   // sequence_number counts from 0, created and in_progress first...
    REQUIRE(!r.types.empty());
    CHECK(r.types.front() == "response.created");
    const auto zero = a.body.find(R"("sequence_number":0)"), one = a.body.find(R"("sequence_number":1)");
    CHECK((zero != std::string::npos && one != std::string::npos && zero < one));
    CHECK(r.count("response.function_call_arguments.delta") >= 2);
    REQUIRE(r.items.size() == 1);
    const auto& item = r.items[0];
    CHECK(item.type == "function_call");
    CHECK(item.name == "get_weather");
    CHECK(item.call_id == "call_w1");
    CHECK(item.text == whole_arguments());
    CHECK(item.done.at("arguments") == whole_arguments().c_str());
    CHECK(item.done.at("status") == "completed");
    CHECK(r.terminal == "response.completed");
    CHECK(r.types.back() == "response.completed");
    CHECK(r.response.at("status") == "completed");
    CHECK(r.response.at("usage").at("output_tokens") == 13);
    CHECK(r.response.at("usage").at("input_tokens") == 21);

    const auto w = post(gw.port(), "/v1/responses", responses_body(false));
    REQUIRE(w.status == 200);
    const auto response = parse(w.body);
    REQUIRE(response.is_object());
    CHECK(response.at("object") == "response");
    CHECK(response.at("status") == "completed");
    REQUIRE(response.at("output").as_array().size() == 1);
    const auto& call = response.at("output").at(0);
    CHECK(call.at("type") == "function_call");
    CHECK(call.at("name") == "get_weather");
    CHECK(call.at("call_id") == "call_w1");
    CHECK(call.at("arguments") == whole_arguments().c_str());
    CHECK(response.at("usage").at("output_tokens") == 13);
}

TEST_CASE("gateway dialects: --api-key-env takes x-api-key or Bearer on every route; a 401 in the route's shape", "[gateway]")
{
    fake_upstream up;
    gateway_process gw(gateway_binary,
                       {"--upstream", up.url("/native-call/tool_calls"), "--provider", "openai_chat", "--api-key-env", "GW_DIALECT_KEY"},
                       launch_settings{{"GW_DIALECT_KEY=sk-gw-0123456789"}, {}, 0, 60});
    const auto port = gw.port();
    const auto call = [&](const std::string& target, std::vector<std::pair<std::string, std::string>> headers) {
        headers.emplace_back("anthropic-version", "2023-06-01");
        return post_with(port, target, target == "/v1/messages" ? messages_body(false)
                                       : target == "/v1/responses" ? responses_body(false)
                                                                   : chat_body("m", false),
                         std::move(headers));
    };
    CHECK(call("/v1/messages", {{"x-api-key", "sk-gw-0123456789"}}).status == 200);
    CHECK(call("/v1/messages", {{"authorization", "Bearer sk-gw-0123456789"}}).status == 200);
    CHECK(call("/v1/responses", {{"x-api-key", "sk-gw-0123456789"}}).status == 200);
    CHECK(up.requests() == 3);
    CHECK(up.last_authorization().empty());   // the client's key to the gateway never goes upstream

    for (const auto& headers : std::vector<std::vector<std::pair<std::string, std::string>>>{
             {{"x-api-key", "sk-gw-0123456788"}}, {{"authorization", "Bearer sk-gw-012345678"}}, {}}) {
        INFO((headers.empty() ? std::string("no key") : headers[0].first + ": " + headers[0].second));
        const auto messages = call("/v1/messages", headers);
        CHECK(messages.status == 401);
        CHECK(anthropic_error_type_of(messages) == "authentication_error");
        CHECK(messages.headers[http::field::www_authenticate] == "Bearer");
        for (const std::string target : {"/v1/responses", "/v1/chat/completions"}) {
            INFO(target);
            const auto openai = call(target, headers);
            CHECK(openai.status == 401);
            CHECK(error_code_of(openai) == "invalid_api_key");
            CHECK(parse(openai.body).at("error").at("type") == "invalid_request_error");
        }
    }
    const auto counted = post_with(port, "/v1/messages/count_tokens", messages_body(false), {});
    CHECK(counted.status == 401);
    CHECK(anthropic_error_type_of(counted) == "authentication_error");
    CHECK(up.requests() == 3);
}

TEST_CASE("gateway dialects: a bad body, previous_response_id and --max-body, each in its route's shape", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/native-call/tool_calls", "openai_chat", {"--max-body", "2048"});
    const auto port = gw.port();
    const auto role = post(port, "/v1/messages", R"({"model":"m","max_tokens":16,"messages":[{"role":"robot","content":"hi"}]})");
    CHECK(role.status == 400);
    CHECK(anthropic_error_type_of(role) == "invalid_request_error");
    CHECK(error_message_of(role).find("`messages[0].role`") != std::string::npos);
    const auto no_messages = post(port, "/v1/messages?beta=true", R"({"model":"m","max_tokens":16})");
    CHECK(no_messages.status == 400);
    CHECK(anthropic_error_type_of(no_messages) == "invalid_request_error");
    CHECK(error_message_of(no_messages).find("messages") != std::string::npos);
    const auto not_json = post(port, "/v1/messages", R"({"model":"m",)");
    CHECK(not_json.status == 400);
    CHECK(anthropic_error_type_of(not_json) == "invalid_request_error");

    const auto stateful = post(port, "/v1/responses", responses_body(true, R"(,"previous_response_id":"resp_1")"));
    CHECK(stateful.status == 400);
    CHECK(error_code_of(stateful) == "invalid_request");
    CHECK(error_message_of(stateful).find("`previous_response_id`") != std::string::npos);
    CHECK(error_message_of(stateful).find("keeps no state") != std::string::npos);
    CHECK(up.requests() == 0);
}

TEST_CASE("gateway dialects: a body over --max-body on /v1/messages is 413 in Anthropic's shape, however it is sent", "[gateway]")
{
    fake_upstream up;
    const std::string log_path = "gateway_dialect_max_body.jsonl";
    {
        gateway_process gw(gateway_binary, {"--upstream", up.url("/native-call/tool_calls"), "--provider", "openai_chat",
                                            "--max-body", "2048"},
                           launch_settings{{}, log_path, 0, 60});
        const std::string large = messages_body(false, std::string(4096, 'x'));
        // Chunked (no Content-Length): the limit is found while the body is read.
        const auto chunked = send_with(gw.port(), http::verb::post, "/v1/messages", large, [](auto& req) { req.chunked(true); });
        CHECK(chunked.status == 413);
        CHECK(anthropic_error_type_of(chunked) == "request_too_large");
        CHECK(error_message_of(chunked).find("--max-body") != std::string::npos);
        // With a Content-Length over the limit: refused from the header, the same shape.
        const auto sized = post(gw.port(), "/v1/messages?beta=true", large);
        CHECK(sized.status == 413);
        CHECK(anthropic_error_type_of(sized) == "request_too_large");
        CHECK(error_message_of(sized).find("--max-body") != std::string::npos);
        CHECK(up.requests() == 0);
        CHECK(gw.stop() == 0);
    }
    const auto lines = access_log(log_path);
    REQUIRE(lines.size() == 2);
    for (const auto& line : lines) {
        CHECK(line.at("status") == 413);
        CHECK(line.at("error") == "body_too_large");
        CHECK(line.at("route") == "/v1/messages");
    }
    std::remove(log_path.c_str());
}

TEST_CASE("gateway dialects: an upstream's 429, 503 and 500 on /v1/messages in Anthropic's shape, Retry-After kept", "[gateway]")
{
    fake_upstream up;
    struct status_case {
        std::string path;
        unsigned status;
        std::string type, words;
    };
    for (const auto& [path, status, type, words] : {status_case{"/retry/429", 429, "rate_limit_error", "slow down"},
                                                     status_case{"/retry/503", 503, "overloaded_error", "slow down"},
                                                     status_case{"/status/500", 502, "api_error", "not found"}}) {
        auto gw = start_gateway(up, path, "openai_chat");
        for (const bool stream : {true, false}) {
            INFO(path << (stream ? " stream:true" : " stream:false"));
            const auto a = post_with(gw.port(), "/v1/messages?beta=true", messages_body(stream), claude_code_headers);
            CHECK(a.status == status);
            CHECK(a.content_type == "application/json");
            CHECK(anthropic_error_type_of(a) == type);
            CHECK(error_message_of(a).find(words) != std::string::npos);
            CHECK(a.body.find("secret.py") == std::string::npos);   // the upstream's message, never its whole body
            CHECK(a.headers[http::field::retry_after] == (path.starts_with("/retry/") ? "7" : ""));
            if (status == 429) {   // and in OpenAI's shape on /v1/responses
                const auto o = post(gw.port(), "/v1/responses", responses_body(stream));
                CHECK(o.status == 429);
                CHECK(error_code_of(o) == "rate_limit_exceeded");
                CHECK(o.headers[http::field::retry_after] == "7");
            }
        }
    }
}

} // namespace dialect_route_tests
