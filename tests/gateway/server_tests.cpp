// toolstream-gateway as an operator and an attacker see it (issue 20, §4-5): connection limits,
// flags, stalled and HTTP/1.0 clients, SIGTERM, and who may call it.
#include "catch_compat.hpp"

#include "gateway/helpers.hpp"
#include "support/build_kind.hpp"

#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/registry.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <sys/wait.h>

namespace server_tests {

using namespace gateway_test;

namespace {

// The sanitizers' runtime needs descriptors of its own (UBSan's vptr check opens a pipe to probe
// memory), so under ASan+UBSan a gateway out of descriptors reports a false "invalid vptr" and
// aborts. The exhaustion case runs in the unsanitized builds (CI's Clang 16 suite).
using toolstream::test::sanitized_build;

struct run_result {
    int status = -1;
    std::string out, err;
};

/// The gateway with `args`, its stdout and stderr (bounded by --exit-after when it runs).
run_result run_gateway(const std::string& args)
{
    const std::string out = "gateway_cli_out.txt", err = "gateway_cli_err.txt";
    const int status = std::system((gateway_binary + " " + args + " >" + out + " 2>" + err).c_str());
    const auto slurp = [](const std::string& p) {
        std::string s = read_text(p);
        std::remove(p.c_str());
        return s;
    };
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

/// `script` run by the shell, its stdout and stderr.
run_result run_gateway_script(const std::string& script)
{
    const std::string out = "gateway_script_out.txt";
    const int status = std::system(("{ " + script + "; } >" + out + " 2>&1").c_str());
    std::string text = read_text(out);
    std::remove(out.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text, {}};
}

/// An idle connection held open (not a request).
std::unique_ptr<asio::ip::tcp::socket> hold_connection(asio::io_context& ioc, unsigned short port)
{
    auto s = std::make_unique<asio::ip::tcp::socket>(ioc);
    boost::system::error_code ec;
    s->connect({asio::ip::make_address("127.0.0.1"), port}, ec);
    return s;
}

} // namespace

TEST_CASE("gateway: --help, and usage errors that name the argument and why", "[gateway]")
{
    const auto help = run_gateway("--help");
    CHECK(help.status == 0);
    CHECK(help.out.starts_with("usage: toolstream-gateway"));
    CHECK(help.out.find("--max-duration") != std::string::npos);
    const std::string base = "--upstream http://127.0.0.1:1/x --provider ollama ";
    const std::vector<std::pair<std::string, std::string>> bad{
        {base + "--upstream-timeout 9000000000000000", "--upstream-timeout: 9000000000000000 is out of range"},
        {base + "--client-timeout 9223372036854775807", "--client-timeout: 9223372036854775807 is out of range"},
        {base + "--max-streams 0", "--max-streams: 0 is out of range"},
        {base + "--threads abc", "--threads: 'abc' is not a whole number"},
        {base + "--max-duration", "--max-duration needs a value"},
        {base + "--parser qwen", "--parser: unknown parser 'qwen'"},
        {base + "--reasoning-parser nope", "--reasoning-parser: unknown reasoning parser 'nope'"},
        {"--upstream https://127.0.0.1/x --provider openai_chat", "--upstream: 'https://127.0.0.1/x' is not"},
        {"--upstream http://127.0.0.1:1/x --provider anthropic", "--provider: unknown provider 'anthropic'"},
        {base + "--api-key-env TOOLSTREAM_TEST_UNSET_VARIABLE", "TOOLSTREAM_TEST_UNSET_VARIABLE is not set"},
        {base + "--frobnicate 1", "unknown option '--frobnicate'"},
        {"--provider ollama", "--upstream http://HOST[:PORT]/PATH is required"},
    };
    for (const auto& [args, says] : bad) {
        INFO(args);
        const auto r = run_gateway(args);
        CHECK(r.status == 2);
        CHECK(r.err.find(says) != std::string::npos);
    }
    CHECK(run_gateway(base + "--listen 127.0.0.1:0 --exit-after 1").status == 0);
}

TEST_CASE("gateway: --parser takes every registered policy, --reasoning-parser every reasoning parser", "[gateway]")
{
    // All at once (each runs its second of --exit-after), naming any that did not start and stop cleanly.
    const std::string base = gateway_binary + " --upstream http://127.0.0.1:1/x --provider openai_chat --listen 127.0.0.1:0 --exit-after 1 ";
    std::string script;
    const auto launch = [&](const std::string& flags) {
        script += "(" + base + flags + " >/dev/null 2>&1 || echo 'refused: " + flags + "') & ";
    };
    for (const std::string_view name : toolstream::policy_names)
        launch("--parser " + std::string(name));
    for (const auto& reasoning : toolstream::reasoning_parsers)
        launch("--reasoning-parser " + std::string(reasoning.name));
    const auto r = run_gateway_script(script + "wait");
    CHECK(r.status == 0);
    CHECK(r.out.empty());
}

TEST_CASE("gateway: --max-connections, and a 503 rather than a hang when descriptors run out", "[gateway]")
{
    fake_upstream up;
    asio::io_context ioc;
    {
        auto gw = start_gateway(up, "/slow/10", "openai_chat", {"--max-connections", "8"});
        std::vector<std::unique_ptr<asio::ip::tcp::socket>> held;
        for (int i = 0; i < 8; ++i)
            held.push_back(hold_connection(ioc, gw.port()));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        const auto refused = get(gw.port(), "/v1/models");
        CHECK(refused.status == 503);
        CHECK(error_code_of(refused) == "too_many_connections");
        held.clear();
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        CHECK(get(gw.port(), "/v1/models").status == 200);
    }
    if (sanitized_build) {
        WARN("descriptor exhaustion is checked in unsanitized builds only (the sanitizers need descriptors)");
    } else {
        // 64 descriptors, far fewer than --max-connections: the kernel's limit is reached first.
        gateway_process gw(gateway_binary, {"--upstream", up.url("/slow/10"), "--provider", "openai_chat"},
                           launch_settings{{}, {}, 64, 60});
        std::vector<std::unique_ptr<asio::ip::tcp::socket>> held;
        for (int i = 0; i < 80; ++i)
            held.push_back(hold_connection(ioc, gw.port()));
        const auto t0 = std::chrono::steady_clock::now();
        const auto refused = post(gw.port(), "/v1/chat/completions", chat_body("m", false), std::chrono::seconds(5));
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3));
        CHECK(refused.status == 503);
        held.clear();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        CHECK(post(gw.port(), "/v1/chat/completions", chat_body("m", false)).status == 200);
    }
}

