// toolstream-gateway passes on how the upstream ended its answer, and only that: an aborted or
// unknown finish is an error naming it (in the response and the access log), a second finish
// and data after [DONE] change nothing, no tool call is dropped or emptied in silence, the
// request's tools type the arguments, and the usage chunk goes only to a client that asked.
#include "catch_compat.hpp"

#include "gateway/helpers.hpp"

#include <string>
#include <vector>

namespace upstream_terminal_tests {

using namespace gateway_test;

TEST_CASE("gateway: an aborted or unknown upstream finish is an error naming it, never a stop", "[gateway]")
{
    fake_upstream up;
    for (const std::string reason : {"abort", "eos_token"}) {
        INFO(reason);
        const std::string log_path = "gateway_terminal_" + reason + ".jsonl";
        {
            gateway_process gw(gateway_binary, {"--upstream", up.url("/finish/" + reason), "--provider", "openai_chat"},
                               launch_settings{{}, log_path, 0, 60});
            const auto streamed = post(gw.port(), "/v1/chat/completions", chat_body("m", true));
            CHECK(streamed.status == 200);
            const auto r = read_sse(streamed.body);
            CHECK(r.choices.at(0).content == "Hi");
            CHECK(r.choices.at(0).finish_reason.empty());
            CHECK(!r.done);
            REQUIRE(r.error.is_object());
            CHECK(r.error.at("message").as_string().find("'" + reason + "'") != json::string::npos);

            const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
            CHECK(whole.status == 502);
            CHECK(error_code_of(whole) == "upstream_error");
            CHECK(whole.body.find("'" + reason + "'") != std::string::npos);
            CHECK(gw.stop() == 0);
        }
        const auto lines = access_log(log_path);
        REQUIRE(lines.size() == 2);
        for (const auto& line : lines) {
            CHECK(line.at("error") == "upstream_error");
            CHECK(line.at("cause").as_string().find("'" + reason + "'") != json::string::npos);
        }
        std::remove(log_path.c_str());
    }
}

TEST_CASE("gateway: function_call without calls is an error; with a known finish the answer is the upstream's", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/finish/function_call", "openai_chat");
    const auto whole = chat(gw.port(), false).http;
    CHECK(whole.status == 502);
    CHECK(error_code_of(whole) == "upstream_error");
    const auto streamed = chat(gw.port(), true).read;
    CHECK(streamed.error.is_object());
    CHECK(streamed.choices.at(0).finish_reason.empty());

    for (const std::string reason : {"stop", "length", "content_filter"}) {
        INFO(reason);
        auto known = start_gateway(up, "/finish/" + reason, "openai_chat");
        for (const bool stream : {true, false}) {
            const auto [a, r] = chat(known.port(), stream);
            REQUIRE(a.status == 200);
            CHECK(r.problem_list() == "");
            CHECK(r.choices.at(0).finish_reason == reason);
        }
    }
}

TEST_CASE("gateway: a second finish and data after [DONE] change nothing; the log names the second finish", "[gateway]")
{
    fake_upstream up;
    const std::string log_path = "gateway_terminal_ghost.jsonl";
    {
        gateway_process gw(gateway_binary, {"--upstream", up.url("/ghost"), "--provider", "openai_chat"},
                           launch_settings{{}, log_path, 0, 60});
        for (const bool stream : {true, false}) {
            INFO((stream ? "stream:true" : "stream:false"));
            const auto [a, r] = chat(gw.port(), stream);
            REQUIRE(a.status == 200);
            CHECK(r.problem_list() == "");
            CHECK(r.error.is_null());
            CHECK(r.choices.at(0).content == "Hi");
            CHECK(r.choices.at(0).finish_reason == "stop");
            CHECK(a.body.find("GHOST") == std::string::npos);
        }
        CHECK(gw.stop() == 0);
    }
    const auto lines = access_log(log_path);
    REQUIRE(lines.size() == 2);
    for (const auto& line : lines) {
        CHECK(line.at("status") == 200);
        CHECK(line.at("error").is_null());
        CHECK(line.at("cause").as_string().find("finish reason came again") != json::string::npos);
    }
    std::remove(log_path.c_str());
}

TEST_CASE("gateway: the usage chunk goes only to a client that asked for it", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/usage", "openai_chat");
    const json::value usage{{"input_tokens", 9}, {"output_tokens", 2}};
    for (const std::string& extra : {std::string(), std::string(R"(,"stream_options":{"include_usage":false})"),
                                    std::string(R"(,"stream_options":null)")}) {
        INFO(extra);
        const auto a = post(gw.port(), "/v1/chat/completions", chat_body("m", true, extra));
        REQUIRE(a.status == 200);
        CHECK(a.body.find(R"("choices":[])") == std::string::npos);
        const auto r = read_sse(a.body);
        CHECK(r.problem_list() == "");
        CHECK(r.usage.is_null());
        CHECK(json::parse(up.last_body()).at("stream_options").at("include_usage") == true);   // for the metrics
    }
    const auto asked = read_sse(post(gw.port(), "/v1/chat/completions",
                                     chat_body("m", true, R"(,"stream_options":{"include_usage":true})")).body);
    CHECK(asked.usage == usage);
    CHECK(read_completion(post(gw.port(), "/v1/chat/completions", chat_body("m", false)).body).usage == usage);
    const auto bad = post(gw.port(), "/v1/chat/completions", chat_body("m", true, R"(,"stream_options":{"include_usage":1})"));
    CHECK(bad.status == 400);
}

TEST_CASE("gateway: an upstream that stalls after its complete answer has answered", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/finish-then-stall", "openai_chat", {"--upstream-timeout", "500"});
    const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
    CHECK(whole.status == 200);
    const auto w = read_completion(whole.body);
    CHECK(w.choices.at(0).content == "Hi");
    CHECK(w.choices.at(0).finish_reason == "stop");

    const auto streamed = read_sse(post(gw.port(), "/v1/chat/completions", chat_body("m", true)).body);
    CHECK(streamed.problem_list() == "");
    CHECK(streamed.done);
    CHECK(streamed.error.is_null());
    CHECK(streamed.choices.at(0).finish_reason == "stop");

    // The client asked for usage, which never came: the answer is not complete.
    const auto wanting = read_sse(post(gw.port(), "/v1/chat/completions",
                                       chat_body("m", true, R"(,"stream_options":{"include_usage":true})")).body);
    CHECK(!wanting.done);
    REQUIRE(wanting.error.is_object());
    CHECK(wanting.error.at("message").as_string().find("--upstream-timeout") != json::string::npos);
}

TEST_CASE("gateway: past --max-calls or --max-argument-bytes the answer is an error, never fewer or emptied calls", "[gateway]")
{
    fake_upstream up;
    struct limit_case {
        std::string path;
        std::string limit;
    };
    for (const auto& [path, limit] : {limit_case{"/calls/2000/40", "--max-calls (128)"},
                                      limit_case{"/calls/2/5000", "--max-argument-bytes (1024)"}}) {
        INFO(path);
        const std::string log_path = "gateway_terminal_limit.jsonl";
        {
            gateway_process gw(gateway_binary,
                               {"--upstream", up.url(path), "--provider", "openai_chat", "--max-argument-bytes", "1024"},
                               launch_settings{{}, log_path, 0, 60});
            const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
            CHECK(whole.status == 502);
            CHECK(error_code_of(whole) == "tool_call_limit");
            CHECK(whole.body.find(limit) != std::string::npos);

            const auto streamed = read_sse(post(gw.port(), "/v1/chat/completions", chat_body("m", true)).body);
            CHECK(!streamed.done);
            REQUIRE(streamed.error.is_object());
            CHECK(streamed.error.at("message").as_string().find(limit) != json::string::npos);
            CHECK(streamed.choices.at(0).finish_reason.empty());
            // The calls before the limit are whole; the one that went past it stops where it was
            // (here before its first argument byte), the error event after it.
            for (const auto& [index, call] : streamed.choices.at(0).calls)
                CHECK((call.arguments.empty() || parse(call.arguments).is_object()));
            CHECK(streamed.choices.at(0).calls.size() == (path == "/calls/2000/40" ? 128u : 1u));
            const auto m = get(gw.port(), "/metrics");
            CHECK(m.body.find("toolstream_gateway_upstream_errors_total{kind=\"tool_call_limit\"} 2") != std::string::npos);
            CHECK(gw.stop() == 0);
        }
        const auto lines = access_log(log_path);
        REQUIRE(lines.size() >= 2);
        for (std::size_t i = 0; i < 2; ++i) {
            CHECK(lines[i].at("error") == "tool_call_limit");
            CHECK(lines[i].at("cause").as_string().find(limit) != json::string::npos);
        }
        std::remove(log_path.c_str());
    }
}

TEST_CASE("gateway: the request's tools type a text-format call's values", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/text/qwen3_coder", "openai_chat", {"--parser", "qwen3_coder"});
    const std::string parameters = R"({"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}}})";
    // The three shapes of a tools array the gateway takes: Chat, Responses, Anthropic.
    for (const std::string& tools : {R"([{"type":"function","function":{"name":"get_weather","parameters":)" + parameters + "}}]",
                                    R"([{"type":"function","name":"get_weather","parameters":)" + parameters + "}]",
                                    R"([{"name":"get_weather","input_schema":)" + parameters + "}]"}) {
        for (const bool stream : {true, false}) {
            INFO(tools << (stream ? " stream:true" : " stream:false"));
            const auto [a, r] = chat(gw.port(), stream, R"(,"tools":)" + tools);
            REQUIRE(a.status == 200);
            REQUIRE(r.choices.at(0).calls.size() == 1);
            CHECK(parse(r.choices.at(0).calls.begin()->second.arguments) == json::value{{"city", "Paris"}, {"days", 3}});
        }
    }
    // No tools: the values stay as written.
    const auto r = read_completion(post(gw.port(), "/v1/chat/completions", chat_body("m", false)).body);
    REQUIRE(r.choices.at(0).calls.size() == 1);
    CHECK(parse(r.choices.at(0).calls.begin()->second.arguments) == json::value{{"city", "Paris"}, {"days", "3"}});
}

