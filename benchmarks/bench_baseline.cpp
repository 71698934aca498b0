// The practical limit: what touching each byte of the OpenAI Chat stream once costs, by copying
// it (memcpy, in network-read pieces) or by scanning it for line ends (memchr), the minimum any
// SSE decoder does. The bounds of the pipelines themselves (SSE plus a JSON parse per event) are
// in bench_pipelines.cpp, measured beside them.
//
// Names: baseline/{memcpy,memchr}/openai_chat/content:<bytes>.
#include "bench_support.hpp"

#include <benchmark/benchmark.h>

#include <cstring>
#include <string>

namespace {

namespace tb = toolstream::bench;

constexpr std::size_t content_size = 256 * 1024;

void run_memcpy(benchmark::State& state)
{
    const std::string& bytes = tb::input("openai_chat", content_size);
    std::string buffer(tb::network_read, '\0');
    for (auto _ : state) {
        tb::feed_chunked(bytes, tb::network_read, [&](std::string_view piece) {
            std::memcpy(buffer.data(), piece.data(), piece.size());
            benchmark::ClobberMemory();
        });
    }
    tb::report_bytes(state, bytes.size());
}

void run_memchr(benchmark::State& state)
{
    const std::string& bytes = tb::input("openai_chat", content_size);
    std::size_t lines = 0;
    for (auto _ : state) {
        lines = 0;
        for (const char* p = bytes.data(), *end = p + bytes.size();; ++p, ++lines) {
            p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
            if (p == nullptr)
                break;
        }
        benchmark::DoNotOptimize(lines);
    }
    if (tb::verify(state, lines > 0, "no line ends"))
        tb::report_bytes(state, bytes.size());
}

const bool registered = [] {
    const std::string suffix = "/openai_chat/content:" + std::to_string(content_size);
    benchmark::RegisterBenchmark(("baseline/memcpy" + suffix).c_str(), run_memcpy)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("baseline/memchr" + suffix).c_str(), run_memchr)->Unit(benchmark::kMillisecond);
    return true;
}();

} // namespace

BENCHMARK_MAIN();
