// `auto` after its decision, beside the format it chooses: the cost the issue bounds (within 5% of
// the named format). Each iteration feeds the stream's first 16 KiB untimed (the decision is made
// within them: the trials read at most 4096 bytes from the first marker), then times the rest,
// fed the same way to handler<auto_detect> and to handler<qwen3_coder>, the format auto chooses
// on its sample (tests/support/format_samples.hpp). bench_formats.cpp times the whole stream,
// decision included.
//
// Names: after_decision/<auto|qwen3_coder>/size:<bytes>/chunk:<bytes>.
#include "bench_support.hpp"
#include "support/format_samples.hpp"

#include <toolstream/handler/handler.hpp>
#include <toolstream/runtime/registry.hpp>

#include <benchmark/benchmark.h>

#include <string>
#include <string_view>

namespace {

namespace ts = toolstream;
namespace tb = toolstream::bench;

using chosen_format = ts::qwen3_coder;

constexpr std::size_t body_size = 1024 * 1024;
constexpr std::size_t decided_within = 16 * 1024;   // a multiple of every chunk size
constexpr std::size_t chunk_sizes[] = {1, 4, 16, 4096};

const std::string& sample()
{
    static const std::string text = [] {
        const auto* s = ts::test::find_format_sample(ts::auto_detect::name);
        return s == nullptr ? std::string() : ts::test::sample_text(*s, ts::test::sample_body(body_size));
    }();
    return text;
}

// The chosen format's name once the first `decided_within` bytes are in (empty for a named one).
template<class Policy>
std::string_view format_of(const Policy& policy)
{
    if constexpr (requires { policy.format(); })
        return policy.format();
    else
        return Policy::name;
}

template<class Policy>
void after_decision(benchmark::State& state, std::size_t chunk)
{
    const std::string_view text = sample();
    const std::string_view head = text.substr(0, decided_within);
    const std::string_view rest = text.substr(head.size());
    tb::tally t;
    std::string_view chosen;
    for (auto _ : state) {
        state.PauseTiming();
        t = {};
        ts::handler<Policy, tb::counting_sink> h(tb::counting_sink{&t});
        tb::feed_chunked(head, chunk, [&](std::string_view piece) { (void)h.feed(piece); });
        chosen = format_of(h.policy());
        state.ResumeTiming();
        const tb::profiled_region region;   // a profile counts the timed part alone
        tb::feed_chunked(rest, chunk, [&](std::string_view piece) { (void)h.feed(piece); });
        (void)h.finalize();
        benchmark::DoNotOptimize(t);
    }
    if (tb::verify(state, chosen == chosen_format::name && t.complete_invocations == 1 && t.tool_bytes >= body_size,
                   std::string(Policy::name) + ": chose '" + std::string(chosen) + "' after " + std::to_string(head.size())
                       + " bytes, complete calls " + std::to_string(t.complete_invocations)))
        tb::report_bytes(state, rest.size());
}

template<class Policy>
void register_policy()
{
    for (const std::size_t chunk : chunk_sizes) {
        const std::string name = "after_decision/" + std::string(Policy::name) + "/size:" + std::to_string(body_size)
            + "/chunk:" + std::to_string(chunk);
        benchmark::RegisterBenchmark(name.c_str(), [chunk](benchmark::State& s) { after_decision<Policy>(s, chunk); })
            ->Unit(benchmark::kMillisecond);
    }
}

const bool registered = (register_policy<chosen_format>(), register_policy<ts::auto_detect>(), true);

} // namespace

BENCHMARK_MAIN();
