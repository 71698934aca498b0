// Agent TARS support: the cost of the assistant_streaming_tool_call sink, and live previews.
//
// - tarko/openai_chat/content:N/sink:{none,tarko}: the openai_chat write_file stream (4-character
//   deltas, 16 KiB network reads) through the pipeline with a null sink, then with the Agent TARS
//   sink teed beside it (its lines go to a callback that only counts bytes).
// - tarko/openai_chat/content:N/sink:preview: the same pipeline with a sink feeding each
//   argument fragment to toolstream::partial_json and reading the preview: what the peers'
//   partial-json / jsonrepair rows do (SSE, then a preview per delta), in O(delta).
// - preview/partial_json/content:N: the same call's argument text in the same 4-character
//   deltas fed to toolstream::partial_json, the preview read after each delta: what the web
//   UI's `jsonrepair(accumulated)` per event does, in O(delta). The peers re-parsing per delta
//   are in the peers table (partial-json, jsonrepair rows): same deltas, same sizes.
#include "bench_support.hpp"

#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/partial_json.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/writers/tarko_events.hpp>

#include <benchmark/benchmark.h>

namespace {

namespace ts = toolstream;
namespace tb = toolstream::bench;

struct count_bytes {
    std::size_t* total;
    void operator()(std::string_view line) const { *total += line.size(); }
};

template<class Sink>
void run_pipeline(benchmark::State& state, const std::string& bytes, Sink sink)
{
    for (auto _ : state) {
        ts::pipeline<ts::openai_chat, ts::api_tool_call, Sink> p(sink);
        for (std::size_t at = 0; at < bytes.size(); at += tb::network_read)
            (void)p.write(std::string_view(bytes).substr(at, tb::network_read));
        (void)p.finish();
        benchmark::DoNotOptimize(p.summary());
    }
    tb::report_bytes(state, bytes.size());
}

void pipeline_without_sink(benchmark::State& state)
{
    run_pipeline(state, tb::input("openai_chat", static_cast<std::size_t>(state.range(0))), ts::null_sink{});
}

void pipeline_with_tarko_sink(benchmark::State& state)
{
    std::size_t total = 0;
    using sink = ts::tee_sink<ts::null_sink, ts::tarko_event_sink<count_bytes>>;
    run_pipeline(state, tb::input("openai_chat", static_cast<std::size_t>(state.range(0))),
                 sink{ts::null_sink{}, ts::tarko_event_sink<count_bytes>{count_bytes{&total}}});
    tb::verify(state, total > static_cast<std::size_t>(state.range(0)), "tarko events carry the arguments");
}

// The live preview as a sink: each argument fragment fed to partial_json, read after each.
struct preview_sink {
    ts::partial_json* preview;
    void operator()(const ts::argument_fragment& f) const
    {
        preview->feed(f.json);
        benchmark::DoNotOptimize(&preview->preview());
    }
    void operator()(const ts::segment_event&) const {}
};

void pipeline_with_preview(benchmark::State& state)
{
    const std::string& bytes = tb::input("openai_chat", static_cast<std::size_t>(state.range(0)));
    ts::partial_json preview;
    for (auto _ : state) {
        preview.reset();
        ts::pipeline<ts::openai_chat, ts::api_tool_call, preview_sink> p(preview_sink{&preview});
        for (std::size_t at = 0; at < bytes.size(); at += tb::network_read)
            (void)p.write(std::string_view(bytes).substr(at, tb::network_read));
        (void)p.finish();
    }
    tb::report_bytes(state, bytes.size());
    tb::verify(state, !preview.failed() && preview.preview().as_object().contains("content"),
               "the preview holds the content");
}

void preview_partial_json(benchmark::State& state)
{
    const std::string arguments = tb::write_file_arguments_json(static_cast<std::size_t>(state.range(0)));
    const auto deltas = tb::detail::split_code_points(arguments, tb::delta_chars);
    bool whole = false;
    for (auto _ : state) {
        ts::partial_json preview;
        for (auto delta : deltas) {
            preview.feed(delta);
            benchmark::DoNotOptimize(&preview.preview());
        }
        whole = !preview.failed() && preview.preview().as_object().contains("content");
    }
    tb::verify(state, whole, "the preview holds the content");
    tb::report_bytes(state, arguments.size());
}

void sizes(benchmark::internal::Benchmark* b)
{
    for (auto size : tb::content_sizes)
        b->Arg(static_cast<std::int64_t>(size));
    b->Unit(benchmark::kMillisecond);
}

BENCHMARK(pipeline_without_sink)->Name("tarko/openai_chat/sink:none")->Apply(sizes);
BENCHMARK(pipeline_with_tarko_sink)->Name("tarko/openai_chat/sink:tarko")->Apply(sizes);
BENCHMARK(pipeline_with_preview)->Name("tarko/openai_chat/sink:preview")->Apply(sizes);
BENCHMARK(preview_partial_json)->Name("preview/partial_json")->Apply(sizes);

} // namespace

BENCHMARK_MAIN();
