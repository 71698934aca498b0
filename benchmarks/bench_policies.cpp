// Each text parser policy fed directly: handler<Policy, counting sink>::feed() over model text
// holding a 256 KiB write_file call, cut into chunks of 1, 4, 16, 64 and 4096 bytes. passthrough
// is the floor (the handler and writer alone). api_tool_call's text path is passthrough's; its
// native path is measured here fed argument fragments directly (no transport, no JSON payloads).
//
// Names: policy/<policy>/chunk:<bytes>, native/api_tool_call/fragment:<bytes>.
#include "bench_support.hpp"

#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/json_calls.hpp>
#include <toolstream/parse/formats/sentinel.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/types.hpp>

#include <benchmark/benchmark.h>

#include <string>

namespace {

namespace ts = toolstream;
namespace tb = toolstream::bench;

constexpr std::size_t content_size = 256 * 1024;
constexpr std::size_t chunk_sizes[] = {1, 4, 16, 64, 4096};

// The input each policy parses, and what a correct parse yields.
struct case_of {
    const char* input;
    std::size_t complete_invocations;   // calls in the text
    bool content_is_file;               // tool content is exactly the file (else: at least it)
};

template<class Policy>
constexpr case_of policy_case()
{
    if constexpr (std::is_same_v<Policy, ts::xml>)
        return {"xml", 2, false};   // write_file, then a generic read_file
    else if constexpr (std::is_same_v<Policy, ts::json_calls>)
        return {"json", 1, false};  // a tool_call segment streaming the call's raw JSON
    else if constexpr (std::is_same_v<Policy, ts::sentinel>)
        return {"sentinel", 1, true};
    else
        return {"xml", 0, false};   // passthrough: everything is text
}

template<class Policy>
void run_policy(benchmark::State& state, std::size_t chunk)
{
    constexpr case_of c = policy_case<Policy>();
    const std::string& text = tb::input(c.input, content_size);
    tb::tally t;
    {
        const tb::profiled_region region;
        for (auto _ : state) {
            t = {};
            ts::handler<Policy, tb::counting_sink> h(tb::counting_sink{&t});
            tb::feed_chunked(text, chunk, [&](std::string_view piece) { (void)h.feed(piece); });
            (void)h.finalize();
            benchmark::DoNotOptimize(t);
        }
    }
    const bool tool_ok = c.complete_invocations == 0 ? t.text_bytes == text.size()
                       : c.content_is_file          ? t.tool_bytes == content_size
                                                    : t.tool_bytes >= content_size;
    if (tb::verify(state, tool_ok && t.complete_invocations == c.complete_invocations,
                   std::string(c.input) + ": tool bytes " + std::to_string(t.tool_bytes) + ", text bytes " +
                       std::to_string(t.text_bytes) + ", complete calls " + std::to_string(t.complete_invocations)))
        tb::report_bytes(state, text.size());
}

// api_tool_call assembling one write_file call from argument fragments of `fragment` bytes, as a
// converter hands them over (one reused chunk, the delta string reassigned per fragment).
void run_native(benchmark::State& state, std::size_t fragment)
{
    const std::string arguments = tb::write_file_arguments_json(content_size);
    tb::tally t;
    ts::chunk_response chunk;
    const tb::profiled_region region;
    for (auto _ : state) {
        t = {};
        ts::handler<ts::api_tool_call, tb::counting_sink> h(tb::counting_sink{&t});
        chunk.tool_calls.resize(1);
        auto& d = chunk.tool_calls.front();
        d.call_id = tb::openai_tool_call_id;
        d.name = tb::write_file_tool_name;
        d.is_complete = false;
        tb::feed_chunked(arguments, fragment, [&](std::string_view piece) {
            d.arguments_delta.assign(piece);
            (void)h.feed(chunk);
            d.call_id.clear();
            d.name.clear();
        });
        d.arguments_delta.clear();
        d.is_complete = true;
        (void)h.feed(chunk);
        (void)h.finalize();
        benchmark::DoNotOptimize(t);
    }
    if (tb::verify(state, t.tool_bytes == content_size && t.complete_invocations == 1,
                   "api_tool_call: tool bytes " + std::to_string(t.tool_bytes)))
        tb::report_bytes(state, arguments.size());
}

template<class Policy>
void register_policy(const char* name)
{
    for (const std::size_t chunk : chunk_sizes) {
        const std::string full = std::string("policy/") + name + "/chunk:" + std::to_string(chunk);
        benchmark::RegisterBenchmark(full.c_str(), [chunk](benchmark::State& s) { run_policy<Policy>(s, chunk); })
            ->Unit(benchmark::kMicrosecond);
    }
}

const bool registered = [] {
    register_policy<ts::api_tool_call>("passthrough");
    register_policy<ts::xml>("xml");
    register_policy<ts::json_calls>("json");
    register_policy<ts::sentinel>("sentinel");
    for (const std::size_t fragment : chunk_sizes) {
        const std::string name = "native/api_tool_call/fragment:" + std::to_string(fragment);
        benchmark::RegisterBenchmark(name.c_str(), [fragment](benchmark::State& s) { run_native(s, fragment); })
            ->Unit(benchmark::kMicrosecond);
    }
    return true;
}();

} // namespace

BENCHMARK_MAIN();
