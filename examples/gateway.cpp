// toolstream-gateway: an OpenAI-compatible endpoint in front of a local model server.
//
//   toolstream-gateway --listen 127.0.0.1:8080 --upstream http://127.0.0.1:11434/api/chat
//                      --provider ollama [--parser hermes] [--reasoning-parser qwen3] [--model NAME]...
//
// POST /v1/chat/completions is forwarded in the upstream's dialect (always streaming), and the
// upstream's stream goes through a toolstream runtime_pipeline to OpenAI Chat Completions SSE,
// or to one chat.completion object for `stream: false`. GET /v1/models lists the --model names.
// Exit: 0 after SIGINT/SIGTERM or --exit-after, 2 for bad usage, 1 if it cannot listen.
#include "gateway/options.hpp"
#include "gateway/server.hpp"

#include <boost/asio.hpp>

#include <cstdio>
#include <iostream>
#include <thread>
#include <vector>

int main(int argc, char** argv)
{
    namespace asio = boost::asio;
    std::string error;
    const auto parsed = gateway::parse_options(argc, argv, error);
    if (!parsed) {
        std::cerr << "toolstream-gateway: " << error << "\n" << gateway::usage_text;
        return 2;
    }
    const auto& opts = *parsed;
    if (!opts.reasoning_parser.empty())
        std::cerr << "toolstream-gateway: --reasoning-parser " << opts.reasoning_parser
                  << " is accepted but not applied yet: runtime_pipeline has no reasoning parser\n";

    // Before the io_context: coroutine frames still pending when it is destroyed refer to it.
    gateway::shared_state state{opts};
    asio::io_context ioc(static_cast<int>(opts.threads));
    asio::ip::tcp::acceptor acceptor(ioc);
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
    // Tests and scripts read the port from this line (--listen HOST:0 picks a free one).
    std::cout << "listening on " << acceptor.local_endpoint().address().to_string() << ":"
              << acceptor.local_endpoint().port() << std::endl;

    asio::co_spawn(ioc, gateway::accept_connections(acceptor, state), asio::detached);

    const auto stop = [&ioc] { ioc.stop(); };
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](const boost::system::error_code&, int) { stop(); });
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
    return 0;
}
