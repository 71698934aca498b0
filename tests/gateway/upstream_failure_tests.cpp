// toolstream-gateway against clients that leave and upstreams that misbehave (issue 20, §1-3
// and §6): every resource is freed, memory stays bounded, and a bad answer is an error.
#include "catch_compat.hpp"

#include "gateway/helpers.hpp"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace upstream_failure_tests {

using namespace gateway_test;

namespace {

/// The value of a Prometheus line `name value` in GET /metrics (-1 when absent).
double metric(unsigned short port, std::string_view name)
{
    const auto m = get(port, "/metrics");
    const auto at = m.body.find("\n" + std::string(name) + " ");
    if (at == std::string::npos)
        return -1;
    return std::stod(m.body.substr(at + name.size() + 2));
}

/// Polls `ready` every 20 ms for at most `limit`; whether it came true.
template<class Ready>
bool within(std::chrono::milliseconds limit, Ready ready)
{
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!ready()) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

} // namespace

TEST_CASE("gateway: clients that leave free their slot and their upstream request within a second", "[gateway]")
{
    fake_upstream up;
    // One token every 2 s: without the watch, the slots would stay taken for minutes.
    auto gw = start_gateway(up, "/drip/2000", "openai_chat", {"--max-streams", "4"});
    const auto port = gw.port();
    for (int round = 0; round < 2; ++round) {   // twice the slots: all must have come back
        asio::io_context ioc;
        for (int i = 0; i < 4; ++i)   // two of each mode; each client gives up after 300 ms
            asio::co_spawn(ioc, exchange(port, http::verb::post, "/v1/chat/completions", chat_body("m", i % 2 == 0),
                                         std::chrono::milliseconds(300)), asio::detached);
        ioc.run_for(std::chrono::seconds(5));
        const auto left = std::chrono::steady_clock::now();
        CHECK(within(std::chrono::milliseconds(1500), [&] { return up.open_streams() == 0; }));
        CHECK(std::chrono::steady_clock::now() - left < std::chrono::milliseconds(1500));
        CHECK(within(std::chrono::milliseconds(1500), [&] { return metric(port, "toolstream_gateway_streams_in_flight") == 0; }));
    }
    CHECK(up.requests() == 8);
    CHECK(metric(port, "toolstream_gateway_upstream_errors_total{kind=\"client_gone\"}") == 8);
}

TEST_CASE("gateway: --max-duration ends a chat whose upstream drips forever", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/drip/200", "openai_chat", {"--max-duration", "1000", "--upstream-timeout", "5000"});
    const auto t0 = std::chrono::steady_clock::now();
    const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3));
    CHECK(whole.status == 504);
    CHECK(error_code_of(whole) == "max_duration");

    const auto streamed = post(gw.port(), "/v1/chat/completions", chat_body("m", true));
    CHECK(streamed.status == 200);
    const auto r = read_sse(streamed.body);
    CHECK(r.choices.at(0).content.starts_with("drop drop "));
    REQUIRE(r.error.is_object());
    CHECK(r.error.at("message").as_string().find("--max-duration") != json::string::npos);
    CHECK(within(std::chrono::seconds(1), [&] { return up.open_streams() == 0; }));
}

TEST_CASE("gateway: an endless upstream stops at --max-response-bytes, memory stays bounded", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/endless", "openai_chat", {"--max-response-bytes", "8388608"});
    const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
    CHECK(whole.status == 502);
    CHECK(error_code_of(whole) == "response_too_large");

    const auto streamed = post(gw.port(), "/v1/chat/completions", chat_body("m", true));
    CHECK(streamed.status == 200);
    const auto r = read_sse(streamed.body);
    REQUIRE(r.error.is_object());
    CHECK(r.error.at("message").as_string().find("--max-response-bytes") != json::string::npos);
    CHECK(within(std::chrono::seconds(1), [&] { return up.open_streams() == 0; }));
    INFO("peak RSS " << gw.peak_rss_kib() << " KiB");
    CHECK(gw.peak_rss_kib() < 200 * 1024);
}

TEST_CASE("gateway: --memory-budget bounds all chats together", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/endless", "openai_chat",
                            {"--max-response-bytes", "68719476736", "--memory-budget", "4194304"});
    const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
    CHECK(whole.status == 503);
    CHECK(error_code_of(whole) == "memory_budget");
}

