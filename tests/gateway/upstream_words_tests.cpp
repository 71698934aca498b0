// toolstream-gateway passes on the upstream's own word, safely: its error messages (never a key
// it echoes), its status class and Retry-After; interim 1xx answers are skipped. And the HTTP
// details an operator notices: HEAD, Expect: 100-continue, Host, Transfer-Encoding, signals.
#include "catch_compat.hpp"

#include "gateway/helpers.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace upstream_words_tests {

using namespace gateway_test;

namespace {

constexpr std::string_view upstream_key = "sk-test-secret-0123456789";

/// Sends `first`, then (after the gateway's first bytes, or at once when `wait_for` is empty)
/// `second`, and returns every byte the gateway sends until it closes or `timeout` passes.
std::string conversation(unsigned short port, std::string first, std::string second = {}, std::string_view wait_for = {},
                         std::chrono::milliseconds timeout = std::chrono::seconds(5))
{
    asio::io_context ioc;
    std::string got;
    asio::co_spawn(ioc, [&]() -> asio::awaitable<void> {
        beast::tcp_stream s(co_await asio::this_coro::executor);
        s.expires_after(timeout);
        if (auto [ec] = co_await s.async_connect({asio::ip::make_address("127.0.0.1"), port}, nothrow); ec)
            co_return;
        co_await asio::async_write(s, asio::buffer(first), nothrow);
        std::array<char, 4096> buf{};
        bool sent_second = second.empty();
        for (int reads = 0; reads < 1000; ++reads) {
            if (!sent_second && (wait_for.empty() || got.find(wait_for) != std::string::npos)) {
                co_await asio::async_write(s, asio::buffer(second), nothrow);
                sent_second = true;
            }
            auto [ec, n] = co_await s.async_read_some(asio::buffer(buf), nothrow);
            got.append(buf.data(), n);
            if (ec)
                break;
        }
    }, asio::detached);
    ioc.run_for(timeout + std::chrono::seconds(1));
    return got;
}

} // namespace

TEST_CASE("gateway: a key the upstream echoes is redacted from the client's answer and the log", "[gateway]")
{
    fake_upstream up;
    const std::string log_path = "gateway_words_redaction.jsonl";
    {
        gateway_process gw(gateway_binary,
                           {"--upstream", up.url("/echo-key"), "--provider", "openai_chat", "--upstream-key-env", "TS_UPSTREAM_KEY"},
                           launch_settings{{"TS_UPSTREAM_KEY=" + std::string(upstream_key)}, log_path, 0, 60});
        const auto refused = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
        CHECK(refused.status == 502);
        CHECK(refused.body.find("Incorrect API key provided: [redacted]") != std::string::npos);
        CHECK(up.last_authorization() == "Bearer " + std::string(upstream_key));
        CHECK(gw.stop() == 0);
    }
    {
        gateway_process gw(gateway_binary,
                           {"--upstream", up.url("/llama-error"), "--provider", "openai_chat", "--upstream-key-env", "TS_UPSTREAM_KEY"},
                           launch_settings{{"TS_UPSTREAM_KEY=" + std::string(upstream_key)}, log_path + ".2", 0, 60});
        const auto streamed = post(gw.port(), "/v1/chat/completions", chat_body("m", true));
        CHECK(streamed.body.find("boom") != std::string::npos);
        const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
        CHECK(whole.body.find("boom") != std::string::npos);
        for (const auto* a : {&streamed, &whole})
            CHECK(a->body.find(upstream_key) == std::string::npos);
        CHECK(gw.stop() == 0);
    }
    for (const std::string& path : {log_path, log_path + ".2"}) {
        const auto log = read_text(path);
        CHECK(log.find("[redacted]") != std::string::npos);
        CHECK(log.find(upstream_key) == std::string::npos);
        std::remove(path.c_str());
    }
}

TEST_CASE("gateway: llama.cpp's in-stream error events reach the client with the upstream's message", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/llama-error", "openai_chat");
    const auto r = read_sse(post(gw.port(), "/v1/chat/completions", chat_body("m", true)).body);
    CHECK(r.choices.at(0).content == "Hi");
    REQUIRE(r.error.is_object());
    CHECK(r.error.at("message").as_string().starts_with("boom"));
    const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
    CHECK(whole.status == 502);
    CHECK(error_code_of(whole) == "upstream_error");
    CHECK(parse(whole.body).at("error").at("message").as_string().starts_with("boom"));
}

