// The gateway's Anthropic Messages and OpenAI Responses routes end to end (continued from
// dialect_route_tests.cpp): honest terminal states (an upstream that dies mid call, a call cut by
// the token limit), count_tokens and the model list, the access log and route metrics, and a
// raw-text model's reasoning and calls.
#include "catch_compat.hpp"

#include "gateway/dialect_helpers.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace dialect_terminal_tests {

using namespace gateway_test;

namespace {

/// The first half of the /native-call stream's arguments: what comes before it is cut.
std::string half_arguments()
{
    const auto& pieces = native_call_pieces();
    std::string out;
    for (std::size_t i = 0; i < pieces.size() / 2; ++i)
        out += pieces[i];
    return out;
}

} // namespace

TEST_CASE("gateway dialects: an upstream that dies mid tool call is an error in each dialect, never a finish", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/native-call/cut", "openai_chat");
    const auto a = post(gw.port(), "/v1/messages", messages_body(true));
    REQUIRE(a.status == 200);
    const auto r = read_anthropic_sse(a.body);
    CHECK(lines_of(r.violations) == "");   // nothing after the error event
    REQUIRE(r.content().size() == 1);
    CHECK(r.content()[0].at("name") == "get_weather");
    CHECK(r.json_texts[0] == half_arguments());
    REQUIRE(r.error);
    CHECK(r.error->find("before the end of its stream") != std::string::npos);   // upstream_truncated
    const auto error_at = a.body.find("event: error");
    CHECK((error_at != std::string::npos && error_at > a.body.rfind("input_json_delta")));
    CHECK(!r.message_stopped);
    CHECK(a.body.find("message_stop") == std::string::npos);
    CHECK(a.body.find("message_delta") == std::string::npos);

    const auto o = post(gw.port(), "/v1/responses", responses_body(true));
    REQUIRE(o.status == 200);
    const auto s = read_responses_sse(o.body);
    CHECK(lines_of(s.violations) == "");
    REQUIRE(s.items.size() == 1);
    CHECK(s.items[0].text == half_arguments());
    CHECK(s.terminal == "response.failed");
    CHECK(s.count("response.completed") == 0);
    CHECK(s.count("response.incomplete") == 0);
    CHECK(s.error().find("before the end of its stream") != std::string::npos);

    const auto whole_messages = post(gw.port(), "/v1/messages", messages_body(false));
    CHECK(whole_messages.status == 502);
    CHECK(anthropic_error_type_of(whole_messages) == "api_error");
    CHECK(error_message_of(whole_messages).find("before the end of its stream") != std::string::npos);
    const auto whole_responses = post(gw.port(), "/v1/responses", responses_body(false));
    CHECK(whole_responses.status == 502);
    CHECK(error_code_of(whole_responses) == "upstream_truncated");
    CHECK(parse(whole_responses.body).at("error").at("type") == "upstream_error");
}

TEST_CASE("gateway dialects: a call cut by the token limit is max_tokens or incomplete, its call left unfinished", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/native-call/length", "openai_chat");
    const auto a = post(gw.port(), "/v1/messages", messages_body(true));
    REQUIRE(a.status == 200);
    const auto r = read_anthropic_sse(a.body);
    CHECK(lines_of(r.violations) == "");
    CHECK(!r.error);
    CHECK(r.stop_reason() == "max_tokens");
    REQUIRE(r.content().size() == 1);
    CHECK(r.content()[0].at("type") == "tool_use");
    CHECK(r.json_texts[0] == half_arguments());
    CHECK(!r.stopped[0]);   // the tool_use block is never stopped: no client runs it
    CHECK(a.body.find("content_block_stop") == std::string::npos);
    CHECK(r.message_stopped);

    const auto w = post(gw.port(), "/v1/messages", messages_body(false));
    REQUIRE(w.status == 200);
    const auto m = parse(w.body);
    CHECK(m.at("stop_reason") == "max_tokens");
    CHECK(m.at("content").at(0).at("type") == "tool_use");
    CHECK(m.at("content").at(0).at("name") == "get_weather");

    const auto o = post(gw.port(), "/v1/responses", responses_body(true));
    REQUIRE(o.status == 200);
    const auto s = read_responses_sse(o.body);
    CHECK(lines_of(s.violations) == "");
    CHECK(s.terminal == "response.incomplete");
    CHECK(s.count("response.completed") == 0);
    CHECK(s.response.at("incomplete_details").at("reason") == "max_output_tokens");
    REQUIRE(s.items.size() == 1);
    CHECK(s.items[0].text == half_arguments());
    CHECK(s.items[0].done.at("status") == "incomplete");

    const auto whole = post(gw.port(), "/v1/responses", responses_body(false));
    REQUIRE(whole.status == 200);
    const auto response = parse(whole.body);
    CHECK(response.at("status") == "incomplete");
    CHECK(response.at("incomplete_details").at("reason") == "max_output_tokens");
    CHECK(response.at("output").at(0).at("status") == "incomplete");
}

