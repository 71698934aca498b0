// The transport alone: sse_decoder splitting raw SSE bytes into events, no JSON. Its distance
// from the baseline is the framing cost; its distance from the pipelines is everything else.
//
// Names: transport/sse/<input>/content:<bytes>/write:<bytes>.
#include "bench_support.hpp"

#include <toolstream/providers/provider.hpp>
#include <toolstream/transport/sse.hpp>

#include <benchmark/benchmark.h>

#include <string>

namespace {

namespace ts = toolstream;
namespace tb = toolstream::bench;

constexpr std::size_t content_size = 256 * 1024;

void run_sse(benchmark::State& state, const std::string& kind, std::size_t write_size)
{
    const std::string& bytes = tb::input(kind, content_size);
    std::size_t events = 0;
    std::size_t data_bytes = 0;
    const tb::profiled_region region;
    for (auto _ : state) {
        events = data_bytes = 0;
        ts::sse_decoder decoder;
        const auto visit = [&](const ts::wire_event& ev) {
            ++events;
            data_bytes += ev.data.size();
            benchmark::DoNotOptimize(ev.data.data());
        };
        tb::feed_chunked(bytes, write_size, [&](std::string_view piece) { (void)decoder.write(piece, visit); });
        (void)decoder.finish(visit);
        benchmark::DoNotOptimize(data_bytes);
    }
    // Every event but [DONE] is delivered; each is one `data: ` line and a blank line.
    std::size_t expected = 0;
    for (std::size_t at = 0; (at = bytes.find("data: ", at)) != std::string::npos; at += 6)
        ++expected;
    if (kind == "openai_chat")
        --expected;
    if (tb::verify(state, events == expected, kind + ": " + std::to_string(events) + " events, expected " +
                                                  std::to_string(expected)))
        tb::report_bytes(state, bytes.size());
    state.counters["events"] = static_cast<double>(events);
}

const bool registered = [] {
    for (const char* kind : {"openai_chat", "anthropic", "gemini_partial"})
        for (const std::size_t write_size : {std::size_t{64}, tb::network_read}) {
            const std::string name = std::string("transport/sse/") + kind + "/content:" +
                                     std::to_string(content_size) + "/write:" + std::to_string(write_size);
            benchmark::RegisterBenchmark(name.c_str(), [kind = std::string(kind), write_size](benchmark::State& s) {
                run_sse(s, kind, write_size);
            })->Unit(benchmark::kMillisecond);
        }
    return true;
}();

} // namespace

BENCHMARK_MAIN();
