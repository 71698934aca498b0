// toolstream-gateway: OpenAI Chat, Anthropic Messages and OpenAI Responses endpoints in front of
// a local model server.
//
//   toolstream-gateway --listen 127.0.0.1:8080 --upstream http://127.0.0.1:11434/api/chat
//                      --provider ollama [--parser hermes] [--reasoning-parser qwen3] [--model NAME]...
//
// POST /v1/chat/completions, /v1/messages and /v1/responses are forwarded in the upstream's
// dialect (always streaming), and the upstream's stream goes through a toolstream
// runtime_pipeline to the client's dialect: its SSE events, or one object for `stream: false`
// (programs/gateway/{openai_chat,anthropic,responses}/). GET /v1/models lists the --model names;
// GET /healthz and GET /metrics are for the operator. --viewer HOST:PORT serves the live viewer
// page (programs/viewer) with every chat's events. docs/gateway.md has the flags and limits.
// Exit: 0 after SIGINT/SIGTERM (chats in flight get --drain-timeout to finish) or --exit-after,
// 2 for bad usage, 1 if it cannot listen.
#include "gateway_viewer.hpp"   // programs/viewer
#include "options.hpp"
#include "server.hpp"

#include <boost/asio.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>

namespace {

/// Each chat holds two descriptors (client and upstream): say so when --max-connections cannot
/// be had under the process's limit (past it, clients get a 503 from the spare descriptor).
void warn_about_descriptors(const gateway::options& o)
{
    rlimit fds{};
    if (getrlimit(RLIMIT_NOFILE, &fds) == 0 && fds.rlim_cur != RLIM_INFINITY &&
        o.max_connections + o.max_streams + 16 > fds.rlim_cur)
        gateway::log_line({{"time", gateway::utc_now()}, {"event", "warning"},
                           {"cause", "--max-connections " + std::to_string(o.max_connections) + " and --max-streams " +
                                         std::to_string(o.max_streams) + " need more descriptors than the limit of " +
                                         std::to_string(fds.rlim_cur) + " (ulimit -n)"}});
}

/// --viewer: listens beside the gateway (before it says it is listening, so that both are up
/// when a script reads that line); its URL, or nothing (exit 1) if it cannot. The address itself
/// was checked with the options (loopback unless --viewer-remote).
std::optional<std::string> start_viewer(const gateway::options& o, boost::asio::io_context& ioc,
                                        boost::asio::ip::tcp::acceptor& acceptor, toolstream_viewer::feed_hub& hub,
                                        const toolstream_viewer::server_options& how)
{
    std::string error;
    if (!toolstream_viewer::start_gateway_viewer(ioc, acceptor, hub, o.viewer, o.viewer_remote, how, error)) {
        std::cerr << "toolstream-gateway: --viewer: " << error << "\n";
        return std::nullopt;
    }
    const auto local = acceptor.local_endpoint();
    const auto host = local.address().is_v6() ? "[" + local.address().to_string() + "]" : local.address().to_string();
    const std::string url = "http://" + host + ":" + std::to_string(local.port()) + "/";
    gateway::log_line({{"time", gateway::utc_now()}, {"event", "viewer"}, {"url", url}});
    if (!local.address().is_loopback() && o.api_key.empty())
        gateway::log_line({{"time", gateway::utc_now()}, {"event", "warning"},
                           {"cause", "--viewer " + o.viewer + " is not loopback and no --api-key-env protects it: "
                                     "whoever reaches it reads every stream"}});
    return url;
}

} // namespace

