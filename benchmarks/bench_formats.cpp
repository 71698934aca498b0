// Every registered text format (registry.hpp) fed directly: handler<Format, counting sink>::feed()
// over its sample (tests/support/format_samples.hpp: prose and one write_file call whose body is
// about N bytes, N = 64 KiB and 1 MiB), cut into chunks of 1, 4, 16 and 4096 bytes. Linear time shows
// as t(1 MiB) / t(64 KiB) ≈ 16. A format added to the registry and its sample is timed here with
// no edit.
//
// Names: format/<name>/size:<bytes>/chunk:<bytes>.
#include "bench_support.hpp"
#include "support/format_samples.hpp"

#include <toolstream/handler/handler.hpp>
#include <toolstream/runtime/registry.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>

namespace {

namespace ts = toolstream;
namespace tb = toolstream::bench;

constexpr std::size_t sizes[] = {64 * 1024, 1024 * 1024};
constexpr std::size_t chunk_sizes[] = {1, 4, 16, 4096};

template<class Format>
void run_format(benchmark::State& state, const std::string& text, std::size_t body, std::size_t chunk)
{
    tb::tally t;
    {
        const tb::profiled_region region;
        for (auto _ : state) {
            t = {};
            ts::handler<Format, tb::counting_sink> h(tb::counting_sink{&t});
            tb::feed_chunked(text, chunk, [&](std::string_view piece) { (void)h.feed(piece); });
            (void)h.finalize();
            benchmark::DoNotOptimize(t);
        }
    }
    // One complete call carrying the body: as tool content (a file segment) or in its arguments
    // (structured writes the call as one JSON value, a tool_call).
    if (tb::verify(state, t.complete_invocations == 1 && std::max(t.tool_bytes, t.argument_bytes) >= body,
                   std::string(Format::name) + ": complete calls " + std::to_string(t.complete_invocations)
                       + ", tool bytes " + std::to_string(t.tool_bytes) + ", argument bytes "
                       + std::to_string(t.argument_bytes)))
        tb::report_bytes(state, text.size());
}

template<class Format>
void register_format()
{
    const auto* sample = ts::test::find_format_sample(Format::name);
    if (sample == nullptr)
        return;   // reads no call from the text (api_tool_call)
    for (const std::size_t size : sizes)
        for (const std::size_t chunk : chunk_sizes) {
            const std::string name = std::string("format/") + std::string(Format::name) + "/size:" + std::to_string(size)
                + "/chunk:" + std::to_string(chunk);
            benchmark::RegisterBenchmark(name.c_str(), [sample, size, chunk](benchmark::State& s) {
                static const std::string small = ts::test::sample_text(*sample, ts::test::sample_body(sizes[0]));
                static const std::string large = ts::test::sample_text(*sample, ts::test::sample_body(sizes[1]));
                run_format<Format>(s, size == sizes[1] ? large : small, size, chunk);
            })->Unit(benchmark::kMillisecond);
        }
}

template<class... P>
bool register_all(ts::type_list<P...>)
{
    (register_format<P>(), ...);
    return true;
}

const bool registered = register_all(ts::registered_policies{});

} // namespace

BENCHMARK_MAIN();
