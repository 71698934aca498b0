// Heap allocations counted by the replaced operator new of support/counting_allocator_impl.hpp: a
// whole openai_chat pipeline run, large events through a converter, and each allocation of the
// decoders and converters made to fail.
// Its own executable: the replacement must not count allocations of unrelated tests.
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/mistral.hpp>
#include <toolstream/providers/ollama.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/providers/openai_responses.hpp>
#include <toolstream/transport/ndjson.hpp>
#include <toolstream/transport/sse.hpp>

#include "../../benchmarks/stream_generators.hpp"
#include "catch_compat.hpp"
#include "providers/large_streams.hpp"

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/counting_allocator_impl.hpp"   // this program's operator new and delete

namespace {

namespace heap = toolstream::test::heap;

// Streams `sse` through a fresh pipeline in `write_size` pieces; returns the allocations made
// from the first write to the end of finish().
std::size_t allocations_for(const std::string& sse, std::size_t write_size, std::size_t& invocations)
{
    toolstream::pipeline<toolstream::openai_chat, toolstream::api_tool_call, toolstream::null_sink> p;
    heap::counting_scope counted;
    for (std::size_t at = 0; at < sse.size(); at += write_size)
        (void)p.write(std::string_view(sse).substr(at, write_size));
    (void)p.finish();
    counted.stop();
    invocations = p.choice(0).invocations().size();
    return counted.allocations();
}

} // namespace

TEST_CASE("openai_chat pipeline: 10,000 argument deltas make fewer than 100 allocations", "[alloc]")
{
    // One write_file call whose arguments arrive as ~10,000 four-character deltas.
    const std::string sse = toolstream::bench::openai_chat_write_file_sse(40'000, 4);
    std::size_t events = 0;
    for (std::size_t at = 0; (at = sse.find("\n\ndata:", at)) != std::string::npos; ++at)
        ++events;
    REQUIRE(events >= 10'000);
    for (std::size_t write_size : {std::size_t{1} << 12, std::size_t{64}, std::size_t{1}}) {
        std::size_t invocations = 0;
        const std::size_t count = allocations_for(sse, write_size, invocations);
        INFO("writes of " << write_size << " bytes: " << count << " allocations for " << events << " events");
        CHECK(invocations == 1);
        CHECK(count < 100);
    }
}

TEST_CASE("openai_chat converter: a stream of events over 4 KiB stops allocating after the first", "[alloc]")
{
    // The payload parser's arena outgrows its 4 KiB first block on every such event; the next
    // payload gets a first block that holds it (issue 10).
    namespace large = toolstream::test::large;
    const std::string json = R"({"choices":[{"index":0,"delta":{"content":")" + std::string(large::tag_template)
        + large::escaped(large::body(5000)) + R"("}}]})";
    for (const std::size_t write_size : {std::size_t{1} << 16, std::size_t{1000}}) {
        auto shape = large::shape_builder<toolstream::openai_chat>{}.repeated(json).done();
        std::size_t bytes = 0;
        std::size_t errors = 0;
        auto emit = [&](std::size_t, const toolstream::chunk_response& c) { bytes += c.content.size(); };
        heap::counting_scope counted;
        large::feed<toolstream::openai_chat>(shape, 1000, write_size, emit, [&](toolstream::error_code) { ++errors; });
        counted.stop();
        INFO("writes of " << write_size << " bytes: " << counted.allocations() << " allocations for 1000 events");
        CHECK(errors == 0);
        CHECK(bytes > 1000 * 5000);
        CHECK(counted.allocations() < 50);
    }
}