TEST_CASE("gateway dialects: count_tokens estimates without the upstream; /v1/models in both shapes", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/native-call/tool_calls", "openai_chat", {"--model", "a", "--model", "b"});
    const auto count = [&](const std::string& text) {
        const auto a = post(gw.port(), "/v1/messages/count_tokens?beta=true",
                            R"({"model":"m","max_tokens":16,"messages":[{"role":"user","content":")" + text + R"("}]})");
        REQUIRE(a.status == 200);
        const auto v = parse(a.body);
        REQUIRE(v.is_object());
        CHECK(v.as_object().size() == 1);
        return v.at("input_tokens").to_number<std::int64_t>();
    };
    const auto short_count = count("hello");
    const auto long_count = count(std::string(400, 'x'));
    CHECK(short_count > 0);
    CHECK(long_count > short_count);
    CHECK(short_count == 2 + 4);    // ceil(5 / 4) + 4 for the message (docs/gateway.md)
    CHECK(long_count == 100 + 4);
    CHECK(count("hello") == short_count);
    const auto tools = parse(post(gw.port(), "/v1/messages/count_tokens", messages_body(false)).body);
    CHECK(tools.at("input_tokens").to_number<std::int64_t>() > count("What is the weather in Paris?"));   // the tools count
    const auto bad = post(gw.port(), "/v1/messages/count_tokens", R"({"model":"m","messages":[]})");
    CHECK(bad.status == 400);
    CHECK(anthropic_error_type_of(bad) == "invalid_request_error");
    CHECK(up.requests() == 0);

    const auto models = get(gw.port(), "/v1/models");
    REQUIRE(models.status == 200);
    const auto list = parse(models.body);
    REQUIRE(list.is_object());
    REQUIRE(list.at("data").as_array().size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
        const auto& model = list.at("data").at(i);
        CHECK(model.at("id") == (i == 0 ? "a" : "b"));
        CHECK(model.at("type") == "model");
        CHECK(model.at("object") == "model");
        CHECK(model.at("display_name") == model.at("id"));
    }
    CHECK(list.at("has_more") == false);
    CHECK(list.at("first_id") == "a");
    CHECK(list.at("last_id") == "b");
}

