// Load on toolstream-gateway over loopback: streams per second and time to first byte with many
// concurrent clients. Bounded: --requests in all, --seconds at most; every server stops itself.
//
//   toolstream_gateway_load --gateway PATH --fixtures DIR [--fixture openai_chat/gpt-4o-tool-call.sse]
//                           [--clients 64] [--requests 4000] [--threads 1] [--seconds 120] [--direct]
//                           [--upstream-path /native-args/50] [--whole] [--gateway-arg FLAG]...
//                           [--route chat|messages|responses]
//
// The model server (fake_upstream.hpp) runs in this process on its own thread and sends the
// fixture in 1..61-byte HTTP chunks; the clients are coroutines on this process's main thread,
// each sending stream:true chats one after another on new connections. --direct skips the
// gateway (the same clients on the model server itself), as a baseline. --route picks the client
// dialect: /v1/chat/completions (default), /v1/messages or /v1/responses.
#include "gateway/fake_upstream.hpp"
#include "gateway/gateway_process.hpp"
#include "gateway/http_client.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace gateway_test;

namespace {

struct settings {
    std::string gateway, fixtures, fixture = "openai_chat/gpt-4o-tool-call.sse";
    int clients = 64, requests = 4000, threads = 1, seconds = 120;
    bool direct = false, stream = true;
    std::string upstream_path = "/by-model";
    std::string route = "chat";
    std::vector<std::string> gateway_args;
};

double ms(std::chrono::steady_clock::duration d)
{
    return std::chrono::duration<double, std::milli>(d).count();
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

} // namespace

int main(int argc, char** argv)
{
    settings s;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        if (flag == "--direct" || flag == "--whole") {
            (flag == "--direct" ? s.direct : s.stream) = flag == "--direct";
            continue;
        }
        if (i + 1 == argc) {
            std::cerr << "missing value after " << flag << "\n";
            return 2;
        }
        const std::string value = argv[++i];
        if (flag == "--gateway") s.gateway = value;
        else if (flag == "--fixtures") s.fixtures = value;
        else if (flag == "--fixture") s.fixture = value;
        else if (flag == "--upstream-path") s.upstream_path = value;
        else if (flag == "--gateway-arg") s.gateway_args.push_back(value);
        else if (flag == "--route") s.route = value;
        else if (flag == "--clients") s.clients = std::clamp(std::stoi(value), 1, 1000);
        else if (flag == "--requests") s.requests = std::clamp(std::stoi(value), 1, 1'000'000);
        else if (flag == "--threads") s.threads = std::clamp(std::stoi(value), 1, 64);
        else if (flag == "--seconds") s.seconds = std::clamp(std::stoi(value), 1, 600);
        else {
            std::cerr << "unknown option " << flag << "\n";
            return 2;
        }
    }
    if ((s.gateway.empty() && !s.direct) || s.fixtures.empty()) {
        std::cerr << "usage: toolstream_gateway_load --gateway PATH --fixtures DIR [--fixture F] [--clients N]"
                     " [--requests N] [--threads N] [--seconds N] [--direct]\n";
        return 2;
    }

    fake_upstream up(s.fixtures);
    std::unique_ptr<gateway_process> gw;
    unsigned short port = up.port();
    std::string target = s.upstream_path;
    if (!s.direct) {
        std::vector<std::string> args{"--upstream", up.url(s.upstream_path), "--provider", "openai_chat",
                                      "--max-streams", "100000", "--threads", std::to_string(s.threads)};
        args.insert(args.end(), s.gateway_args.begin(), s.gateway_args.end());
        gw = std::make_unique<gateway_process>(s.gateway, args, s.seconds + 30);
        port = gw->port();
        target = s.route == "messages" ? "/v1/messages" : s.route == "responses" ? "/v1/responses" : "/v1/chat/completions";
    }
    const std::string stream = s.stream ? "true" : "false";
    const std::string body = s.route == "responses"
                                 ? R"({"model":")" + s.fixture + R"(","input":"go","stream":)" + stream + "}"
                                 : R"({"model":")" + s.fixture + R"(","max_tokens":1024,"messages":[{"role":"user","content":"go"}],"stream":)" + stream + "}";
    // Each dialect's last event: a stream that has it was delivered whole.
    const std::string_view stream_end = s.route == "messages"    ? "event: message_stop"
                                        : s.route == "responses" ? "event: response.completed"
                                                                 : "[DONE]";

    asio::io_context ioc;
    int next = 0, ok = 0, failed = 0;
    std::size_t bytes = 0;
    std::vector<double> ttfb, total;
    ttfb.reserve(static_cast<std::size_t>(s.requests));
    total.reserve(static_cast<std::size_t>(s.requests));
    const auto start = std::chrono::steady_clock::now();
    for (int c = 0; c < s.clients; ++c)
        asio::co_spawn(ioc, [&]() -> asio::awaitable<void> {
            while (next < s.requests) {
                ++next;
                const auto sent = std::chrono::steady_clock::now();
                const auto a = co_await exchange(port, http::verb::post, target, body, std::chrono::seconds(s.seconds));
                if (!a.error.empty() || a.status != 200 || (s.stream && a.body.find(stream_end) == std::string::npos)) {
                    ++failed;
                    continue;
                }
                ++ok;
                bytes += a.body.size();
                ttfb.push_back(ms(a.first_body_byte - sent));
                total.push_back(ms(a.finished - sent));
            }
        }, asio::detached);
    ioc.run_for(std::chrono::seconds(s.seconds));
    const double elapsed = ms(std::chrono::steady_clock::now() - start) / 1000.0;

    std::printf("%s, route %s, fixture %s, %d clients, gateway threads %d\n",
                s.direct ? "direct to the model server" : "through the gateway", s.route.c_str(), s.fixture.c_str(),
                s.clients, s.threads);
    std::printf("streams: %d ok, %d failed in %.2f s = %.0f streams/s (%.1f MB/s of response bodies)\n", ok, failed,
                elapsed, ok / elapsed, static_cast<double>(bytes) / elapsed / 1e6);
    std::printf("time to first byte ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", percentile(ttfb, 0.5),
                percentile(ttfb, 0.9), percentile(ttfb, 0.99), percentile(ttfb, 1.0));
    std::printf("whole stream ms:       p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", percentile(total, 0.5),
                percentile(total, 0.9), percentile(total, 0.99), percentile(total, 1.0));
    if (gw)
        std::printf("gateway peak RSS: %.1f MiB\n", static_cast<double>(gw->peak_rss_kib()) / 1024.0);
    return failed == 0 && ok == s.requests ? 0 : 1;
}
