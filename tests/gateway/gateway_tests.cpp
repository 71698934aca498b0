// toolstream-gateway end to end: a fake model server on 127.0.0.1 serving recorded and made-up
// streams, the gateway as a child process in front of it, and HTTP clients on loopback.
#include "catch_compat.hpp"

#include "gateway/helpers.hpp"
#include "gateway/openai_reader.hpp"
#include "support/fixtures.hpp"

#include <toolstream/runtime/registry.hpp>

#include <boost/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <sys/wait.h>

namespace gateway_tests {

using namespace gateway_test;

namespace {

/// Text, reasoning, calls and finish of choice 0 as a client assembled them.
void check_weather_call(const read_response& r, std::string_view text, std::string_view city)
{
    CHECK(r.problem_list() == "");
    REQUIRE(r.choices.size() == 1);
    const auto& c = r.choices.at(0);
    CHECK(c.content == text);
    REQUIRE(c.calls.size() == 1);
    const auto& call = c.calls.begin()->second;
    CHECK(call.name == "get_weather");
    CHECK(!call.id.empty());
    const auto args = parse(call.arguments);
    REQUIRE(args.is_object());
    CHECK(args.at("city") == json::value(city));
    CHECK(c.finish_reason == "tool_calls");
}

} // namespace

TEST_CASE("gateway: GET /v1/models lists the --model names", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/by-model", "openai_chat", {"--model", "qwen3:8b", "--model", "hermes-3"});
    const auto a = get(gw.port(), "/v1/models");
    REQUIRE(a.error.empty());
    CHECK(a.status == 200);
    CHECK(a.content_type == "application/json");
    const auto v = parse(a.body);
    REQUIRE(v.is_object());
    CHECK(v.at("object") == "list");
    const auto& data = v.at("data").as_array();
    REQUIRE(data.size() == 2);
    CHECK(data[0].at("id") == "qwen3:8b");
    CHECK(data[0].at("object") == "model");
    CHECK(data[1].at("id") == "hermes-3");
    CHECK(up.requests() == 0);
}

TEST_CASE("gateway: bad requests get a JSON error with a proper status", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/by-model", "openai_chat", {"--max-body", "4096"});
    const auto port = gw.port();
    const auto expect = [&](const http_answer& a, unsigned status, std::string_view code) {
        INFO(a.error << " " << a.body);
        CHECK(a.error.empty());
        CHECK(a.status == status);
        CHECK(a.content_type == "application/json");
        CHECK(error_code_of(a) == code);
    };
    expect(post(port, "/v1/chat/completions", "{not json"), 400, "invalid_json");
    expect(post(port, "/v1/chat/completions", "[1,2]"), 400, "invalid_request");
    expect(post(port, "/v1/chat/completions", R"({"model":"m"})"), 400, "invalid_request");
    expect(post(port, "/v1/chat/completions", R"({"model":"m","messages":[{"role":"user","content":"x"}],"stream":"yes"})"),
           400, "invalid_request");
    expect(post(port, "/v1/nothing", "{}"), 404, "not_found");
    expect(get(port, "/"), 404, "not_found");

    const auto wrong_method = get(port, "/v1/chat/completions");
    expect(wrong_method, 405, "method_not_allowed");
    CHECK(wrong_method.allow == "POST");
    expect(post(port, "/v1/models", "{}"), 405, "method_not_allowed");

    // Over --max-body: refused from the Content-Length, before the body is read.
    const std::string big = chat_body(std::string(8192, 'm'), true);
    expect(post(port, "/v1/chat/completions", big), 413, "body_too_large");
    expect(run_one([&] { return raw_exchange(port, "GARBAGE\r\n\r\n"); }), 400, "bad_http");

    CHECK(up.requests() == 0);   // none of them reached the model server
    // The gateway still serves after all of that.
    CHECK(get(port, "/v1/models").status == 200);
}

TEST_CASE("gateway: every recorded Chat Completions stream reaches the client as the SDK read it", "[gateway]")
{
    const auto root = fixtures_root();
    if (root.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: skipped");
        return;
    }
    fake_upstream up(root);
    auto gw = start_gateway(up, "/by-model", "openai_chat");
    std::size_t checked = 0;
    for (const auto& f : toolstream::test::load_fixtures({"openai_chat", "deepseek", "groq", "xai", "alibaba"})) {
        const auto rel = std::filesystem::relative(f.stream_path, root).generic_string();
        const auto& expected = f.expected.as_object();
        for (const bool stream : {true, false}) {
            INFO(rel << (stream ? " stream:true" : " stream:false"));
            const auto a = post(gw.port(), "/v1/chat/completions",
                                chat_body(rel, stream, stream ? R"(,"stream_options":{"include_usage":true})" : ""));
            REQUIRE(a.error.empty());
            CHECK(json::parse(up.last_body()).at("stream") == true);   // always streamed upstream
            if (!expected.at("error").is_null()) {
                if (stream) {
                    const auto r = read_sse(a.body);
                    CHECK(r.problem_list() == "");
                    CHECK(r.error.is_object());
                    CHECK(!r.done);
                } else {
                    CHECK(a.status == 502);
                    CHECK(error_code_of(a) == "upstream_error");
                }
                continue;
            }
            REQUIRE(a.status == 200);
            CHECK(a.content_type == (stream ? "text/event-stream" : "application/json"));
            const auto r = stream ? read_sse(a.body) : read_completion(a.body);
            CHECK(r.problem_list() == "");
            CHECK(r.done);
            CHECK(r.error.is_null());
            const auto got = r.summary();
            const auto& want = expected.at("choices").as_array();
            REQUIRE(got.at("choices").as_array().size() == want.size());
            for (std::size_t i = 0; i < want.size(); ++i) {
                const auto& w = want[i].as_object();
                const auto& g = got.at("choices").as_array()[i].as_object();
                CHECK(g.at("text") == w.at("text"));
                CHECK(g.at("reasoning") == w.at("reasoning"));
                CHECK(g.at("finish_reason") == w.at("finish_reason"));
                const auto& wc = w.at("tool_calls").as_array();
                const auto& gc = g.at("tool_calls").as_array();
                REQUIRE(gc.size() == wc.size());
                for (std::size_t k = 0; k < wc.size(); ++k) {
                    CHECK(gc[k].at("id") == wc[k].at("id"));
                    CHECK(gc[k].at("name") == wc[k].at("name"));
                    CHECK(gc[k].at("arguments") == wc[k].at("arguments"));
                }
            }
            CHECK(got.at("usage") == expected.at("usage"));
            ++checked;
        }
    }
    CHECK(checked >= 20);
}

TEST_CASE("gateway: Ollama dialect, request translated and NDJSON answer", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/ollama", "ollama", {"--model", "qwen3:8b"});
    const std::string extra =
        R"(,"max_tokens":64,"temperature":0.2,"stop":"END","response_format":{"type":"json_object"},)"
        R"("tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}])";
    for (const bool stream : {true, false}) {
        INFO((stream ? "stream:true" : "stream:false"));
        const auto a = post(gw.port(), "/v1/chat/completions",
                            chat_body("qwen3:8b", stream, extra + (stream ? R"(,"stream_options":{"include_usage":true})" : "")));
        REQUIRE(a.error.empty());
        REQUIRE(a.status == 200);
        const auto r = stream ? read_sse(a.body) : read_completion(a.body);
        check_weather_call(r, "Checking Paris.", "Paris");
        CHECK(r.choices.at(0).reasoning == "Weather, so a call.");
        CHECK(r.usage == json::value{{"input_tokens", 31}, {"output_tokens", 17}});

        const auto sent = json::parse(up.last_body()).as_object();
        CHECK(sent.at("model") == "qwen3:8b");
        CHECK(sent.at("stream") == true);
        CHECK(sent.at("messages").at(0).at("content") == "What is the weather in Paris?");
        CHECK(sent.at("options").at("num_predict") == 64);
        CHECK(sent.at("options").at("temperature") == 0.2);
        CHECK(sent.at("options").at("stop") == json::array{"END"});
        CHECK(sent.at("format") == "json");
        CHECK(sent.at("tools").at(0).at("function").at("name") == "get_weather");
        CHECK(!sent.contains("max_tokens"));
    }
}