TEST_CASE("gateway dialects: the access log names the route; /metrics counts requests by route", "[gateway]")
{
    fake_upstream up;
    const std::string log_path = "gateway_dialect_routes.jsonl";
    {
        gateway_process gw(gateway_binary, {"--upstream", up.url("/native-call/tool_calls"), "--provider", "openai_chat"},
                           launch_settings{{}, log_path, 0, 60});
        const auto port = gw.port();
        CHECK(post(port, "/v1/messages?beta=true", messages_body(true)).status == 200);
        CHECK(post(port, "/v1/responses", responses_body(true)).status == 200);
        CHECK(post(port, "/v1/responses", responses_body(false)).status == 200);
        CHECK(post(port, "/v1/responses", responses_body(false, R"(,"conversation":"c")")).status == 400);
        CHECK(post(port, "/v1/messages/count_tokens", messages_body(false)).status == 200);
        CHECK(post(port, "/v1/message", messages_body(false)).status == 404);
        const auto route_count = [](const std::string& metrics, std::string_view route) {
            const std::string name = "toolstream_gateway_route_requests_total{route=\"" + std::string(route) + "\"} ";
            const auto at = metrics.find(name);
            return at == std::string::npos ? std::string("(absent)") : metrics.substr(at + name.size(), metrics.find('\n', at) - at - name.size());
        };
        const auto first = get(port, "/metrics").body;
        CHECK(route_count(first, "/v1/responses") == "3");
        CHECK(route_count(first, "/v1/messages") == "1");
        CHECK(route_count(first, "/v1/messages/count_tokens") == "1");
        CHECK(route_count(first, "/v1/chat/completions") == "0");
        CHECK(route_count(first, "other") == "1");
        CHECK(route_count(first, "/metrics") == "0");
        CHECK(route_count(get(port, "/metrics").body, "/metrics") == "1");
        CHECK(gw.stop() == 0);
    }
    const auto lines = access_log(log_path);
    REQUIRE(lines.size() == 8);
    CHECK(lines[0].at("path") == "/v1/messages");   // the query string left out
    CHECK(lines[0].at("route") == "/v1/messages");
    CHECK(lines[0].at("status") == 200);
    CHECK(lines[0].at("error").is_null());
    for (std::size_t i = 1; i <= 3; ++i)
        CHECK(lines[i].at("route") == "/v1/responses");
    CHECK(lines[3].at("status") == 400);
    CHECK(lines[3].at("error") == "invalid_request");
    CHECK(lines[4].at("route") == "/v1/messages/count_tokens");
    CHECK(lines[5].at("path") == "/v1/message");
    CHECK(lines[5].at("route") == "other");
    std::remove(log_path.c_str());
}

TEST_CASE("gateway dialects: a raw-text model's reasoning and Hermes call as thinking and tool_use, reasoning and function_call", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/text/think-hermes", "openai_chat", {"--parser", "hermes", "--reasoning-parser", "qwen3"});
    const json::value paris{{"city", "Paris"}};
    const auto a = post(gw.port(), "/v1/messages", messages_body(true));
    REQUIRE(a.status == 200);
    const auto thinking_at = a.body.find("\"thinking_delta\""), signature_at = a.body.find("\"signature_delta\"");
    CHECK((thinking_at != std::string::npos && signature_at != std::string::npos && thinking_at < signature_at));
    const auto r = read_anthropic_sse(a.body);
    CHECK(lines_of(r.violations) == "");
    REQUIRE(r.content().size() == 2);
    CHECK(r.content()[0].at("type") == "thinking");
    CHECK(r.content()[0].at("thinking") == "plan");
    CHECK(r.content()[0].at("signature") == "toolstream-unsigned");
    CHECK(r.content()[1].at("type") == "tool_use");
    CHECK(r.content()[1].at("name") == "get_weather");
    CHECK(r.content()[1].at("input") == paris);
    CHECK(r.stop_reason() == "tool_use");

    const auto m = parse(post(gw.port(), "/v1/messages", messages_body(false)).body);
    REQUIRE(m.is_object());
    REQUIRE(m.at("content").as_array().size() == 2);
    CHECK(m.at("content").at(0).at("thinking") == "plan");
    CHECK(m.at("content").at(1).at("input") == paris);
    CHECK(m.at("stop_reason") == "tool_use");

    const auto s = read_responses_sse(post(gw.port(), "/v1/responses", responses_body(true)).body);
    CHECK(lines_of(s.violations) == "");
    REQUIRE(s.items.size() == 2);
    CHECK(s.items[0].type == "reasoning");
    CHECK(s.items[0].text == "plan");
    CHECK(s.items[1].type == "function_call");
    CHECK(s.items[1].name == "get_weather");
    CHECK(parse(s.items[1].text) == paris);
    CHECK(s.terminal == "response.completed");

    const auto o = parse(post(gw.port(), "/v1/responses", responses_body(false)).body);
    REQUIRE(o.is_object());
    REQUIRE(o.at("output").as_array().size() == 2);
    CHECK(o.at("output").at(0).at("type") == "reasoning");
    CHECK(o.at("output").at(1).at("type") == "function_call");
    CHECK(parse(std::string(o.at("output").at(1).at("arguments").as_string())) == paris);
    CHECK(o.at("status") == "completed");
}

} // namespace dialect_terminal_tests