int main(int argc, char** argv)
{
    namespace asio = boost::asio;
    std::string error;
    const auto parsed = gateway::parse_options(argc, argv, error);
    if (!parsed) {
        std::cerr << "toolstream-gateway: " << error << "\n(--help lists the options)\n";
        return 2;
    }
    const auto& opts = *parsed;
    if (opts.help) {
        std::cout << gateway::usage_text() << std::flush;
        return 0;
    }
    warn_about_descriptors(opts);

    // Before the io_context: coroutine frames still pending when it is destroyed refer to them.
    gateway::shared_state state{opts};
    const toolstream_viewer::server_options viewer_options{opts.api_key};
    asio::io_context ioc(static_cast<int>(opts.threads));
    // After the io_context: its pages' queues hold the io_context's executors, so the hub goes
    // first. Destroying a frame never touches the hub; state.viewer is cleared once ioc.run()
    // has returned, so that no chat's viewer_ending publishes to it then.
    std::unique_ptr<toolstream_viewer::feed_hub> viewer_hub;
    asio::ip::tcp::acceptor acceptor(ioc);
    asio::ip::tcp::acceptor viewer_acceptor(ioc);
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(opts.listen_host, ec);
    if (ec) {
        std::cerr << "toolstream-gateway: --listen needs an IP address, not " << opts.listen_host << "\n";
        return 2;
    }
    const asio::ip::tcp::endpoint endpoint(address, opts.listen_port);
    acceptor.open(endpoint.protocol(), ec);
    if (!ec)
        acceptor.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec)
        acceptor.bind(endpoint, ec);
    if (!ec)
        acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        std::cerr << "toolstream-gateway: cannot listen on " << opts.listen_host << ":" << opts.listen_port << ": "
                  << ec.message() << "\n";
        return 1;
    }
    std::optional<std::string> viewer_url;
    if (!opts.viewer.empty()) {
        viewer_hub = std::make_unique<toolstream_viewer::feed_hub>();
        if (!(viewer_url = start_viewer(opts, ioc, viewer_acceptor, *viewer_hub, viewer_options)))
            return 1;
        state.viewer = viewer_hub.get();
    }
    // Tests and scripts read the port from this line (--listen HOST:0 picks a free one), and
    // the viewer's from the next.
    std::cout << "listening on " << acceptor.local_endpoint().address().to_string() << ":"
              << acceptor.local_endpoint().port() << std::endl;
    if (viewer_url)
        std::cout << "viewer: " << *viewer_url << std::endl;

    asio::co_spawn(ioc, gateway::accept_connections(acceptor, state), asio::detached);

    const auto stop = [&ioc] { ioc.stop(); };
    // SIGTERM: stop accepting, let the chats in flight finish up to --drain-timeout, exit 0. A
    // second SIGTERM or SIGINT during the drain stops at once.
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    asio::steady_timer drain(ioc);
    signals.async_wait([&](const boost::system::error_code& e, int) {
        if (e)
            return;
        signals.async_wait([&](const boost::system::error_code& again, int) {
            if (!again)
                stop();
        });
        state.draining = true;
        boost::system::error_code ignored;
        acceptor.close(ignored);
        viewer_acceptor.close(ignored);
        asio::co_spawn(ioc, [](asio::steady_timer& t, gateway::shared_state& s, auto done) -> asio::awaitable<void> {
            const auto wait_for_chats = [&](std::chrono::steady_clock::duration limit) -> asio::awaitable<void> {
                const auto deadline = std::chrono::steady_clock::now() + limit;
                while (s.active_chats.load() > 0 && std::chrono::steady_clock::now() < deadline) {
                    t.expires_after(std::chrono::milliseconds(20));
                    co_await t.async_wait(gateway::use_nothrow);
                }
            };
            co_await wait_for_chats(s.opts.drain_timeout);
            // The chats still in flight are ended: each tells its client (an error event, or 503)
            // and writes its log line, for up to a second, before the gateway exits.
            s.calls.shut_down();
            co_await wait_for_chats(std::chrono::seconds(1));
            done();
        }(drain, state, stop), asio::detached);
    });
    asio::steady_timer lifetime(ioc);
    if (opts.exit_after.count() > 0) {
        lifetime.expires_after(opts.exit_after);
        lifetime.async_wait([&](const boost::system::error_code& e) {
            if (!e)
                stop();
        });
    }

    std::vector<std::thread> workers;
    for (std::size_t i = 1; i < opts.threads; ++i)
        workers.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& w : workers)
        w.join();
    state.viewer = nullptr;
    return 0;
}
