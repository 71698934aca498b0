// The writers behind a pipeline: provider bytes in (16 KiB network reads), a client API's SSE out
// into a 64 KiB socket-like buffer, flushed when full: OpenAI Chat Completions
// (`openai_writer/`), Anthropic Messages (`anthropic_writer/`) and OpenAI Responses
// (`responses_writer/`). Beside each, the same pipeline with a sink that only counts (`events/`):
// the difference is a writer's own cost. Input MB/s is the bytes/s column; `sse_out` is the
// output rate.
//
// Names: WRITER/<kind>/<size>, and events/<kind>/<size> (the baseline); <kind> is
// openai_chat, anthropic (a write_file call of content:<bytes>), mixed (a Chat stream of reasoning,
// text and three calls, sized by scale:<n>: 256 makes 13 MB) or xml (model text with embedded
// calls through a handler, content:<bytes>).
#include "bench_support.hpp"

#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/writers/anthropic_messages.hpp>
#include <toolstream/writers/openai_responses.hpp>
#include <toolstream/writers/openai_sse.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <string>
#include <type_traits>

namespace {

namespace ts = toolstream;
namespace tb = toolstream::bench;

/// A socket's send buffer: bytes are appended, and "sent" (counted, dropped) when 64 KiB are held.
struct socket_buffer {
    std::string* pending;
    std::size_t* sent;
    void operator()(std::string_view bytes) const
    {
        pending->append(bytes);
        if (pending->size() >= 64 * 1024) {
            benchmark::DoNotOptimize(pending->data());
            *sent += pending->size();
            pending->clear();
        }
    }
};

// The writers measured, by the name their rows start with.
template<class Writer>
constexpr bool is_writer = std::is_same_v<Writer, ts::openai_sse_writer<socket_buffer>>
                           || std::is_same_v<Writer, ts::anthropic_sse_writer<socket_buffer>>
                           || std::is_same_v<Writer, ts::openai_responses_writer<socket_buffer>>;

struct counting_sink {
    std::size_t* events;
    void operator()(const ts::segment_event&) const noexcept { ++*events; }
    void operator()(const ts::argument_fragment&) const noexcept { ++*events; }
};

// Feeds `bytes` to a pipeline of Provider (or, for model text, a handler) whose sink is `sink`,
// then ends the stream as a server would.
template<class Provider, class Policy, class Sink>
void stream_once(const std::string& bytes, bool text, Sink sink)
{
    if (text) {
        ts::handler<Policy, Sink> h(std::move(sink));
        tb::feed_chunked(bytes, tb::network_read, [&](std::string_view piece) { (void)h.feed(piece); });
        (void)h.finalize();
        if constexpr (is_writer<Sink>) {
            h.sink()(ts::choice_finished{0, {}, ts::finish_kind::tool_calls});
            h.sink().done();
        }
    } else {
        ts::pipeline<Provider, Policy, Sink> p(std::move(sink));
        tb::feed_chunked(bytes, tb::network_read, [&](std::string_view piece) { (void)p.write(piece); });
        (void)p.finish();
        if constexpr (is_writer<Sink>)
            p.sink().done();
    }
}

template<class Writer, class Provider, class Policy>
void run_writer(benchmark::State& state, const std::string& kind, std::size_t size, bool text)
{
    const std::string& bytes = tb::input(kind, size);
    std::string pending;
    pending.reserve(128 * 1024);
    std::size_t sent = 0;
    {
        const tb::profiled_region region;
        for (auto _ : state) {
            sent = 0;
            stream_once<Provider, Policy>(bytes, text, Writer{socket_buffer{&pending, &sent}});
            sent += pending.size();
            pending.clear();
        }
    }
    // Every delta was written: at least a quarter of the input (Anthropic's events carry the same
    // deltas in less than half of OpenAI's chunk bytes).
    if (!tb::verify(state, sent > bytes.size() / 4, "SSE out: " + std::to_string(sent) + " bytes"))
        return;
    tb::report_bytes(state, bytes.size());
    state.counters["sse_out"] = benchmark::Counter(static_cast<double>(sent) * static_cast<double>(state.iterations()),
                                                   benchmark::Counter::kIsRate, benchmark::Counter::kIs1024);
    state.counters["out_bytes"] = static_cast<double>(sent);
}

template<class Provider, class Policy>
void run_events(benchmark::State& state, const std::string& kind, std::size_t size, bool text)
{
    const std::string& bytes = tb::input(kind, size);
    std::size_t events = 0;
    {
        const tb::profiled_region region;
        for (auto _ : state) {
            events = 0;
            stream_once<Provider, Policy>(bytes, text, counting_sink{&events});
            benchmark::DoNotOptimize(events);
        }
    }
    if (tb::verify(state, events > 0, "no events"))
        tb::report_bytes(state, bytes.size());
}

// `mixed` is sized by scale, the others by content bytes.
template<class Provider, class Policy>
void register_kind(const std::string& kind, bool text)
{
    const bool scaled = kind == "mixed";
    const auto sizes = scaled ? std::array<std::size_t, 2>{16, 256} : std::array<std::size_t, 2>{64 * 1024, 1024 * 1024};
    for (const std::size_t size : sizes) {
        const std::string suffix = kind + (scaled ? "/scale:" : "/content:") + std::to_string(size);
        benchmark::RegisterBenchmark(("openai_writer/" + suffix).c_str(), [kind, size, text](benchmark::State& s) {
            run_writer<ts::openai_sse_writer<socket_buffer>, Provider, Policy>(s, kind, size, text);
        })->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("anthropic_writer/" + suffix).c_str(), [kind, size, text](benchmark::State& s) {
            run_writer<ts::anthropic_sse_writer<socket_buffer>, Provider, Policy>(s, kind, size, text);
        })->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("responses_writer/" + suffix).c_str(), [kind, size, text](benchmark::State& s) {
            run_writer<ts::openai_responses_writer<socket_buffer>, Provider, Policy>(s, kind, size, text);
        })->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("events/" + suffix).c_str(), [kind, size, text](benchmark::State& s) {
            run_events<Provider, Policy>(s, kind, size, text);
        })->Unit(benchmark::kMillisecond);
    }
}

const bool registered = [] {
    register_kind<ts::openai_chat, ts::api_tool_call>("openai_chat", false);
    register_kind<ts::anthropic, ts::api_tool_call>("anthropic", false);
    register_kind<ts::openai_chat, ts::api_tool_call>("mixed", false);
    register_kind<ts::openai_chat, ts::xml>("xml", true);
    return true;
}();

} // namespace

BENCHMARK_MAIN();
