// The practical limits on the OpenAI Chat stream:
// - memcpy (in network-read pieces) and memchr for line ends: touching each byte once, the
//   minimum any SSE decoder does;
// - SSE + JSON: the transport, then Boost.JSON on each event's data, either into a DOM (what
//   the provider converters do, with nothing read from it) or through basic_parser with a handler
//   that keeps nothing (the cost of the JSON syntax alone, a floor for any converter built on
//   Boost.JSON without a tree);
// - a SAX converter prototype: the same basic_parser with a handler that fills the chunk the
//   openai_chat converter would emit (choice index, content, reasoning, tool-call index/id/name/
//   arguments, finish reason) straight from the parse, then api_tool_call behind it. It handles
//   the shapes of this stream only (one choice, string arguments, no errors or usage), so it
//   measures what the tree-less design would reach, not a replacement for the converter.
//
// Names: baseline/<what>/openai_chat/content:<bytes>.
#include "bench_support.hpp"

#include <toolstream/detail/chunk_builder.hpp>
#include <toolstream/detail/payload_parser.hpp>
#include <toolstream/handler.hpp>
#include <toolstream/policies/api_tool_call.hpp>
#include <toolstream/provider.hpp>
#include <toolstream/transport/sse.hpp>

#include <boost/json/basic_parser_impl.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

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

// Fills one chunk_response per event from the parse itself: the paths the openai_chat converter
// reads, and nothing else is kept.
struct chat_chunk_handler {
    static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);
    using ec = boost::system::error_code;

    enum class scope : std::uint8_t { other, root, choices, choice, delta, tool_calls, tool_call, function };
    enum class field : std::uint8_t { none, choice_index, finish_reason, content, reasoning, call_index, call_id, name, arguments };

    toolstream::detail::chunk_builder* out = nullptr;
    std::array<scope, 32> scopes{};
    std::size_t depth = 0;
    std::string key;        // the key being read, in parts
    std::string last_key;   // the key whose value comes next (a container's, for child())
    field current = field::none;
    toolstream::tool_call_delta* call = nullptr;
    std::string finish;
    std::vector<std::size_t> open_calls;   // indexes seen and not yet completed

    scope child(bool is_object) const
    {
        if (depth == 0)
            return is_object ? scope::root : scope::other;
        const scope parent = scopes[depth - 1];
        if (parent == scope::root && last_key == "choices" && !is_object) return scope::choices;
        if (parent == scope::choices && is_object) return scope::choice;
        if (parent == scope::choice && last_key == "delta" && is_object) return scope::delta;
        if (parent == scope::delta && last_key == "tool_calls" && !is_object) return scope::tool_calls;
        if (parent == scope::tool_calls && is_object) return scope::tool_call;
        if (parent == scope::tool_call && last_key == "function" && is_object) return scope::function;
        return scope::other;
    }
    bool open(bool is_object)
    {
        const scope s = child(is_object);
        if (s == scope::tool_call)
            call = &out->add_call(0);
        if (depth < scopes.size())
            scopes[depth] = s;
        ++depth;
        current = field::none;
        return true;
    }
    bool close()
    {
        --depth;
        current = field::none;
        return true;
    }
    bool on_document_begin(ec&) { return true; }
    bool on_document_end(ec&) { return true; }
    bool on_object_begin(ec&) { return open(true); }
    bool on_object_end(std::size_t, ec&) { return close(); }
    bool on_array_begin(ec&) { return open(false); }
    bool on_array_end(std::size_t, ec&) { return close(); }
    bool on_key_part(std::string_view s, std::size_t, ec&)
    {
        key.append(s);
        return true;
    }
    bool on_key(std::string_view s, std::size_t, ec&)
    {
        key.append(s);
        last_key.swap(key);
        key.clear();
        const std::string_view key = last_key;
        const scope where = depth > 0 && depth <= scopes.size() ? scopes[depth - 1] : scope::other;
        current = field::none;
        if (where == scope::choice)
            current = key == "index" ? field::choice_index : key == "finish_reason" ? field::finish_reason : field::none;
        else if (where == scope::delta)
            current = key == "content" ? field::content : key == "reasoning_content" ? field::reasoning : field::none;
        else if (where == scope::tool_call)
            current = key == "index" ? field::call_index : key == "id" ? field::call_id : field::none;
        else if (where == scope::function)
            current = key == "name" ? field::name : key == "arguments" ? field::arguments : field::none;
        return true;
    }
    std::string* target()
    {
        auto& chunk = out->chunk();
        switch (current) {
        case field::content: return &chunk.content;
        case field::reasoning: return &chunk.reasoning;
        case field::finish_reason: return &finish;
        case field::call_id: return call != nullptr ? &call->call_id : nullptr;
        case field::name: return call != nullptr ? &call->name : nullptr;
        case field::arguments: return call != nullptr ? &call->arguments_delta : nullptr;
        default: return nullptr;
        }
    }
    bool on_string_part(std::string_view s, std::size_t, ec&)
    {
        if (std::string* t = target())
            t->append(s);
        return true;
    }
    bool on_string(std::string_view s, std::size_t, ec& e)
    {
        on_string_part(s, 0, e);
        current = field::none;
        return true;
    }
    bool integer(std::uint64_t v)
    {
        if (current == field::call_index && call != nullptr) {
            call->index = v;
            if (std::find(open_calls.begin(), open_calls.end(), v) == open_calls.end())
                open_calls.push_back(v);
        }
        current = field::none;
        return true;
    }
    bool scalar()
    {
        current = field::none;
        return true;
    }
    bool on_number_part(std::string_view, ec&) { return true; }
    bool on_int64(std::int64_t v, std::string_view, ec&) { return integer(static_cast<std::uint64_t>(v)); }
    bool on_uint64(std::uint64_t v, std::string_view, ec&) { return integer(v); }
    bool on_double(double, std::string_view, ec&) { return scalar(); }
    bool on_bool(bool, ec&) { return scalar(); }
    bool on_null(ec&) { return scalar(); }
    bool on_comment_part(std::string_view, ec&) { return true; }
    bool on_comment(std::string_view, ec&) { return true; }
};

