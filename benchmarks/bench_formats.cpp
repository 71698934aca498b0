// The model-native formats fed directly: handler<Format, counting sink>::feed() over prose and one
// long write_file call (the body ~N bytes, N = 64 KiB and 1 MiB), cut into chunks of 1, 4 and 16
// bytes. Linear time shows as t(1 MiB) / t(64 KiB) ≈ 16.
//
// Names: format/<name>/size:<bytes>/chunk:<bytes>.
#include "bench_support.hpp"

#include <toolstream/handler.hpp>
#include <toolstream/policies/formats/glm45.hpp>
#include <toolstream/policies/formats/hermes.hpp>
#include <toolstream/policies/formats/minimax_m2.hpp>
#include <toolstream/policies/formats/qwen3_coder.hpp>

#include <benchmark/benchmark.h>

#include <string>

namespace {

namespace ts = toolstream;
namespace tb = toolstream::bench;

constexpr std::size_t sizes[] = {64 * 1024, 1024 * 1024};
constexpr std::size_t chunk_sizes[] = {1, 4, 16};

// Source-like lines; `json` escapes them as a JSON string body.
std::string body_of(std::size_t size, bool json)
{
    std::string out;
    for (std::size_t i = 0; out.size() < size; ++i)
        out += json ? "    if (x < " + std::to_string(i) + ") { return \\\"caf\\u00e9\\\"; }\\n"
                    : "    if (x < " + std::to_string(i) + ") { return \"caf\xc3\xa9\"; } </p>\n";
    return out;
}

template<class Format>
std::string input_of(std::size_t size)
{
    const std::string prose = "I will write the file now, then explain what it does.\n";
    if constexpr (std::is_same_v<Format, ts::hermes>)
        return prose + "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"src/app.cpp\", \"content\": \""
            + body_of(size, true) + "\"}}\n</tool_call>\n" + prose;
    else if constexpr (std::is_same_v<Format, ts::qwen3_coder>)
        return prose + "<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/app.cpp\n</parameter>\n<parameter=content>\n"
            + body_of(size, false) + "\n</parameter>\n</function>\n</tool_call>\n" + prose;
    else if constexpr (std::is_same_v<Format, ts::glm45>)
        return prose + "<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>src/app.cpp</arg_value>\n"
            "<arg_key>content</arg_key>\n<arg_value>" + body_of(size, false) + "</arg_value>\n</tool_call>\n" + prose;
    else
        return prose + "<minimax:tool_call>\n<invoke name=\"write_file\">\n<parameter name=\"path\">src/app.cpp</parameter>\n"
            "<parameter name=\"content\">" + body_of(size, false) + "</parameter>\n</invoke>\n</minimax:tool_call>\n" + prose;
}

template<class Format>
void run_format(benchmark::State& state, const std::string& text, std::size_t chunk)
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
    if (tb::verify(state, t.complete_invocations == 1, std::string(Format::name) + ": complete calls "
                                                           + std::to_string(t.complete_invocations)))
        tb::report_bytes(state, text.size());
}

template<class Format>
void register_format()
{
    for (const std::size_t size : sizes)
        for (const std::size_t chunk : chunk_sizes) {
            const std::string name = std::string("format/") + std::string(Format::name) + "/size:" + std::to_string(size)
                + "/chunk:" + std::to_string(chunk);
            benchmark::RegisterBenchmark(name.c_str(), [size, chunk](benchmark::State& s) {
                static const std::string text = input_of<Format>(size);
                static const std::string large = input_of<Format>(sizes[1]);
                run_format<Format>(s, size == sizes[1] ? large : text, chunk);
            })->Unit(benchmark::kMillisecond);
        }
}

const bool registered = [] {
    register_format<ts::hermes>();
    register_format<ts::qwen3_coder>();
    register_format<ts::glm45>();
    register_format<ts::minimax_m2>();
    return true;
}();

} // namespace

BENCHMARK_MAIN();
