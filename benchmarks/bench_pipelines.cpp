// Each provider pipeline end to end: raw SSE bytes in (written in 16 KiB network reads), segment
// events and invocations out to a callback sink. The scaling series (content 16 KiB .. 1 MiB)
// gives the runner t(4N)/t(N) and the time to compare with the peers on the same bytes.
//
// Names: pipeline/<input>/content:<bytes>/write:<bytes>; the mixed stream is sized by scale.
#include "bench_support.hpp"

#include <toolstream/pipeline.hpp>
#include <toolstream/policies/api_tool_call.hpp>
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/sinks.hpp>

#include <benchmark/benchmark.h>

#include <string>

namespace {

namespace ts = toolstream;
namespace tb = toolstream::bench;

// What a correct run of `kind` at `size` produces.
struct expectation {
    std::size_t tool_bytes = 0;
    std::size_t text_bytes = 0;
    std::size_t complete_invocations = 0;
};

expectation expected(const std::string& kind, std::size_t size)
{
    if (kind != "mixed")
        return {size, 0, 1};
    const auto e = tb::mixed_chat_expected_output(size);
    expectation x{0, e.reasoning.size() + e.text.size(), e.calls.size()};
    for (const auto& c : e.calls)
        x.tool_bytes += c.arguments.size();
    return x;
}

template<class Provider>
void run_pipeline(benchmark::State& state, const std::string& kind, std::size_t size, std::size_t write_size)
{
    const std::string& bytes = tb::input(kind, size);
    tb::tally t;
    auto sink = ts::callback_sink([&t](const auto& e) { t(e); });
    {
        const tb::profiled_region region;
        for (auto _ : state) {
            t = {};
            ts::pipeline<Provider, ts::api_tool_call, decltype(sink)> p(sink);
            tb::feed_chunked(bytes, write_size, [&](std::string_view piece) { (void)p.write(piece); });
            (void)p.finish();
            benchmark::DoNotOptimize(t);
        }
    }
    const expectation x = expected(kind, size);
    if (tb::verify(state,
                   t.tool_bytes == x.tool_bytes && t.text_bytes == x.text_bytes &&
                       t.complete_invocations == x.complete_invocations,
                   kind + ": tool bytes " + std::to_string(t.tool_bytes) + "/" + std::to_string(x.tool_bytes) +
                       ", text bytes " + std::to_string(t.text_bytes) + "/" + std::to_string(x.text_bytes) +
                       ", complete calls " + std::to_string(t.complete_invocations)))
        tb::report_bytes(state, bytes.size());
    state.counters["events"] = static_cast<double>(t.events);
}

template<class Provider>
void register_series(const std::string& kind)
{
    for (const std::size_t size : tb::content_sizes) {
        const std::string name = "pipeline/" + kind + "/content:" + std::to_string(size) +
                                 "/write:" + std::to_string(tb::network_read);
        benchmark::RegisterBenchmark(name.c_str(), [kind, size](benchmark::State& s) {
            run_pipeline<Provider>(s, kind, size, tb::network_read);
        })->Unit(benchmark::kMillisecond);
    }
}

const bool registered = [] {
    register_series<ts::openai_chat>("openai_chat");
    register_series<ts::anthropic>("anthropic");
    register_series<ts::gemini>("gemini");
    register_series<ts::gemini>("gemini_partial");
    // Scales 4..256 grow the stream 4x per step, like the content sizes (225 KB .. 13 MB).
    for (const std::size_t scale : {4, 16, 64, 256}) {
        const std::string name = "pipeline/mixed/scale:" + std::to_string(scale) +
                                 "/write:" + std::to_string(tb::network_read);
        benchmark::RegisterBenchmark(name.c_str(), [scale](benchmark::State& s) {
            run_pipeline<ts::openai_chat>(s, "mixed", scale, tb::network_read);
        })->Unit(benchmark::kMillisecond);
    }
    // Small writes: the per-write cost, with events straddling writes (copied, not borrowed).
    for (const std::size_t write_size : {64, 1024}) {
        const std::string name = "pipeline/openai_chat/content:262144/write:" + std::to_string(write_size);
        benchmark::RegisterBenchmark(name.c_str(), [write_size](benchmark::State& s) {
            run_pipeline<ts::openai_chat>(s, "openai_chat", 262144, write_size);
        })->Unit(benchmark::kMillisecond);
    }
    return true;
}();

} // namespace

BENCHMARK_MAIN();