TEST_CASE("gateway: OpenAI-compatible dialect asks for streaming and usage, body otherwise as is", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/text/xml", "openai_chat", {"--parser", "xml"});
    const auto a = post(gw.port(), "/v1/chat/completions", chat_body("m", false, R"(,"n":1,"seed":7)"));
    REQUIRE(a.status == 200);
    const auto sent = json::parse(up.last_body()).as_object();
    CHECK(sent.at("stream") == true);
    CHECK(sent.at("stream_options").at("include_usage") == true);
    CHECK(sent.at("seed") == 7);
    CHECK(sent.at("n") == 1);
    CHECK(sent.at("messages") == json::parse(chat_body("m", false)).at("messages"));
}

TEST_CASE("gateway: tool calls written in model text come out as OpenAI tool calls", "[gateway]")
{
    fake_upstream up;
    std::vector<std::pair<std::string, std::string>> formats{{"/text/xml", "xml"}};
    if (!toolstream::canonical_policy_name("hermes").empty())
        formats.emplace_back("/text/hermes", "hermes");
    else
        WARN("no hermes parser registered yet: only the xml format is checked");
    for (const auto& [path, parser] : formats) {
        auto gw = start_gateway(up, path, "openai_chat", {"--parser", parser});
        for (const bool stream : {true, false}) {
            INFO(parser << (stream ? " stream:true" : " stream:false"));
            const auto a = post(gw.port(), "/v1/chat/completions", chat_body("m", stream));
            REQUIRE(a.status == 200);
            check_weather_call(stream ? read_sse(a.body) : read_completion(a.body), "Let me look. ", "Paris");
        }
    }
}

