// toolstream-gateway --viewer (issue 24): every chat's events in the viewer feed, tagged with its
// stream, while the client gets its own copy; off by default, loopback only unless
// --viewer-remote, behind the gateway's key when one is set.
#include "catch_compat.hpp"

#include "gateway/helpers.hpp"
#include "gateway/viewer_client.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

namespace viewer_tests {

using namespace gateway_test;

TEST_CASE("gateway --viewer: a chat's events in the feed, tagged with its stream, beside the client's copy", "[gateway][viewer]")
{
    fake_upstream up;
    const std::string log_path = "gateway_viewer_log_test.jsonl";
    gateway_process gw(gateway_binary, {"--upstream", up.url("/ollama"), "--provider", "ollama", "--viewer", "127.0.0.1:0"},
                       launch_settings{{}, log_path, 0, 60});
    const auto viewer = viewer_port_of(log_path);
    REQUIRE(viewer != 0);
    CHECK(own_listening_ports(gw.pid()) == std::set<unsigned short>{gw.port(), viewer});

    const auto page = get(viewer, "/");
    CHECK(page.status == 200);
    CHECK(page.content_type.starts_with("text/html"));
    CHECK(page.body.find("<html") != std::string::npos);

    asio::io_context ioc;
    feed_read feed;
    http_answer chat;
    chat.error = "not run";
    const auto start_chat = [&] {   // once the page is on the feed: it sees the chat from its start
        asio::co_spawn(ioc, exchange(gw.port(), http::verb::post, "/v1/chat/completions", chat_body("qwen3:8b", true)),
                       [&](std::exception_ptr e, http_answer a) {
                           if (!e)
                               chat = std::move(a);
                       });
    };
    asio::co_spawn(ioc, read_feed(viewer, "/feed", {}, [](const auto& lines) { return finished(lines, {"1"}); }, start_chat,
                                  std::chrono::seconds(20)),
                   [&](std::exception_ptr e, feed_read f) {
                       if (!e)
                           feed = std::move(f);
                   });
    ioc.run_for(std::chrono::seconds(30));

    INFO(feed.error << " " << chat.error);
    REQUIRE(feed.status == 200);
    REQUIRE(chat.status == 200);
    REQUIRE(!feed.lines.empty());
    CHECK(feed.lines.front() == json::object{{"type", "reset"}});
    const auto mine = lines_of(feed.lines, "1");
    CHECK(mine.size() + 1 == feed.lines.size());   // everything but the reset is the chat's

    // The client's own copy, unchanged by the viewer beside it.
    const auto client = read_sse(chat.body);
    CHECK(client.problem_list() == "");
    REQUIRE(client.choices.size() == 1);
    const auto& choice = client.choices.at(0);
    REQUIRE(choice.calls.size() == 1);

    // The same stream in the feed: start, delta and end of each segment, then the finish.
    CHECK(text_of(mine, "reasoning") == choice.reasoning);
    CHECK(text_of(mine, "text") == choice.content);
    CHECK(choice.content == "Checking Paris.");
    for (const auto* kind : {"reasoning", "text", "tool_call"}) {
        INFO(kind);
        const auto* start = find_line(mine, "start", kind);
        const auto* end = find_line(mine, "end", kind);
        REQUIRE(start != nullptr);
        REQUIRE(end != nullptr);
        CHECK(start->at("id") == end->at("id"));
        CHECK(end->at("status") == "complete");
    }
    const auto* call = find_line(mine, "end", "tool_call");
    CHECK(call->at("name") == "get_weather");
    CHECK(call->at("id") == json::value(choice.calls.begin()->second.id));   // the id the client got
    CHECK(call->at("arguments") == parse(choice.calls.begin()->second.arguments));
    CHECK(find_line(mine, "args") != nullptr);
    const auto* finish = find_line(mine, "finish");
    REQUIRE(finish != nullptr);
    CHECK(finish->at("kind") == "tool_calls");
    CHECK(choice.finish_reason == "tool_calls");

    CHECK(gw.stop() == 0);
    // The access log names the chat's stream, to find it in the feed.
    CHECK(slurp(log_path).find(R"("viewer_stream":"1")") != std::string::npos);
    std::remove(log_path.c_str());
}

TEST_CASE("gateway --viewer: two chats at once, each line as it passes, each stream whole", "[gateway][viewer]")
{
    fake_upstream up;
    const std::string log_path = "gateway_viewer_slow_log_test.jsonl";
    gateway_process gw(gateway_binary, {"--upstream", up.url("/slow/250"), "--provider", "openai_chat", "--viewer", "127.0.0.1:0"},
                       launch_settings{{}, log_path, 0, 60});
    const auto viewer = viewer_port_of(log_path);
    REQUIRE(viewer != 0);

    asio::io_context ioc;
    feed_read feed;
    std::vector<http_answer> chats(2);
    const auto start_chats = [&] {
        for (auto& c : chats) {
            c.error = "not run";
            asio::co_spawn(ioc, exchange(gw.port(), http::verb::post, "/v1/chat/completions", chat_body("m", true)),
                           [&c](std::exception_ptr e, http_answer a) {
                               if (!e)
                                   c = std::move(a);
                           });
        }
    };
    asio::co_spawn(ioc, read_feed(viewer, "/feed", {}, [](const auto& lines) { return finished(lines, {"1", "2"}); },
                                  start_chats, std::chrono::seconds(20)),
                   [&](std::exception_ptr e, feed_read f) {
                       if (!e)
                           feed = std::move(f);
                   });
    ioc.run_for(std::chrono::seconds(30));

    INFO(feed.error);
    REQUIRE(feed.status == 200);
    for (const auto& stream : {"1", "2"}) {
        INFO("stream " << stream);
        const auto mine = lines_of(feed.lines, stream);
        CHECK(text_of(mine, "text") == "tick 0 tick 1 tick 2 tick 3 tick 4 ");
        CHECK(find_line(mine, "finish") != nullptr);
    }
    for (const auto& c : chats) {
        INFO(c.error);
        REQUIRE(c.status == 200);
        CHECK(read_sse(c.body).choices.at(0).content == "tick 0 tick 1 tick 2 tick 3 tick 4 ");
        // The feed had the first tick while the chats were still a second from their end.
        REQUIRE(feed.first_delta != clock_type::time_point{});
        CHECK(feed.first_delta + std::chrono::milliseconds(500) < c.finished);
    }
    CHECK(gw.stop() == 0);
    std::remove(log_path.c_str());
}

TEST_CASE("gateway --viewer: a chat that ends early ends in the feed too", "[gateway][viewer]")
{
    // path, stream, the client's patience, the error line's message.
    const std::vector<std::tuple<std::string, bool, int, std::string>> cases{
        {"/drip/40", true, 600, "the client disconnected"},   // an endless stream the client gives up on
        {"/close-early", false, 20'000, "before the end of its stream"},   // an upstream that stops in mid-answer
    };
    for (const auto& [path, streamed, patience, says] : cases) {
        INFO(path);
        fake_upstream up;
        const std::string log_path = "gateway_viewer_early_log_test.jsonl";
        gateway_process gw(gateway_binary, {"--upstream", up.url(path), "--provider", "openai_chat", "--viewer", "127.0.0.1:0"},
                           launch_settings{{}, log_path, 0, 60});
        const auto viewer = viewer_port_of(log_path);
        REQUIRE(viewer != 0);

        asio::io_context ioc;
        feed_read feed;
        http_answer chat;
        const auto start_chat = [&] {
            asio::co_spawn(ioc, exchange(gw.port(), http::verb::post, "/v1/chat/completions", chat_body("m", streamed),
                                         std::chrono::milliseconds(patience)),
                           [&](std::exception_ptr e, http_answer a) {
                               if (!e)
                                   chat = std::move(a);
                           });
        };
        const auto ended = [](const std::vector<json::object>& lines) { return find_line(lines_of(lines, "1"), "end") != nullptr; };
        asio::co_spawn(ioc, read_feed(viewer, "/feed", {}, ended, start_chat, std::chrono::seconds(20)),
                       [&](std::exception_ptr e, feed_read f) {
                           if (!e)
                               feed = std::move(f);
                       });
        ioc.run_for(std::chrono::seconds(30));

        INFO(feed.error << " " << chat.error << " " << chat.body);
        REQUIRE(feed.status == 200);
        CHECK((!chat.error.empty() || chat.status == 502));   // the client did not get a whole answer
        const auto mine = lines_of(feed.lines, "1");
        CHECK(!text_of(mine, "text").empty());
        const auto* error = find_line(mine, "error");
        REQUIRE(error != nullptr);
        CHECK(std::string(error->at("message").as_string()).find(says) != std::string::npos);
        // Its open segment is closed (the hub would otherwise keep it in every page's snapshot).
        const auto* start = find_line(mine, "start", "text");
        const auto* end = find_line(mine, "end", "text");
        REQUIRE(start != nullptr);
        REQUIRE(end != nullptr);
        CHECK(end->at("id") == start->at("id"));
        CHECK(gw.stop() == 0);
        std::remove(log_path.c_str());
    }
}

TEST_CASE("gateway --viewer: off by default, loopback only unless --viewer-remote", "[gateway][viewer]")
{
    fake_upstream up;
    {
        const std::string log_path = "gateway_no_viewer_log_test.jsonl";
        gateway_process gw(gateway_binary, {"--upstream", up.url("/ollama"), "--provider", "ollama"},
                           launch_settings{{}, log_path, 0, 60});
        CHECK(post(gw.port(), "/v1/chat/completions", chat_body("m", true)).status == 200);
        CHECK(own_listening_ports(gw.pid()) == std::set<unsigned short>{gw.port()});   // nothing else listens
        CHECK(gw.stop() == 0);
        const auto log = slurp(log_path);
        CHECK(log.find("\"viewer") == std::string::npos);
        std::remove(log_path.c_str());
    }
    const std::string base = "--upstream " + up.url("/ollama") + " --provider ollama --listen 127.0.0.1:0 --exit-after 1 ";
    const std::vector<std::pair<std::string, std::string>> refused{
        {"--viewer 0.0.0.0:0", "--viewer: 0.0.0.0:0 is not a loopback address"},
        {"--viewer '[::]:0'", "is not a loopback address"},
        {"--viewer 192.0.2.1:0", "is not a loopback address"},
        {"--viewer localhost:0", "'localhost' is not an IP address"},
        {"--viewer 127.0.0.1", "'127.0.0.1' is not HOST:PORT"},
        {"--viewer 127.0.0.1:70000", "70000 is out of range"},
        {"--viewer-remote", "--viewer-remote needs --viewer HOST:PORT"},
    };
    for (const auto& [args, says] : refused) {
        INFO(args);
        const auto r = run_gateway(base + args);
        CHECK(r.status == 2);
        CHECK(r.err.find(says) != std::string::npos);
        CHECK(r.out.find("listening on") == std::string::npos);
    }
    CHECK(run_gateway("--help").out.find("--viewer-remote") != std::string::npos);

    // Told otherwise, it listens on every address, and warns when no key protects it.
    const auto remote = run_gateway(base + "--viewer 0.0.0.0:0 --viewer-remote");
    CHECK(remote.status == 0);
    CHECK(remote.out.find("\nviewer: http://0.0.0.0:") != std::string::npos);
    CHECK(remote.err.find("no --api-key-env protects it") != std::string::npos);
}

TEST_CASE("gateway --viewer: the gateway's key protects the feed", "[gateway][viewer]")
{
    fake_upstream up;
    const std::string log_path = "gateway_viewer_key_log_test.jsonl";
    gateway_process gw(gateway_binary,
                       {"--upstream", up.url("/ollama"), "--provider", "ollama", "--viewer", "127.0.0.1:0", "--api-key-env",
                        "GW_VIEWER_TEST_KEY"},
                       launch_settings{{"GW_VIEWER_TEST_KEY=sk-viewer-0123456789"}, log_path, 0, 60});
    const auto viewer = viewer_port_of(log_path);
    REQUIRE(viewer != 0);
    const auto feed = [&](std::string target, std::string authorization, std::string host = "127.0.0.1") {
        asio::io_context ioc;
        feed_read out;
        out.error = "did not finish in time";
        asio::co_spawn(ioc, read_feed(viewer, std::move(target), std::move(authorization),
                                      [](const auto& lines) { return !lines.empty(); }, {}, std::chrono::seconds(10),
                                      std::move(host)),
                       [&](std::exception_ptr e, feed_read f) {
                           if (!e)
                               out = std::move(f);
                       });
        ioc.run_for(std::chrono::seconds(15));
        return out;
    };
    for (const auto& target : {"/feed", "/events"}) {
        INFO(target);
        CHECK(feed(target, "").status == 401);
        CHECK(feed(target, "Bearer sk-viewer-012345678").status == 401);
        CHECK(feed(std::string(target) + "?key=wrong", "").status == 401);
    }
    const auto unlocked = feed("/feed", "Bearer sk-viewer-0123456789");
    CHECK(unlocked.status == 200);
    REQUIRE(!unlocked.lines.empty());
    CHECK(unlocked.lines.front() == json::object{{"type", "reset"}});
    CHECK(feed("/feed?key=sk-viewer-0123456789", "").status == 200);   // how the page passes it on
    // DNS rebinding: a page whose domain now resolves to 127.0.0.1 sends its own name as Host.
    CHECK(feed("/feed?key=sk-viewer-0123456789", "", "rebound.example:" + std::to_string(viewer)).status == 421);
    CHECK(feed("/feed?key=sk-viewer-0123456789", "", "localhost:" + std::to_string(viewer)).status == 200);
    CHECK(get(viewer, "/").status == 200);   // the page itself carries no traffic
    CHECK(gw.stop() == 0);
    CHECK(slurp(log_path).find("sk-viewer") == std::string::npos);
    std::remove(log_path.c_str());
}

} // namespace viewer_tests
