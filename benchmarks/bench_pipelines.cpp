// Each provider pipeline end to end: raw SSE bytes in (written in 16 KiB network reads), segment
// events and invocations out to a callback sink. The scaling series (content 16 KiB .. 1 MiB)
// gives the runner t(4N)/t(N) and the time to compare with the peers on the same bytes.
//
// Beside them, on the 256 KiB OpenAI Chat stream, the bounds of this design (run in the same
// executable, so that the runner's random interleaving exposes them to the same load):
// - sse+json_dom: the SSE decoder plus a Boost.JSON DOM of each event's data, as every converter
//   starts, nothing read from it: the ceiling of per-event DOM conversion;
// - sse+json_sax: the SSE decoder plus boost::json::basic_parser with a handler that keeps
//   nothing: the floor of any converter built on Boost.JSON without a tree.
//
// Names: pipeline/<input>/content:<bytes>/write:<bytes> (the mixed stream is sized by scale);
// baseline/<bound>/openai_chat/content:262144.
#include "bench_support.hpp"

#include <toolstream/detail/json_null_handler.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/detail/payload_parser.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/mistral.hpp>
#include <toolstream/providers/ollama.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/providers/openai_responses.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/transport/sse.hpp>

#include <boost/json/basic_parser_impl.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <concepts>
#include <string>
#include <vector>

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
    if (kind == "ollama")   // the file written as content, no call
        return {0, size, 0};
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
    auto sink = ts::callback_sink([&t]<class E>(const E& e) requires std::invocable<tb::tally&, const E&> { t(e); });
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

constexpr std::size_t bound_content_size = 256 * 1024;

// The transport, then `parse(data)` on every event; counts the events parsed.
template<class Parse>
void run_sse_json(benchmark::State& state, Parse&& parse)
{
    const std::string& bytes = tb::input("openai_chat", bound_content_size);
    std::size_t parsed = 0;
    const tb::profiled_region region;
    for (auto _ : state) {
        parsed = 0;
        toolstream::sse_decoder decoder;
        const auto visit = [&](const toolstream::wire_event& ev) { parsed += parse(ev.data); };
        tb::feed_chunked(bytes, tb::network_read, [&](std::string_view piece) { (void)decoder.write(piece, visit); });
        (void)decoder.finish(visit);
        benchmark::DoNotOptimize(parsed);
    }
    if (tb::verify(state, parsed > 0 && bytes.find("\n\ndata: ") != std::string::npos, "no event parsed"))
        tb::report_bytes(state, bytes.size());
    state.counters["events"] = static_cast<double>(parsed);
}

void run_sse_dom(benchmark::State& state)
{
    toolstream::detail::payload_parser parser;
    run_sse_json(state, [&](std::string_view data) -> std::size_t {
        const auto v = parser.parse(data);
        return v && (*v)->is_object();
    });
}

void run_sse_sax(benchmark::State& state)
{
    boost::json::basic_parser<toolstream::detail::json_null_handler> parser{boost::json::parse_options{}};
    run_sse_json(state, [&](std::string_view data) -> std::size_t {
        boost::system::error_code ec;
        parser.reset();
        parser.write_some(false, data.data(), data.size(), ec);
        return !ec;
    });
}

const bool registered = [] {
    register_series<ts::openai_chat>("openai_chat");
    register_series<ts::anthropic>("anthropic");
    register_series<ts::openai_responses>("openai_responses");
    register_series<ts::ollama>("ollama");
    register_series<ts::gemini>("gemini");
    register_series<ts::gemini>("gemini_partial");
    register_series<ts::mistral>("mistral");
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
    const std::string suffix = "/openai_chat/content:" + std::to_string(bound_content_size);
    benchmark::RegisterBenchmark(("baseline/sse+json_dom" + suffix).c_str(), run_sse_dom)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("baseline/sse+json_sax" + suffix).c_str(), run_sse_sax)->Unit(benchmark::kMillisecond);
    return true;
}();

} // namespace

BENCHMARK_MAIN();