TEST_CASE("gateway: --parser auto reads each upstream's format, and the access log names it", "[gateway]")
{
    fake_upstream up;
    const std::vector<std::pair<std::string, std::string>> upstreams{
        {"/text/hermes", "hermes"}, {"/text/xml", "xml"}, {"/text/qwen3_coder", "qwen3_coder"}};
    for (const auto& [path, format] : upstreams) {
        const std::string log_path = "gateway_auto_format.jsonl";
        {
            gateway_process gw(gateway_binary, {"--upstream", up.url(path), "--provider", "openai_chat", "--parser", "auto"},
                               launch_settings{{}, log_path, 0, 60});
            const auto a = post(gw.port(), "/v1/chat/completions", chat_body("m", true));
            REQUIRE(a.status == 200);
            const auto r = read_sse(a.body);
            CHECK(r.problem_list() == "");
            CHECK(r.choices.at(0).calls.size() == 1);
            CHECK(gw.stop() == 0);
        }
        const auto lines = access_log(log_path);
        REQUIRE(lines.size() == 1);
        CHECK(std::string(lines[0].at("format").as_string()) == format);   // a mismatch prints the format logged
        std::remove(log_path.c_str());
    }
}

TEST_CASE("gateway: a 1 MiB file written through write_file streams whole", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/big", "openai_chat", {"--parser", "xml"});
    for (const bool stream : {true, false}) {
        INFO((stream ? "stream:true" : "stream:false"));
        const auto a = post(gw.port(), "/v1/chat/completions", chat_body("m", stream));
        REQUIRE(a.status == 200);
        const auto r = stream ? read_sse(a.body) : read_completion(a.body);
        CHECK(r.problem_list() == "");
        const auto& c = r.choices.at(0);
        REQUIRE(c.calls.size() == 1);
        CHECK(c.calls.begin()->second.name == "write_file");
        const auto args = parse(c.calls.begin()->second.arguments);
        REQUIRE(args.is_object());
        CHECK(args.at("path") == "big.txt");
        CHECK(args.at("content").as_string() == big_file());
        CHECK(c.finish_reason == "tool_calls");
        if (stream)
            CHECK(r.chunks > 200);   // streamed live, not in one piece
    }
}

TEST_CASE("gateway: a stalled upstream times out, never hangs", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/stall", "openai_chat", {"--upstream-timeout", "300"});
    const auto streamed = post(gw.port(), "/v1/chat/completions", chat_body("m", true));
    REQUIRE(streamed.error.empty());
    CHECK(streamed.status == 200);
    const auto r = read_sse(streamed.body);
    CHECK(r.problem_list() == "");
    CHECK(r.choices.at(0).content == "Hello");   // what came before the stall was passed on
    REQUIRE(r.error.is_object());
    CHECK(r.error.at("message").as_string().find("timed out") != json::string::npos);

    const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
    CHECK(whole.status == 504);
    CHECK(error_code_of(whole) == "upstream_timeout");
}

TEST_CASE("gateway: an upstream that stops early is upstream_truncated, never a length finish", "[gateway]")
{
    fake_upstream up;
    for (const std::string path : {"/close-early", "/no-finish"}) {
        INFO(path);
        auto gw = start_gateway(up, path, "openai_chat");
        const auto streamed = post(gw.port(), "/v1/chat/completions", chat_body("m", true));
        REQUIRE(streamed.error.empty());
        const auto r = read_sse(streamed.body);
        CHECK(r.problem_list() == "");
        CHECK(r.choices.at(0).content == (path == "/close-early" ? "The answer is forty" : "Half an answer"));
        CHECK(r.choices.at(0).finish_reason != "length");   // the deltas, then an error event
        REQUIRE(r.error.is_object());
        CHECK(r.error.at("message").as_string().find("before the end of its stream") != json::string::npos);
        CHECK(!r.done);

        const auto whole = post(gw.port(), "/v1/chat/completions", chat_body("m", false));
        CHECK(whole.status == 502);
        CHECK(error_code_of(whole) == "upstream_truncated");
    }
}

