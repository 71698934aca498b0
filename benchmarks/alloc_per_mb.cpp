// Heap allocations per MB of input, and per chunk in the steady state, counted by the replaced
// global operator new of tests/support/counting_allocator_impl.hpp. Its own executable: the
// replacement counts everything in the process.
//
// Each scenario streams a 1 MiB write_file call (the mixed stream: scale 256, 13 MB). A chunk is
// one provider event for the pipelines (one chunk_response) and one feed() for the text
// policies. The steady state is the middle half of the input: the writes that start between 25%
// and 75% of it, away from the first events (buffers growing to their working size) and from the
// end (the invocation, whose arguments are built once per call). Buffers that must hold a whole
// call (its content, for the invocation) still double now and then: a few allocations per MB.
//
// Output: one JSON line per scenario on stdout (for run_comparison.sh), a table on stderr.
#include "bench_support.hpp"

#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/json_calls.hpp>
#include <toolstream/parse/formats/sentinel.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/mistral.hpp>
#include <toolstream/providers/openai_chat.hpp>

#include <cstdio>
#include <string>

#include "support/counting_allocator_impl.hpp"   // this program's operator new and delete

namespace {

namespace ts = toolstream;
namespace tb = toolstream::bench;
namespace heap = toolstream::test::heap;

struct measurement {
    std::size_t input_bytes = 0;
    std::size_t chunks = 0;          // in the whole input
    std::size_t allocations = 0;     // from the first write to the end of finish()/finalize()
    std::size_t steady_chunks = 0;   // in the middle half
    std::size_t steady_allocations = 0;
    std::size_t peak_heap = 0;       // the most heap held at once, above what was held before
};

// Provider events (SSE `data:` lines) in `bytes`.
std::size_t sse_events(std::string_view bytes)
{
    std::size_t n = 0;
    for (std::size_t at = 0; (at = bytes.find("data: ", at)) != std::string_view::npos; at += 6)
        ++n;
    return n;
}

// Feeds `bytes` in pieces of `write_size` through `write`, then calls `end`, counting allocations
// overall and in the middle half. `chunks_in(range)` counts the chunks a range of the input holds.
template<class Write, class End, class ChunksIn>
measurement count(const std::string& bytes, std::size_t write_size, Write&& write, End&& end, ChunksIn&& chunks_in)
{
    const std::size_t from = bytes.size() / 4 / write_size * write_size;
    const std::size_t to = 3 * bytes.size() / 4 / write_size * write_size;
    measurement m{bytes.size(), chunks_in(std::string_view(bytes)), 0,
                  chunks_in(std::string_view(bytes).substr(from, to - from)), 0};
    std::size_t at_from = 0;
    const std::size_t base = heap::reset_peak();
    heap::counting_scope counted;
    for (std::size_t at = 0; at < bytes.size(); at += write_size) {
        if (at == from)
            at_from = counted.allocations();
        if (at == to)
            m.steady_allocations = counted.allocations() - at_from;
        write(std::string_view(bytes).substr(at, write_size));
    }
    end();
    counted.stop();
    m.allocations = counted.allocations();
    m.peak_heap = heap::peak_bytes() - base;
    return m;
}

template<class Provider>
measurement pipeline_run(const std::string& kind, std::size_t size, ts::pipeline_options options = {})
{
    tb::tally t;
    ts::pipeline<Provider, ts::api_tool_call, tb::counting_sink> p(tb::counting_sink{&t}, options);
    return count(
        tb::input(kind, size), tb::network_read, [&](std::string_view piece) { (void)p.write(piece); },
        [&] { (void)p.finish(); }, sse_events);
}

template<class Policy>
measurement policy_run(const std::string& kind, std::size_t size, std::size_t chunk)
{
    tb::tally t;
    ts::handler<Policy, tb::counting_sink> h(tb::counting_sink{&t});
    return count(
        tb::input(kind, size), chunk, [&](std::string_view piece) { (void)h.feed(piece); },
        [&] { (void)h.finalize(); }, [chunk](std::string_view range) { return (range.size() + chunk - 1) / chunk; });
}

// `content`: the bytes of the one call's body (0 for a stream of several calls). The N of the
// peak-heap target is the call's arguments, `{"path":…,"content":…}` as JSON text.
void report(const std::string& scenario, const std::string& unit, std::size_t size, const measurement& m,
            std::size_t content)
{
    const std::size_t arguments = content > 0 ? tb::write_file_arguments_json(content).size() : 0;
    const double per_mb = static_cast<double>(m.allocations) / (static_cast<double>(m.input_bytes) / 1e6);
    // A stream of one event (a whole Gemini call) has no steady state to speak of.
    std::string per_chunk = "null";
    if (m.steady_chunks > 0) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.6f",
                      static_cast<double>(m.steady_allocations) / static_cast<double>(m.steady_chunks));
        per_chunk = buf;
    }
    std::printf("{\"scenario\":\"%s\",\"chunk_unit\":\"%s\",\"size\":%zu,\"input_bytes\":%zu,"
                "\"chunks\":%zu,\"allocations\":%zu,\"allocations_per_mb\":%.3f,\"steady_chunks\":%zu,"
                "\"steady_allocations\":%zu,\"steady_allocations_per_chunk\":%s,\"peak_heap_bytes\":%zu,"
                "\"content_bytes\":%zu,\"argument_bytes\":%zu}\n",
                scenario.c_str(), unit.c_str(), size, m.input_bytes, m.chunks, m.allocations, per_mb,
                m.steady_chunks, m.steady_allocations, per_chunk.c_str(), m.peak_heap, content, arguments);
    std::fprintf(stderr, "%-28s %10zu %8zu %8zu %10.2f %13zu %12zu %10s %10zu\n", scenario.c_str(), m.input_bytes,
                 m.chunks, m.allocations, per_mb, m.steady_chunks, m.steady_allocations, per_chunk.c_str(),
                 m.peak_heap);
}

} // namespace

