// The practical limits on the OpenAI Chat stream:
// - memcpy (in network-read pieces) and memchr for line ends: touching each byte once, the
//   minimum any SSE decoder does;
// - SSE + JSON: the transport, then Boost.JSON on each event's data, either into a DOM (what
//   the provider converters do, with nothing read from it) or through basic_parser with a handler
//   that keeps nothing (the cost of the JSON syntax alone, a floor for any converter built on
//   Boost.JSON without a tree).
//
// Names: baseline/<what>/openai_chat/content:<bytes>.
#include "bench_support.hpp"

#include <toolstream/detail/payload_parser.hpp>
#include <toolstream/provider.hpp>
#include <toolstream/transport/sse.hpp>

#include <boost/json/basic_parser_impl.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
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

// A basic_parser handler that accepts everything and keeps nothing.
struct null_handler {
    static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);
    using ec = boost::system::error_code;
    bool on_document_begin(ec&) { return true; }
    bool on_document_end(ec&) { return true; }
    bool on_object_begin(ec&) { return true; }
    bool on_object_end(std::size_t, ec&) { return true; }
    bool on_array_begin(ec&) { return true; }
    bool on_array_end(std::size_t, ec&) { return true; }
    bool on_key_part(std::string_view, std::size_t, ec&) { return true; }
    bool on_key(std::string_view, std::size_t, ec&) { return true; }
    bool on_string_part(std::string_view, std::size_t, ec&) { return true; }
    bool on_string(std::string_view, std::size_t, ec&) { return true; }
    bool on_number_part(std::string_view, ec&) { return true; }
    bool on_int64(std::int64_t, std::string_view, ec&) { return true; }
    bool on_uint64(std::uint64_t, std::string_view, ec&) { return true; }
    bool on_double(double, std::string_view, ec&) { return true; }
    bool on_bool(bool, ec&) { return true; }
    bool on_null(ec&) { return true; }
    bool on_comment_part(std::string_view, ec&) { return true; }
    bool on_comment(std::string_view, ec&) { return true; }
};

// The transport, then `parse(data)` on every event; counts the events parsed.
template<class Parse>
void run_sse_json(benchmark::State& state, Parse&& parse)
{
    const std::string& bytes = tb::input("openai_chat", content_size);
    std::size_t parsed = 0;
    const tb::profiled_region region;
    for (auto _ : state) {
        parsed = 0;
        toolstream::sse_decoder decoder;
        const auto visit = [&](const toolstream::stream_event& ev) { parsed += parse(ev.data); };
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
    boost::json::basic_parser<null_handler> parser{boost::json::parse_options{}};
    run_sse_json(state, [&](std::string_view data) -> std::size_t {
        boost::system::error_code ec;
        parser.reset();
        parser.write_some(false, data.data(), data.size(), ec);
        return !ec;
    });
}

const bool registered = [] {
    const std::string suffix = "/openai_chat/content:" + std::to_string(content_size);
    benchmark::RegisterBenchmark(("baseline/memcpy" + suffix).c_str(), run_memcpy)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("baseline/memchr" + suffix).c_str(), run_memchr)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("baseline/sse+json_dom" + suffix).c_str(), run_sse_dom)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("baseline/sse+json_sax" + suffix).c_str(), run_sse_sax)->Unit(benchmark::kMillisecond);
    return true;
}();

} // namespace

BENCHMARK_MAIN();
