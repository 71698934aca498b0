// toolstream-replay --serve (replay_serve.hpp): the recording fed to the live viewer page, one
// provider event at a time, through the run-time pipeline.
#include "replay_serve.hpp"

#include "../common/handler_events.hpp"
#include "feed_hub.hpp"
#include "viewer_server.hpp"

#include <toolstream/runtime/runtime_pipeline.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/writers/viewer_feed.hpp>

#include <boost/asio.hpp>

#include <charconv>
#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

namespace toolstream_viewer {

namespace {

struct replay_serve_arguments {
    std::string listen = "127.0.0.1:8765";
    std::chrono::milliseconds pace{20};
    bool wait = true;
    std::string provider, parser, reasoning_parser, input;
};

std::optional<replay_serve_arguments> parse_serve_arguments(int argc, char** argv)
{
    replay_serve_arguments a;
    a.parser = std::string(toolstream::default_policy_name());
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--serve") {
        } else if (arg == "--no-wait") {
            a.wait = false;
        } else if (arg == "--listen" && has_value) {
            a.listen = argv[++i];
        } else if (arg == "--pace" && has_value) {
            const std::string_view v = argv[++i];
            unsigned ms = 0;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), ms);
            if (ec != std::errc{} || end != v.data() + v.size())
                return std::nullopt;
            a.pace = std::chrono::milliseconds(ms);
        } else if (arg == "--provider" && has_value) {
            a.provider = argv[++i];
        } else if (arg == "--parser" && has_value) {
            a.parser = argv[++i];
        } else if (arg == "--reasoning-parser" && has_value) {
            a.reasoning_parser = argv[++i];
        } else if (!arg.empty() && arg[0] != '-' && a.input.empty()) {
            a.input = arg;
        } else {
            return std::nullopt;
        }
    }
    if (a.provider.empty() || a.input.empty() || !toolstream::known_parser_names(a.parser, a.reasoning_parser))
        return std::nullopt;
    return a;
}

/// Calls `piece` with each provider event of `bytes` (up to and including a blank line when the
/// recording is SSE, one line otherwise) and waits `pace` after each.
template<class Piece>
void paced_events(std::string_view bytes, std::chrono::milliseconds pace, Piece&& piece)
{
    const bool sse = bytes.find("\n\n") != std::string_view::npos;
    std::size_t at = 0;
    while (at < bytes.size()) {
        const auto end = bytes.find(sse ? "\n\n" : "\n", at);
        const std::size_t next = end == std::string_view::npos ? bytes.size() : end + (sse ? 2 : 1);
        piece(bytes.substr(at, next - at));
        at = next;
        if (pace.count() > 0)
            std::this_thread::sleep_for(pace);
    }
}

struct publish_line {
    feed_hub* hub;
    void operator()(std::string_view line) const { hub->publish(line); }
};

// Feeds the recording, paced, to the run-time pipeline made for `sink`; `done(sink)` then ends
// the feed. False (with a message) when no pipeline has those names.
template<class Sink, class Done>
bool feed_recording(const replay_serve_arguments& a, std::string_view bytes, Sink sink, Done done)
{
    auto made = toolstream::runtime_pipeline<Sink>::create(a.provider, a.parser, std::move(sink), {}, a.reasoning_parser);
    if (!made) {
        std::cerr << "toolstream-replay: " << made.error().message() << "\n";
        return false;
    }
    paced_events(bytes, a.pace, [&](std::string_view piece) { (void)(*made)->write(piece); });
    (void)(*made)->finish();
    done((*made)->sink());
    return true;
}

/// Feeds the recording into `hub` through a run-time pipeline, then ends the stream (a `done`
/// line).
bool replay_into(const replay_serve_arguments& a, std::string_view bytes, feed_hub& hub)
{
    using feed = toolstream::viewer_feed_sink<publish_line>;
    if (a.provider == toolstream::text_provider_name) {
        // As a handler reads it: the feed gets no response_started or choice_finished.
        using text_feed = toolstream_programs::handler_events<feed>;
        return feed_recording(a, bytes, text_feed{feed{publish_line{&hub}}}, [](text_feed& s) { s.sink.done(); });
    }
    return feed_recording(a, bytes, feed{publish_line{&hub}}, [](feed& s) { s.done(); });
}

} // namespace

int serve_replay(int argc, char** argv, std::string_view usage)
{
    const auto a = parse_serve_arguments(argc, argv);
    if (!a) {
        std::cerr << usage;
        return 2;
    }
    std::ifstream in(a->input, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in && !in.eof()) {
        std::cerr << "toolstream-replay: cannot read " << a->input << "\n";
        return 1;
    }
    asio::io_context ioc;
    // After the io_context, so destroyed before it: its pages' queues hold the io_context's
    // executors (and destroying a coroutine frame never touches the hub).
    feed_hub hub;
    asio::ip::tcp::acceptor acceptor(ioc);
    std::string error;
    if (!listen_on(acceptor, a->listen, error)) {
        std::cerr << "toolstream-replay: " << error << "\n";
        return 1;
    }
    const auto local = acceptor.local_endpoint();
    const std::string host = local.address().is_v6() ? "[" + local.address().to_string() + "]" : local.address().to_string();
    std::cout << "viewer: http://" << host << ":" << local.port() << "/" << std::endl;
    const server_options options;
    asio::co_spawn(ioc, accept_viewers(acceptor, hub, options), asio::detached);
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](const boost::system::error_code&, int) {
        hub.close();
        ioc.stop();
    });
    std::thread server([&ioc] { ioc.run(); });
    bool ok = true;
    if (!a->wait || hub.wait_for_viewer()) {
        ok = replay_into(*a, bytes, hub);
        std::cout << "replayed: " << hub.published() << " events" << std::endl;
    }
    server.join();   // until a signal
    return ok ? 0 : 2;
}

} // namespace toolstream_viewer