TEST_CASE("gateway: 429 and 503 keep their status and Retry-After; a 100 Continue before the answer is skipped", "[gateway]")
{
    fake_upstream up;
    for (const unsigned status : {429u, 503u}) {
        INFO(status);
        auto gw = start_gateway(up, "/retry/" + std::to_string(status), "openai_chat");
        for (const bool stream : {true, false}) {
            const auto a = chat(gw.port(), stream).http;
            CHECK(a.status == status);
            CHECK(a.headers[http::field::retry_after] == "7");
            const auto error = parse(a.body).at("error");
            CHECK(error.at("type") == (status == 429 ? "rate_limit_exceeded" : "server_error"));
            CHECK(error.at("code") == (status == 429 ? "rate_limit_exceeded" : "upstream_status"));
            CHECK(error.at("message").as_string().find("slow down") != json::string::npos);
        }
    }
    auto gw = start_gateway(up, "/continue", "openai_chat");
    for (const bool stream : {true, false}) {
        const auto [a, r] = chat(gw.port(), stream);
        REQUIRE(a.status == 200);
        CHECK(r.choices.at(0).content == "Hi");
        CHECK(r.choices.at(0).finish_reason == "stop");
    }
}

TEST_CASE("gateway: HEAD has no body, Expect gets 100 Continue, HTTP/1.1 needs Host, odd Transfer-Encoding is refused", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/finish/stop", "openai_chat");
    // HEAD then GET on one connection: the second answer follows the first's headers at once.
    const auto both = conversation(gw.port(), "HEAD /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                                              "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    const auto first_end = both.find("\r\n\r\n");
    REQUIRE(first_end != std::string::npos);
    CHECK(both.starts_with("HTTP/1.1 200"));
    CHECK(both.find("Content-Length: 15") < first_end);   // GET's length, no body
    CHECK(both.substr(first_end + 4).starts_with("HTTP/1.1 200"));
    CHECK(both.ends_with(R"({"status":"ok"})"));

    // Expect: 100-continue: the gateway asks for the body before the client sends it.
    const std::string body = chat_body("m", false);
    const auto t0 = std::chrono::steady_clock::now();
    const auto expect = conversation(gw.port(),
                                     "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                     "Expect: 100-continue\r\nConnection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n",
                                     body, "100 Continue");
    CHECK(expect.starts_with("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200"));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
    // A body over --max-body is refused from its Content-Length, without 100 Continue.
    const auto big = conversation(gw.port(), "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                             "Expect: 100-continue\r\nContent-Length: 999999999\r\n\r\n");
    CHECK(big.starts_with("HTTP/1.1 413"));

    const auto no_host = conversation(gw.port(), "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n");
    CHECK(no_host.starts_with("HTTP/1.1 400"));
    CHECK(no_host.find("Host header") != std::string::npos);
    CHECK(conversation(gw.port(), "GET /healthz HTTP/1.0\r\n\r\n").starts_with("HTTP/1.0 200"));   // 1.0 has no Host rule

    const auto smuggled = conversation(gw.port(), "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                                  "Transfer-Encoding: xchunked\r\nContent-Length: 5\r\n\r\n{\"a\":");
    CHECK(smuggled.starts_with("HTTP/1.1 400"));
}

TEST_CASE("gateway: a chat cut by the drain gets an error event and its log line; a second SIGTERM stops at once", "[gateway]")
{
    fake_upstream up;
    const std::string log_path = "gateway_words_drain.jsonl";
    {
        gateway_process gw(gateway_binary, {"--upstream", up.url("/drip/200"), "--provider", "openai_chat", "--drain-timeout", "500"},
                           launch_settings{{}, log_path, 0, 60});
        asio::io_context ioc;
        http_answer stream;
        bool signalled = false;
        asio::co_spawn(ioc, [&]() -> asio::awaitable<void> {
            stream = co_await exchange(gw.port(), http::verb::post, "/v1/chat/completions", chat_body("m", true),
                                       std::chrono::seconds(10), [&](const std::string&) {
                                           if (!std::exchange(signalled, true))
                                               gw.terminate();
                                       });
        }, asio::detached);
        ioc.run_for(std::chrono::seconds(10));
        REQUIRE(signalled);
        const auto r = read_sse(stream.body);
        CHECK(r.choices.at(0).content.starts_with("drop "));
        CHECK(!r.done);
        REQUIRE(r.error.is_object());
        CHECK(r.error.at("message").as_string().find("--drain-timeout") != json::string::npos);
        CHECK(gw.wait_exit(std::chrono::seconds(5)) == std::optional<int>(0));
    }
    const auto log = read_text(log_path);
    CHECK(log.find(R"("error":"shutting_down")") != std::string::npos);
    std::remove(log_path.c_str());

    gateway_process gw(gateway_binary, {"--upstream", up.url("/drip/200"), "--provider", "openai_chat", "--drain-timeout", "30000"});
    asio::io_context ioc;
    bool signalled = false;
    std::chrono::steady_clock::time_point second{};
    asio::co_spawn(ioc, [&]() -> asio::awaitable<void> {
        co_await exchange(gw.port(), http::verb::post, "/v1/chat/completions", chat_body("m", true), std::chrono::seconds(10),
                          [&](const std::string&) {
                              if (!std::exchange(signalled, true)) {
                                  gw.terminate();   // the drain waits for this chat, for up to 30 s
                                  std::this_thread::sleep_for(std::chrono::milliseconds(300));
                                  second = std::chrono::steady_clock::now();
                                  gw.terminate();
                              }
                          });
    }, asio::detached);
    ioc.run_for(std::chrono::seconds(10));
    REQUIRE(signalled);
    CHECK(gw.wait_exit(std::chrono::seconds(5)) == std::optional<int>(0));
    CHECK(std::chrono::steady_clock::now() - second < std::chrono::seconds(5));
}

TEST_CASE("gateway: --memory-budget counts what a chat holds: a long stream relayed piece by piece passes", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/native-args/20", "openai_chat", {"--memory-budget", "8388608"});
    const auto streamed = post(gw.port(), "/v1/chat/completions", chat_body("m", true), std::chrono::seconds(60));
    REQUIRE(streamed.status == 200);
    const auto r = read_sse(streamed.body);
    CHECK(r.error.is_null());
    CHECK(r.done);
    REQUIRE(r.choices.at(0).calls.size() == 1);
    CHECK(r.choices.at(0).calls.begin()->second.arguments.size() > (20u << 20));
    // A stream: false answer is built whole: all 20 MB are held, over the budget.
    const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false), std::chrono::seconds(60));
    CHECK(whole.status == 503);
    CHECK(error_code_of(whole) == "memory_budget");
}

TEST_CASE("gateway: a client that does not read its stream ends at --max-duration, logged with its cause", "[gateway]")
{
    fake_upstream up;
    const std::string log_path = "gateway_words_slow_reader.jsonl";
    {
        gateway_process gw(gateway_binary,
                           {"--upstream", up.url("/endless"), "--provider", "openai_chat", "--max-duration", "1500",
                            "--max-response-bytes", "68719476736"},
                           launch_settings{{}, log_path, 0, 60});
        asio::io_context ioc;
        asio::co_spawn(ioc, [&]() -> asio::awaitable<void> {
            beast::tcp_stream s(co_await asio::this_coro::executor);
            if (auto [ec] = co_await s.async_connect({asio::ip::make_address("127.0.0.1"), gw.port()}, nothrow); ec)
                co_return;
            const std::string body = chat_body("m", true);
            const std::string request = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                        "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
            co_await asio::async_write(s, asio::buffer(request), nothrow);
            asio::steady_timer idle(s.get_executor(), std::chrono::seconds(4));   // never reads
            co_await idle.async_wait(nothrow);
        }, asio::detached);
        ioc.run_for(std::chrono::seconds(6));
        CHECK(gw.stop() == 0);
    }
    const auto log = read_text(log_path);
    const auto at = log.find(R"("path":"/v1/chat/completions")");
    REQUIRE(at != std::string::npos);
    const auto line = parse(log.substr(log.rfind('\n', at) + 1, log.find('\n', at) - log.rfind('\n', at) - 1));
    REQUIRE(line.is_object());
    CHECK(line.at("error") == "max_duration");
    CHECK(line.at("cause").as_string().find("--max-duration") != json::string::npos);
    CHECK(line.at("duration_us").to_number<double>() < 3.5e6);
    std::remove(log_path.c_str());
}

TEST_CASE("gateway: numbers pass upstream as the client wrote them; deep schemas pass; bad bodies say what is wrong", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/finish/stop", "openai_chat");
    std::string schema = R"({"type":"string"})";
    for (int level = 0; level < 40; ++level)
        schema = R"({"type":"object","properties":{"a":)" + schema + "}}";
    const std::string extra = R"(,"max_tokens":1e400,"temperature":1e999999,"seed":123456789012345678901234567890,)"
                              R"("tools":[{"type":"function","function":{"name":"f","parameters":)" + schema + "}}]";
    const auto a = post(gw.port(), "/v1/chat/completions", chat_body("m", false, extra));
    CHECK(a.status == 200);
    const std::string sent = up.last_body();
    CHECK(sent.find(R"("max_tokens":1e400,"temperature":1e999999,"seed":123456789012345678901234567890)") != std::string::npos);
    CHECK(sent.find(schema) != std::string::npos);
    CHECK(sent.find("Infinity") == std::string::npos);

    // Ollama's translation must read them: out of range is a 400 naming the field.
    auto ollama = start_gateway(up, "/ollama", "ollama");
    const auto refused = post(ollama.port(), "/v1/chat/completions", chat_body("m", false, R"(,"temperature":1e999999)"));
    CHECK(refused.status == 400);
    CHECK(refused.body.find("options.temperature") != std::string::npos);

    const auto lone = post(gw.port(), "/v1/chat/completions",
                           R"({"model":"m","messages":[{"role":"user","content":"a \ud800 b"}]})");
    CHECK(lone.status == 400);
    CHECK(lone.body.find("lone UTF-16 surrogate") != std::string::npos);
}

} // namespace upstream_words_tests
