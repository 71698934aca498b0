// Model-native formats with JSON arguments (deepseek, kimi, mistral, llama3_json, openai; policies/formats/) fed directly: handler<Policy, counting sink>::feed()
// over prose, one long write_file call (a JSON-escaped body of 64 KiB or 1 MiB) and prose, cut
// into chunks of 1, 4 and 16 bytes. t(1 MiB)/t(64 KiB) near 16 shows linear time.
//
// Names: format/<format>/size:<bytes>/chunk:<bytes>.
#include "bench_support.hpp"

#include <toolstream/handler.hpp>
#include <toolstream/policies/formats/deepseek_v3.hpp>
#include <toolstream/policies/formats/deepseek_v31.hpp>
#include <toolstream/policies/formats/kimi_k2.hpp>
#include <toolstream/policies/formats/llama3_json.hpp>
#include <toolstream/policies/formats/mistral.hpp>
#include <toolstream/policies/formats/openai.hpp>
#include <toolstream/policies/reasoning.hpp>

#include <benchmark/benchmark.h>

#include <string>
#include <string_view>

namespace {

namespace ts = toolstream;
namespace tb = toolstream::bench;

constexpr std::size_t sizes[] = {64 * 1024, 1024 * 1024};
constexpr std::size_t chunk_sizes[] = {1, 4, 16};

// A body of about `size` bytes once decoded: code lines with quotes, a tab and a marker-like "<".
std::string escaped_body(std::size_t size)
{
    std::string out;
    std::size_t decoded = 0;
    for (std::size_t line = 0; decoded < size; ++line) {
        const std::string text = "    x_" + std::to_string(line) + " = \\\"<value>\\\"\\t# é\\n";
        out += text;
        decoded += text.size() - 4;   // each of \" \" \t \n decodes to one byte
    }
    return out;
}

// `open` + the call's arguments + `close`, between prose.
std::string call_input(std::string_view open, std::string_view close, std::size_t size)
{
    return "I will write the file now.\n" + std::string(open) + "{\"path\": \"src/gen.py\", \"content\": \"" + escaped_body(size)
        + "\"}" + std::string(close) + "\nDone: the file is written.";
}

template<class Policy>
std::string input_for(std::size_t size);

template<>
std::string input_for<ts::deepseek_v31>(std::size_t size)
{
    return call_input("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>write_file<｜tool▁sep｜>",
                      "<｜tool▁call▁end｜><｜tool▁calls▁end｜>", size);
}
template<>
std::string input_for<ts::deepseek_v3>(std::size_t size)
{
    return call_input("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>write_file\n```json\n",
                      "\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", size);
}
template<>
std::string input_for<ts::kimi_k2>(std::size_t size)
{
    return call_input("<|tool_calls_section_begin|><|tool_call_begin|>functions.write_file:0<|tool_call_argument_begin|>",
                      "<|tool_call_end|><|tool_calls_section_end|>", size);
}
template<>
std::string input_for<ts::mistral_calls>(std::size_t size)
{
    return call_input("[TOOL_CALLS]write_file[ARGS]", "", size);
}
template<>
std::string input_for<ts::llama3_json>(std::size_t size)
{
    // A call only after <|python_tag|> once prose came first.
    return call_input("<|python_tag|>{\"name\": \"write_file\", \"parameters\": ", "}", size);
}
template<>
std::string input_for<ts::openai>(std::size_t size)
{
    return "<|channel|>analysis<|message|>" + std::string(size / 4, 'r') + "<|end|><|start|>assistant"
        + call_input("<|channel|>commentary to=functions.write_file <|constrain|>json<|message|>", "<|call|>", size);
}
using r1_v31 = ts::reasoning_policy<ts::deepseek_v31, ts::deepseek_r1_reasoning>;
template<>
std::string input_for<r1_v31>(std::size_t size)
{
    return std::string(size / 4, 'r') + "</think>" + input_for<ts::deepseek_v31>(size);
}

template<class Policy, std::size_t Size>
void run_format(benchmark::State& state, std::size_t chunk)
{
    static const std::string input = input_for<Policy>(Size);
    tb::tally t;
    for (auto _ : state) {
        t = {};
        ts::handler<Policy, tb::counting_sink> h(tb::counting_sink{&t});
        tb::feed_chunked(input, chunk, [&](std::string_view piece) { (void)h.feed(piece); });
        (void)h.finalize();
        benchmark::DoNotOptimize(t);
    }
    if (tb::verify(state, t.complete_invocations == 1 && t.tool_bytes >= Size,
                   "tool bytes " + std::to_string(t.tool_bytes) + ", complete calls " + std::to_string(t.complete_invocations)))
        tb::report_bytes(state, input.size());
}

template<class Policy, std::size_t Size>
void register_size(const char* name)
{
    for (const std::size_t chunk : chunk_sizes) {
        const std::string full = std::string("format/") + name + "/size:" + std::to_string(Size) + "/chunk:" + std::to_string(chunk);
        benchmark::RegisterBenchmark(full.c_str(), [chunk](benchmark::State& s) { run_format<Policy, Size>(s, chunk); })
            ->Unit(benchmark::kMillisecond);
    }
}

template<class Policy>
void register_format(const char* name)
{
    register_size<Policy, sizes[0]>(name);
    register_size<Policy, sizes[1]>(name);
}

const bool registered = [] {
    register_format<ts::deepseek_v31>("deepseek_v31");
    register_format<ts::deepseek_v3>("deepseek_v3");
    register_format<ts::kimi_k2>("kimi_k2");
    register_format<ts::mistral_calls>("mistral");
    register_format<ts::llama3_json>("llama3_json");
    register_format<ts::openai>("openai");
    register_format<r1_v31>("deepseek_r1+deepseek_v31");
    return true;
}();

} // namespace

BENCHMARK_MAIN();