void run_sse_sax_pipeline(benchmark::State& state)
{
    const std::string& bytes = tb::input("openai_chat", content_size);
    tb::tally t;
    const tb::profiled_region region;
    for (auto _ : state) {
        t = {};
        toolstream::sse_decoder decoder;
        toolstream::detail::chunk_builder builder;
        boost::json::basic_parser<chat_chunk_handler> parser{boost::json::parse_options{}};
        parser.handler().out = &builder;
        toolstream::handler<toolstream::api_tool_call, tb::counting_sink> h(tb::counting_sink{&t});
        const auto visit = [&](const toolstream::stream_event& ev) {
            auto& sax = parser.handler();
            builder.begin();
            sax.finish.clear();
            sax.call = nullptr;
            boost::system::error_code ec;
            parser.reset();
            parser.write_some(false, ev.data.data(), ev.data.size(), ec);
            if (ec)
                return;
            if (!sax.finish.empty()) {   // a finish reason completes every open call
                builder.chunk().finish_reason = sax.finish;
                builder.chunk().is_complete = true;
                for (const std::size_t index : sax.open_calls)
                    builder.add_call(index).is_complete = true;
                sax.open_calls.clear();
            }
            if (!builder.empty())
                (void)h.feed(builder.chunk());
        };
        tb::feed_chunked(bytes, tb::network_read, [&](std::string_view piece) { (void)decoder.write(piece, visit); });
        (void)decoder.finish(visit);
        (void)h.finalize();
        benchmark::DoNotOptimize(t);
    }
    if (tb::verify(state, t.tool_bytes == content_size && t.complete_invocations == 1,
                   "sax prototype: tool bytes " + std::to_string(t.tool_bytes)))
        tb::report_bytes(state, bytes.size());
}

const bool registered = [] {
    const std::string suffix = "/openai_chat/content:" + std::to_string(content_size);
    benchmark::RegisterBenchmark(("baseline/memcpy" + suffix).c_str(), run_memcpy)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("baseline/memchr" + suffix).c_str(), run_memchr)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("baseline/sse+json_dom" + suffix).c_str(), run_sse_dom)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("baseline/sse+json_sax" + suffix).c_str(), run_sse_sax)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("baseline/sse+sax_converter_prototype+api_tool_call" + suffix).c_str(),
                                 run_sse_sax_pipeline)->Unit(benchmark::kMillisecond);
    return true;
}();

} // namespace

BENCHMARK_MAIN();