TEST_CASE("gateway: bad upstream answers are errors, never an empty success", "[gateway]")
{
    fake_upstream up;
    for (const std::string path : {"/html", "/random"}) {
        INFO(path);
        auto gw = start_gateway(up, path, "openai_chat");
        const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
        CHECK(whole.status == 502);
        CHECK(error_code_of(whole) == "upstream_bad_answer");
        const auto streamed = post(gw.port(), "/v1/chat/completions", chat_body("m", true));
        if (path == "/html") {   // refused from its Content-Type, before anything is sent
            CHECK(streamed.status == 502);
            CHECK(error_code_of(streamed) == "upstream_bad_answer");
            CHECK(whole.body.find("text/html") != std::string::npos);
        } else {                 // a stream with nothing of the dialect in it
            CHECK(streamed.status == 200);
            const auto r = read_sse(streamed.body);
            REQUIRE(r.error.is_object());
            CHECK(!r.done);
        }
    }
}

TEST_CASE("gateway: a non-streamed chat.completion answer is translated whole", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/json-completion", "openai_chat");
    for (const bool stream : {true, false}) {
        INFO((stream ? "stream:true" : "stream:false"));
        const auto a = post(gw.port(), "/v1/chat/completions", chat_body("m", stream));
        REQUIRE(a.status == 200);
        const auto r = stream ? read_sse(a.body) : read_completion(a.body);
        CHECK(r.problem_list() == "");
        const auto& c = r.choices.at(0);
        CHECK(c.content == "Checking Paris.");
        REQUIRE(c.calls.size() == 1);
        CHECK(c.calls.begin()->second.id == "call_whole_1");
        CHECK(c.calls.begin()->second.name == "get_weather");
        CHECK(parse(c.calls.begin()->second.arguments) == json::value{{"city", "Paris"}});
        CHECK(c.finish_reason == "tool_calls");
    }
}

TEST_CASE("gateway: generated tool-call ids are unique across responses", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/text/xml", "openai_chat", {"--parser", "xml"});
    std::vector<std::string> ids;
    for (int i = 0; i < 4; ++i) {
        const auto a = post(gw.port(), "/v1/chat/completions", chat_body("m", i % 2 == 0));
        const auto r = i % 2 == 0 ? read_sse(a.body) : read_completion(a.body);
        REQUIRE(r.choices.at(0).calls.size() == 1);
        ids.push_back(r.choices.at(0).calls.begin()->second.id);
        CHECK(ids.back().starts_with("call_"));
    }
    std::sort(ids.begin(), ids.end());
    CHECK(std::unique(ids.begin(), ids.end()) == ids.end());
}

TEST_CASE("gateway: --reasoning-parser splits reasoning out of the model's text", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/text/think", "openai_chat", {"--reasoning-parser", "qwen3"});
    for (const bool stream : {true, false}) {
        const auto a = post(gw.port(), "/v1/chat/completions", chat_body("m", stream));
        const auto r = stream ? read_sse(a.body) : read_completion(a.body);
        CHECK(r.choices.at(0).reasoning == "hmm");
        CHECK(r.choices.at(0).content == "Answer");
    }
}

TEST_CASE("gateway: one JSON access-log line per request, upstream failures with their cause", "[gateway]")
{
    fake_upstream up;
    const std::string log_path = "gateway_access_log_test.jsonl";
    {
        gateway_process gw(gateway_binary, {"--upstream", up.url("/status/500"), "--provider", "openai_chat"},
                           launch_settings{{}, log_path, 0, 60});
        CHECK(post(gw.port(), "/v1/chat/completions", chat_body("m", true)).status == 502);
        CHECK(get(gw.port(), "/v1/models").status == 200);
        const auto m = get(gw.port(), "/metrics");
        CHECK(m.content_type.starts_with("text/plain"));
        CHECK(m.body.find("toolstream_gateway_requests_total{status=\"502\"} 1") != std::string::npos);
        CHECK(m.body.find("toolstream_gateway_ttfb_seconds_bucket{le=\"+Inf\"} 2") != std::string::npos);
        CHECK(m.body.find("toolstream_gateway_request_duration_seconds_count 2") != std::string::npos);
        CHECK(m.body.find("toolstream_gateway_upstream_errors_total{kind=\"upstream_status\"} 1") != std::string::npos);
        CHECK(gw.stop() == 0);
    }
    const auto lines = access_log(log_path);
    REQUIRE(lines.size() >= 2);
    const auto& chat = lines[0];
    for (const char* key : {"time", "method", "path", "status", "bytes_in", "bytes_out", "duration_us", "ttfb_us",
                            "upstream_status", "error"})
        CHECK(chat.contains(key));
    CHECK(chat.at("path") == "/v1/chat/completions");
    CHECK(chat.at("status") == 502);
    CHECK(chat.at("upstream_status") == 500);
    CHECK(chat.at("error") == "upstream_status");
    CHECK(chat.at("cause").as_string().find("secret.py") != json::string::npos);   // the raw body, for the operator
    CHECK(lines[1].at("path") == "/v1/models");
    CHECK(lines[1].at("error").is_null());
    std::remove(log_path.c_str());
}

} // namespace upstream_failure_tests