int main()
{
    constexpr std::size_t size = 1024 * 1024;
    std::fprintf(stderr, "%-28s %10s %8s %8s %10s %13s %12s %10s %10s\n", "scenario", "input B", "chunks", "allocs",
                 "allocs/MB", "steady chunks", "steady allocs", "per chunk", "peak heap");
    const auto pipeline = [&]<class Provider>(const char* kind, Provider) {
        report(std::string("pipeline/") + kind, "provider event", size, pipeline_run<Provider>(kind, size), size);
    };
    pipeline("openai_chat", ts::openai_chat{});
    pipeline("anthropic", ts::anthropic{});
    pipeline("gemini", ts::gemini{});
    pipeline("gemini_partial", ts::gemini{});
    pipeline("mistral", ts::mistral{});
    report("pipeline/mixed", "provider event", 256, pipeline_run<ts::openai_chat>("mixed", 256), 0);
    // The body streamed to the application and not kept: the peak must not grow with the body.
    ts::pipeline_options streamed;
    streamed.keep_file_bodies = false;
    for (const std::size_t body : {size, 4 * size})
        report("pipeline/openai_chat/no_retention/content:" + std::to_string(body), "provider event", body,
               pipeline_run<ts::openai_chat>("openai_chat", body, streamed), body);

    const auto policy = [&]<class Policy>(const char* name, const char* kind, Policy) {
        // passthrough reads no call: its text is prose, so it has no N.
        const std::size_t content = std::string_view(name) == "passthrough" ? 0 : size;
        report(std::string("policy/") + name + "/chunk:16", "feed", size, policy_run<Policy>(kind, size, 16), content);
    };
    policy("passthrough", "xml", ts::api_tool_call{});
    policy("xml", "xml", ts::xml{});
    policy("json", "json", ts::json_calls{});
    policy("sentinel", "sentinel", ts::sentinel{});
    return 0;
}