namespace {

/// What a run saw with allocation `failing` failing.
struct failure_run {
    std::size_t allocations = 0;
    std::size_t out_of_memory = 0;   // errors reported as error::out_of_memory
    bool escaped = false;            // an exception left write(), finish() or convert()
};

/// Runs `body(note)` counting allocations, with allocation `fail_at` failing; `note` takes each
/// error_code returned. What `body` calls must not allocate itself: every failure is the library's.
template<class Body>
failure_run run_with_failure(std::size_t fail_at, Body&& body)
{
    failure_run out;
    const auto note = [&](toolstream::error_code ec) { out.out_of_memory += ec == toolstream::error::out_of_memory; };
    heap::counting_scope counted(fail_at);
    try {
        body(note);
    } catch (...) {
        out.escaped = true;
    }
    counted.stop();
    out.allocations = counted.allocations();
    return out;
}

/// Fails each allocation of a clean run of `body` in turn: none may escape as an exception, and
/// each must come back as error::out_of_memory.
template<class Body>
void check_every_failure(const Body& body)
{
    const failure_run clean = run_with_failure(heap::never, body);
    INFO(clean.allocations << " allocations");
    REQUIRE(!clean.escaped);
    REQUIRE(clean.out_of_memory == 0);
    REQUIRE(clean.allocations > 0);
    std::size_t escaped = 0;
    std::size_t unreported = 0;
    for (std::size_t k = 0; k < clean.allocations; ++k) {
        const failure_run r = run_with_failure(k, body);
        escaped += r.escaped;
        unreported += r.out_of_memory == 0;
    }
    CHECK(escaped == 0);
    CHECK(unreported == 0);
}

template<class Provider>
using decoder_of = std::conditional_t<toolstream::provider_converter<Provider>::wire_framing == toolstream::framing::sse,
                                      toolstream::sse_decoder, toolstream::ndjson_decoder>;

/// Checks the decoder of `Provider` on `stream` (4 KiB writes), then its converter on the
/// events the decoder gives, each on its own.
template<class Provider>
void check_every_failure(std::string_view stream)
{
    INFO(toolstream::provider_converter<Provider>::name);
    std::vector<std::pair<std::string, std::string>> events;
    {
        decoder_of<Provider> decoder;
        auto keep = [&](const toolstream::wire_event& ev) { events.emplace_back(ev.name, ev.data); };
        REQUIRE(!decoder.write(stream, keep));
        REQUIRE(!decoder.finish(keep));
    }
    check_every_failure([&](auto& note) {
        decoder_of<Provider> decoder;
        std::size_t seen = 0;
        auto visit = [&](const toolstream::wire_event&) { ++seen; };
        for (std::size_t at = 0; at < stream.size(); at += 4096)
            note(decoder.write(stream.substr(at, 4096), visit));
        note(decoder.finish(visit));
        static_cast<void>(seen);   // only counted so the visitor does something (clang 16 -Wunused-but-set-variable)
    });
    check_every_failure([&](auto& note) {
        toolstream::provider_converter<Provider> converter;
        std::size_t bytes = 0;
        auto emit = [&](std::size_t, const toolstream::chunk_response& c) { bytes += c.content.size(); };
        for (const auto& [name, data] : events)
            note(converter.convert(toolstream::wire_event{name, data}, emit));
        converter.finish(emit);
        static_cast<void>(bytes);   // likewise
    });
}

/// `n` bytes of text for a JSON string.
std::string filler(std::size_t n)
{
    std::string s;
    while (s.size() < n)
        s += "lorem \\\"ipsum\\\" \\n";
    s.resize(n);
    while (!s.empty() && s.back() == '\\')
        s.pop_back();
    return s;
}

} // namespace