TEST_CASE("gateway: a broken tool call is passed on, then an error; never a clean finish", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/text/broken", "openai_chat", {"--parser", "hermes"});
    const auto streamed = read_sse(post(gw.port(), "/v1/chat/completions", chat_body("m", true)).body);
    CHECK(streamed.choices.at(0).content == "Let me look. ");
    REQUIRE(streamed.choices.at(0).calls.size() == 1);
    CHECK(streamed.choices.at(0).calls.begin()->second.name == "get_weather");
    CHECK(streamed.choices.at(0).finish_reason.empty());
    CHECK(!streamed.done);
    REQUIRE(streamed.error.is_object());
    CHECK(streamed.error.at("message").as_string().find("tool call 'get_weather' is broken") != json::string::npos);

    const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
    CHECK(whole.status == 502);
    CHECK(error_code_of(whole) == "upstream_error");
    CHECK(whole.body.find("tool call 'get_weather' is broken") != std::string::npos);
}

TEST_CASE("gateway: argument fragments for an index no delta opened are not dropped in silence", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/unopened-index", "openai_chat");
    for (const bool stream : {true, false}) {
        INFO((stream ? "stream:true" : "stream:false"));
        const auto [a, r] = chat(gw.port(), stream);
        // The nameless call cannot be run: the answer says so, after the call that can.
        if (stream)
            REQUIRE(r.error.is_object());
        else
            CHECK(a.status == 502);
        const std::string message = stream ? std::string(r.error.at("message").as_string()) : a.body;
        CHECK(message.find("tool call") != std::string::npos);
        CHECK((r.choices.empty() || r.choices.at(0).finish_reason.empty()));
    }
}

} // namespace upstream_terminal_tests
