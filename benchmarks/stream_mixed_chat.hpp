// The mixed OpenAI Chat benchmark stream (reasoning, text and three interleaved generic calls) and
// what it carries, decoded; part of stream_generators.hpp. Standard library only.
#pragma once

#include "stream_content.hpp"
#include "stream_provider_sse.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream::bench {

/// One generic call of mixed_chat_sse, as the benchmark should see it after the stream.
struct mixed_call {
    std::string_view id;
    std::string_view name;
    std::string arguments;
};

/// What mixed_chat_sse(scale) carries, decoded, so benchmarks can verify their output.
struct mixed_chat_expected {
    std::string reasoning;
    std::string text;
    std::array<mixed_call, 3> calls;
};

inline mixed_chat_expected mixed_chat_expected_output(std::size_t scale)
{
    detail::splitmix64 rng(mixed_seed);
    mixed_chat_expected e;
    for (std::size_t i = 0; i < 8 * scale; ++i) {
        e.reasoning += detail::expand(rng, "The {w} {w} looks {a}; check {w} → {w} before touching \"{w}\".\n");
    }
    for (std::size_t i = 0; i < 4 * scale; ++i) {
        e.text += detail::expand(rng, "I'll search for \"{w}\", read src/{w}.cpp and run the {a} tests (a < b, c > d).\n");
    }

    std::string search = detail::expand(rng, "{\"query\":\"TODO({w})\",\"paths\":[");
    for (std::size_t i = 0; i < scale; ++i) search += detail::expand(rng, i ? ",\"src/{w}.cpp\"" : "\"src/{w}.cpp\"");
    search += "],\"max_results\":25,\"case_sensitive\":false}";

    std::string read = detail::expand(rng, "{\"path\":\"src/{w}.cpp\",\"ranges\":[");
    for (std::size_t i = 0; i < scale; ++i) {
        read += (i ? ",{\"start\":" : "{\"start\":") + std::to_string(i * 40 + 1) +
                ",\"end\":" + std::to_string(i * 40 + 40) + "}";
    }
    read += "],\"encoding\":\"utf-8\"}";

    std::string run = "{\"command\":\"make -j2 test\",\"args\":[";
    for (std::size_t i = 0; i < scale; ++i) run += detail::expand(rng, i ? ",\"--{w}\"" : "\"--{w}\"");
    run += detail::expand(rng, "],\"env\":{\"CC\":\"g++\",\"CFLAGS\":\"-O2 -Wall\"},\"timeout_s\":30.5,"
                               "\"dry_run\":false,\"notes\":null,\"label\":\"{a} \\\"quoted\\\" \\u2192 ok\\n\"}");

    e.calls = {mixed_call{"call_bench_mix_0", "search_code", std::move(search)},
               mixed_call{"call_bench_mix_1", "read_file", std::move(read)},
               mixed_call{"call_bench_mix_2", "run_command", std::move(run)}};
    return e;
}

/// OpenAI Chat Completions stream exercising everything but a big string: `reasoning_content`
/// deltas, then `content` deltas, then three parallel generic calls whose argument deltas
/// interleave by index (0,1,2,0,1,2,…). Pieces are `mixed_delta_chars` code points; `scale`
/// multiplies the text lengths and the arrays inside the arguments (scale ≥ 1).
inline std::string mixed_chat_sse(std::size_t scale)
{
    const mixed_chat_expected e = mixed_chat_expected_output(scale);
    std::string out;
    std::size_t tokens = 0;
    const auto emit = [&](const std::string& delta) {
        detail::append_sse(out, {}, detail::openai_chunk(delta));
        ++tokens;
    };
    emit("{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"\"}");
    for (const auto piece : detail::split_code_points(e.reasoning, mixed_delta_chars)) {
        emit("{\"reasoning_content\":" + detail::json_quoted(piece) + "}");
    }
    for (const auto piece : detail::split_code_points(e.text, mixed_delta_chars)) {
        emit("{\"content\":" + detail::json_quoted(piece) + "}");
    }
    std::array<std::vector<std::string_view>, 3> pieces;
    std::size_t longest = 0;
    for (std::size_t k = 0; k < 3; ++k) {
        pieces[k] = detail::split_code_points(e.calls[k].arguments, mixed_delta_chars);
        longest = std::max(longest, pieces[k].size());
    }
    for (std::size_t i = 0; i < longest; ++i) {
        for (std::size_t k = 0; k < 3; ++k) {
            if (i >= pieces[k].size()) continue;
            emit(i == 0 ? detail::openai_tool_delta(k, e.calls[k].id, e.calls[k].name, pieces[k][i])
                        : detail::openai_tool_delta(k, {}, {}, pieces[k][i]));
        }
    }
    detail::append_openai_trailer(out, tokens);
    return out;
}

} // namespace toolstream::bench