TEST_CASE("every allocation that fails in a decoder or converter comes back as error::out_of_memory", "[alloc][oom]")
{
    // Each stream has small events, one over the arena's 4 KiB first block and one over
    // payload_parser::max_arena_text (64 KiB), text and a tool call.
    const std::string medium = filler(6000);
    const std::string large = filler(70000);
    const auto sse = [](std::string_view json, std::string_view name = {}) {
        return (name.empty() ? std::string() : "event: " + std::string(name) + "\n") + "data: " + std::string(json) + "\n\n";
    };
    const auto chat = [&](std::string_view delta, std::string_view finish = "null") {
        return sse(R"({"id":"c1","model":"m","choices":[{"index":0,"delta":)" + std::string(delta) + R"(,"finish_reason":)"
                   + std::string(finish) + "}]}");
    };
    const std::string chat_stream = chat(R"({"content":"Hi"})") + chat(R"({"content":")" + medium + R"("})")
        + chat(R"({"content":")" + large + R"("})")
        + chat(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{\"a\":"}}]})")
        + chat(R"({"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]})") + chat("{}", R"("tool_calls")")
        + "data: [DONE]\n\n";
    check_every_failure<toolstream::openai_chat>(chat_stream);
    check_every_failure<toolstream::mistral>(chat_stream);

    const auto block_delta = [&](std::string_view delta) {
        return sse(R"({"type":"content_block_delta","index":0,"delta":)" + std::string(delta) + "}", "content_block_delta");
    };
    check_every_failure<toolstream::anthropic>(
        sse(R"({"type":"message_start","message":{"id":"msg_1","model":"claude","usage":{"input_tokens":1}}})", "message_start")
        + sse(R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})", "content_block_start")
        + block_delta(R"({"type":"text_delta","text":")" + medium + R"("})")
        + block_delta(R"({"type":"text_delta","text":")" + large + R"("})")
        + sse(R"({"type":"content_block_stop","index":0})", "content_block_stop")
        + sse(R"({"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}})", "content_block_start")
        + sse(R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\": 1}"}})", "content_block_delta")
        + sse(R"({"type":"content_block_stop","index":1})", "content_block_stop")
        + sse(R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}})", "message_delta")
        + sse(R"({"type":"message_stop"})", "message_stop"));

    const auto text_delta = [&](std::string_view text) {
        return sse(R"({"type":"response.output_text.delta","output_index":0,"delta":")" + std::string(text) + R"("})",
                   "response.output_text.delta");
    };
    check_every_failure<toolstream::openai_responses>(
        sse(R"({"type":"response.created","response":{"id":"resp_1","model":"m","status":"in_progress"}})", "response.created")
        + text_delta("Hi") + text_delta(medium) + text_delta(large)
        + sse(R"({"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f"}})",
              "response.output_item.added")
        + sse(R"({"type":"response.function_call_arguments.delta","output_index":1,"delta":"{}"})",
              "response.function_call_arguments.delta")
        + sse(R"({"type":"response.function_call_arguments.done","output_index":1,"arguments":"{}"})",
              "response.function_call_arguments.done")
        + sse(R"({"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":1,"output_tokens":2}}})",
              "response.completed"));

    const auto candidate = [&](std::string_view parts, std::string_view finish = {}) {
        return sse(R"({"candidates":[{"content":{"role":"model","parts":[)" + std::string(parts) + "]}"
                   + (finish.empty() ? "" : R"(,"finishReason":")" + std::string(finish) + "\"")
                   + R"(,"index":0}],"responseId":"r1","modelVersion":"g"})");
    };
    check_every_failure<toolstream::gemini>(
        candidate(R"({"text":"Hi"})") + candidate(R"({"text":")" + medium + R"("})")
        + candidate(R"({"functionCall":{"name":"f","args":{"content":")" + large + R"("}}})")
        + candidate(R"({"functionCall":{"name":"g","willContinue":true}})")
        + candidate(R"({"functionCall":{"partialArgs":[{"jsonPath":"$.a","stringValue":"xy","willContinue":true}],"willContinue":true}})")
        + candidate(R"({"functionCall":{}})", "STOP"));

    const auto line = [](std::string_view message, std::string_view tail = R"("done":false})") {
        return R"({"model":"m","message":{"role":"assistant",)" + std::string(message) + "}," + std::string(tail) + "\n";
    };
    check_every_failure<toolstream::ollama>(
        line(R"("content":"Hi")") + line(R"("content":")" + medium + "\"") + line(R"("content":")" + large + "\"")
        + line(R"("content":"","tool_calls":[{"function":{"name":"f","arguments":{"a":1}}}])")
        + line(R"("content":"")", R"("done_reason":"stop","done":true,"eval_count":3})"));
}