TEST_CASE("gateway: upstream failures before the stream are 502, 504 or the upstream's 4xx", "[gateway]")
{
    fake_upstream up;
    {
        auto gw = start_gateway(up, "/status/500", "openai_chat");
        const auto a = post(gw.port(), "/v1/chat/completions", chat_body("m", true));
        CHECK(a.status == 502);
        CHECK(error_code_of(a) == "upstream_status");
    }
    {
        auto gw = start_gateway(up, "/status/404", "ollama");
        const auto a = post(gw.port(), "/v1/chat/completions", chat_body("nope", false));
        CHECK(a.status == 404);
        CHECK(error_code_of(a) == "upstream_status");
        CHECK(parse(a.body).at("error").at("message").as_string().find("model \"nope\" not found") != json::string::npos);
        CHECK(a.body.find("secret.py") == std::string::npos);                 // not its whole body
    }
    {
        // A port nobody listens on: bound, then released.
        asio::io_context ioc;
        asio::ip::tcp::acceptor probe(ioc, {asio::ip::make_address("127.0.0.1"), 0});
        const auto closed_port = probe.local_endpoint().port();
        probe.close();
        gateway_process gw(gateway_binary, {"--upstream", "http://127.0.0.1:" + std::to_string(closed_port) + "/v1/chat/completions",
                                            "--provider", "openai_chat"});
        const auto a = post(gw.port(), "/v1/chat/completions", chat_body("m", true));
        CHECK(a.status == 502);
        CHECK(error_code_of(a) == "upstream_unavailable");
    }
}

TEST_CASE("gateway: clients are served concurrently, and --max-streams is enforced", "[gateway]")
{
    fake_upstream up;
    auto gw = start_gateway(up, "/slow/100", "openai_chat", {"--max-streams", "2"});
    const auto port = gw.port();
    asio::io_context ioc;
    std::vector<http_answer> slow(2);
    http_answer refused, models;
    int started = 0;
    // Two slow streams; once both have sent their first bytes, a third chat is refused and
    // /v1/models is answered while both are still streaming.
    for (int i = 0; i < 2; ++i)
        asio::co_spawn(ioc, [&, i]() -> asio::awaitable<void> {
            slow[i] = co_await exchange(port, http::verb::post, "/v1/chat/completions", chat_body("m", true),
                                        std::chrono::seconds(20), [&, first = true](const std::string&) mutable {
                                            if (std::exchange(first, false) && ++started == 2)
                                                asio::co_spawn(ioc, [&]() -> asio::awaitable<void> {
                                                    refused = co_await exchange(port, http::verb::post, "/v1/chat/completions", chat_body("m", true));
                                                    models = co_await exchange(port, http::verb::get, "/v1/models", {});
                                                }, asio::detached);
                                        });
        }, asio::detached);
    ioc.run_for(std::chrono::seconds(30));

    REQUIRE(started == 2);
    CHECK(refused.status == 503);
    CHECK(error_code_of(refused) == "too_many_streams");
    CHECK(models.status == 200);
    for (const auto& s : slow) {
        REQUIRE(s.error.empty());
        CHECK(read_sse(s.body).choices.at(0).content == "tick 0 tick 1 tick 2 tick 3 tick 4 ");
        CHECK(models.finished < s.finished);   // not queued behind the streams
    }
    // The streams overlapped: each began before the other ended.
    CHECK(slow[0].first_body_byte < slow[1].finished);
    CHECK(slow[1].first_body_byte < slow[0].finished);
    // And once they are done, a slot is free again.
    CHECK(post(port, "/v1/chat/completions", chat_body("m", false)).status == 200);
}

TEST_CASE("gateway: bad command lines exit with status 2", "[gateway]")
{
    const auto exit_of = [](const std::string& args) {
        const int status = std::system((gateway_binary + " " + args + " >/dev/null 2>&1").c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    CHECK(exit_of("--upstream https://127.0.0.1/x --provider openai_chat") == 2);   // plain HTTP only
    CHECK(exit_of("--upstream http://127.0.0.1:1/x --provider anthropic") == 2);    // no request dialect
    CHECK(exit_of("--upstream http://127.0.0.1:1/x --provider ollama --parser nope") == 2);
    CHECK(exit_of("--upstream http://127.0.0.1:1/x --provider ollama --max-streams 0") == 2);
    CHECK(exit_of("--provider ollama") == 2);
    // A good command line runs until --exit-after.
    CHECK(exit_of("--upstream http://127.0.0.1:1/x --provider ollama --listen 127.0.0.1:0 --exit-after 1") == 0);
}

} // namespace gateway_tests