TEST_CASE("gateway: a stalled request body gets 408; HTTP/1.0 gets no chunked encoding", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/text/xml", "openai_chat", {"--client-timeout", "500", "--parser", "xml"});
    const auto stalled = run_one([&] {
        return raw_exchange(gw.port(), "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                       "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"mod");
    });
    CHECK(stalled.status == 408);
    CHECK(error_code_of(stalled) == "request_timeout");

    const auto body = chat_body("m", true);
    const auto old = run_one([&] {
        return raw_exchange(gw.port(), "POST /v1/chat/completions HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                       "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
    });
    CHECK(old.error == "");
    CHECK(old.status == 200);
    CHECK(old.version == 10);
    CHECK(old.headers[http::field::transfer_encoding] == "");
    const auto r = read_sse(old.body);
    CHECK(r.problem_list() == "");
    CHECK(r.done);
    CHECK(r.choices.at(0).calls.size() == 1);
}

TEST_CASE("gateway: SIGTERM stops accepting, lets streams finish, exits 0", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/slow/300", "openai_chat");
    const auto port = gw.port();
    asio::io_context ioc;
    http_answer stream;
    bool signalled = false;
    asio::co_spawn(ioc, [&]() -> asio::awaitable<void> {
        stream = co_await exchange(port, http::verb::post, "/v1/chat/completions", chat_body("m", true),
                                   std::chrono::seconds(20), [&](const std::string&) {
                                       if (!std::exchange(signalled, true))
                                           gw.terminate();
                                   });
    }, asio::detached);
    ioc.run_for(std::chrono::seconds(20));
    REQUIRE(signalled);
    CHECK(stream.error == "");
    const auto r = read_sse(stream.body);
    CHECK(r.done);
    CHECK(r.choices.at(0).content == "tick 0 tick 1 tick 2 tick 3 tick 4 ");
    CHECK(gw.wait_exit(std::chrono::seconds(5)) == std::optional<int>(0));
    CHECK(!get(port, "/healthz").error.empty());   // nobody listens any more
}

TEST_CASE("gateway: Host, Origin and Content-Type checks stop browser attacks", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/text/xml", "openai_chat", {"--parser", "xml", "--allow-origin", "http://app.example"});
    const auto port = gw.port();
    const auto chat = [&](std::function<void(http::request<http::string_body>&)> prepare) {
        return send_with(port, http::verb::post, "/v1/chat/completions", chat_body("m", false), std::move(prepare));
    };
    // DNS rebinding: the page's own name as Host.
    const auto rebound = chat([](auto& req) { req.set(http::field::host, "attacker.example:8080"); });
    CHECK(rebound.status == 421);
    CHECK(error_code_of(rebound) == "host_not_allowed");
    CHECK(chat([](auto& req) { req.set(http::field::host, "localhost:8080"); }).status == 200);
    // A foreign page's fetch.
    const auto foreign = chat([](auto& req) { req.set(http::field::origin, "http://evil.example"); });
    CHECK(foreign.status == 403);
    CHECK(error_code_of(foreign) == "origin_not_allowed");
    // A form post needs no preflight: text/plain is refused.
    const auto form = chat([](auto& req) { req.set(http::field::content_type, "text/plain"); });
    CHECK(form.status == 415);
    CHECK(error_code_of(form) == "unsupported_media_type");
    // The allowed origin: preflight, then the call, both with CORS headers.
    const auto preflight = send_with(port, http::verb::options, "/v1/chat/completions", {}, [](auto& req) {
        req.set(http::field::origin, "http://app.example");
        req.set(http::field::access_control_request_method, "POST");
        req.set(http::field::access_control_request_headers, "content-type, authorization");
    });
    CHECK(preflight.status == 204);
    CHECK(preflight.headers[http::field::access_control_allow_origin] == "http://app.example");
    CHECK(preflight.headers[http::field::access_control_allow_methods].find("POST") != std::string::npos);
    CHECK(preflight.headers[http::field::access_control_allow_headers] == "content-type, authorization");
    const auto allowed = chat([](auto& req) { req.set(http::field::origin, "http://app.example"); });
    CHECK(allowed.status == 200);
    CHECK(allowed.headers[http::field::access_control_allow_origin] == "http://app.example");
    CHECK(up.requests() == 2);
}

TEST_CASE("gateway: --api-key-env and --upstream-key-env; keys never logged", "[gateway]")
{
    fake_upstream up;
    const std::string log_path = "gateway_auth_log_test.jsonl";
    {
        gateway_process gw(gateway_binary,
                           {"--upstream", up.url("/text/xml"), "--provider", "openai_chat", "--parser", "xml",
                            "--api-key-env", "GW_TEST_KEY", "--upstream-key-env", "GW_TEST_UPSTREAM_KEY"},
                           launch_settings{{"GW_TEST_KEY=sk-client-0123456789", "GW_TEST_UPSTREAM_KEY=sk-upstream-9876"}, log_path, 0, 60});
        const auto port = gw.port();
        const auto with_key = [&](std::string key) {
            return send_with(port, http::verb::post, "/v1/chat/completions", chat_body("m", false), [key](auto& req) {
                if (!key.empty())
                    req.set(http::field::authorization, key);
            });
        };
        const auto none = with_key("");
        CHECK(none.status == 401);
        CHECK(error_code_of(none) == "invalid_api_key");
        CHECK(none.headers[http::field::www_authenticate] == "Bearer");
        CHECK(with_key("Bearer sk-client-0123456788").status == 401);
        CHECK(with_key("Bearer sk-client-012345678").status == 401);
        CHECK(with_key("Basic sk-client-0123456789").status == 401);
        CHECK(up.requests() == 0);
        CHECK(with_key("Bearer sk-client-0123456789").status == 200);
        CHECK(up.last_authorization() == "Bearer sk-upstream-9876");   // the gateway's, not the client's
        CHECK(get(port, "/healthz").status == 200);                     // no key needed to probe
        CHECK(gw.stop() == 0);
    }
    const std::string log = read_text(log_path);
    CHECK(log.find("\"status\":401") != std::string::npos);
    CHECK(log.find("sk-client") == std::string::npos);
    CHECK(log.find("sk-upstream") == std::string::npos);
    std::remove(log_path.c_str());
}

} // namespace server_tests
