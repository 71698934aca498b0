// Shared pieces of the toolstream benchmarks: inputs (generated, or read from the files the
// peer runner uses), a sink that consumes every event, and chunked feeding.
#pragma once

#include "stream_generators.hpp"

#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define TOOLSTREAM_BENCH_TOGGLE_COLLECT() CALLGRIND_TOGGLE_COLLECT
#else
#define TOOLSTREAM_BENCH_TOGGLE_COLLECT() ((void)0)
#endif

namespace toolstream::bench {

/// Argument deltas of every SSE input: 4 code points, as in the peer runs.
inline constexpr std::size_t delta_chars = 4;
/// Bytes per pipeline write: the size of the peers' network reads.
inline constexpr std::size_t network_read = 16 * 1024;
/// write_file content sizes of the scaling series (16 KiB is the peers' smallest size).
inline constexpr std::size_t content_sizes[] = {16 * 1024, 64 * 1024, 256 * 1024, 1024 * 1024};

/// A long-running process keeps the heap it has grown. glibc instead returns freed blocks of
/// 128 KiB or more to the kernel, so each fresh pipeline would fault its big buffers (a whole
/// call's content) back in; on a loaded VM that costs more than the parsing. Raising both
/// thresholds makes every iteration run on a warm heap, as the second stream of a process does.
inline const bool heap_kept_warm = [] {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
    return true;
}();

/// Under `valgrind --tool=callgrind --collect-atstart=no`, only the code inside a
/// profiled_region is counted: the timed loop, without input generation and the harness.
/// Elsewhere it costs a few instructions per benchmark, outside the timed loop.
class profiled_region {
public:
    profiled_region() noexcept { TOOLSTREAM_BENCH_TOGGLE_COLLECT(); }
    ~profiled_region() { TOOLSTREAM_BENCH_TOGGLE_COLLECT(); }
    profiled_region(const profiled_region&) = delete;
    profiled_region& operator=(const profiled_region&) = delete;
};

/// Generates the input `kind` (a gen_streams.cpp kind) of `size` content bytes.
inline std::string generate(std::string_view kind, std::size_t size)
{
    if (kind == "openai_chat") return openai_chat_write_file_sse(size, delta_chars);
    if (kind == "anthropic") return anthropic_write_file_sse(size, delta_chars);
    if (kind == "openai_responses") return openai_responses_write_file_sse(size, delta_chars);
    if (kind == "ollama") return ollama_content_ndjson(size, delta_chars);
    if (kind == "gemini") return gemini_write_file_sse(size, delta_chars);
    if (kind == "mistral") return mistral_write_file_sse(size, delta_chars);
    if (kind == "gemini_partial") return gemini_partial_args_write_file_sse(size, delta_chars);
    if (kind == "mixed") return mixed_chat_sse(size);
    if (kind == "xml") return xml_embedded_text(size);
    if (kind == "json") return json_embedded_text(size);
    if (kind == "sentinel") return sentinel_embedded_text(size);
    throw std::invalid_argument("unknown input kind: " + std::string(kind));
}

/// The input `kind` of `size`, built once per process. With TOOLSTREAM_BENCH_STREAMS set, it is
/// read from `<dir>/<kind>-<size>.sse` when that file exists: the very bytes the peers parse.
inline const std::string& input(std::string_view kind, std::size_t size)
{
    static std::map<std::pair<std::string, std::size_t>, std::string> cache;
    const auto key = std::make_pair(std::string(kind), size);
    if (const auto it = cache.find(key); it != cache.end())
        return it->second;
    std::string bytes;
    if (const char* dir = std::getenv("TOOLSTREAM_BENCH_STREAMS")) {
        std::ifstream in(std::string(dir) + "/" + key.first + "-" + std::to_string(size) + ".sse",
                         std::ios::binary | std::ios::ate);
        if (in) {
            bytes.resize(static_cast<std::size_t>(in.tellg()));
            in.seekg(0);
            in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
            if (!in)
                bytes.clear();
        }
    }
    if (bytes.empty())
        bytes = generate(kind, size);
    return cache.emplace(key, std::move(bytes)).first->second;
}

/// What a run produced: enough to check it and to keep the compiler from dropping the work.
struct tally {
    std::size_t events = 0;
    std::size_t text_bytes = 0;       // text and reasoning deltas
    std::size_t tool_bytes = 0;       // tool segment deltas (decoded file content included)
    std::size_t invocations = 0;
    std::size_t complete_invocations = 0;
    std::size_t argument_bytes = 0;   // the argument text of complete invocations

    void operator()(const segment_event& e) noexcept
    {
        ++events;
        if (e.type != segment_event_type::SEGMENT_CONTENT)
            return;
        benchmark::DoNotOptimize(e.delta.data());
        if (e.segment_kind == segment_type::text || e.segment_kind == segment_type::reasoning)
            text_bytes += e.delta.size();
        else
            tool_bytes += e.delta.size();
    }
    void operator()(const tool_invocation& i) noexcept
    {
        ++invocations;
        complete_invocations += i.is_complete();
        argument_bytes += i.is_complete() ? i.arguments_raw.size() : 0;
    }
};

/// A sink counting into a tally it does not own: copies of it (pipelines and handlers keep their
/// sink by value) all count into the caller's tally.
struct counting_sink {
    tally* t;
    void operator()(const segment_event& e) const noexcept { (*t)(e); }
    void operator()(const tool_invocation& i) const noexcept { (*t)(i); }
};

/// Calls `write(piece)` for consecutive pieces of `bytes` of `chunk` bytes (the last may be shorter).
template<class Write>
void feed_chunked(std::string_view bytes, std::size_t chunk, Write&& write)
{
    for (std::size_t at = 0; at < bytes.size(); at += chunk)
        write(bytes.substr(at, chunk));
}

/// Marks the run failed unless `ok`; the check runs once, outside the timed loop.
inline bool verify(benchmark::State& state, bool ok, const std::string& what)
{
    if (!ok)
        state.SkipWithError(("output check failed: " + what).c_str());
    return ok;
}

inline void report_bytes(benchmark::State& state, std::size_t bytes_per_iteration)
{
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(bytes_per_iteration));
    state.counters["input_bytes"] = static_cast<double>(bytes_per_iteration);
}

} // namespace toolstream::bench
