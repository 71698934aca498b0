// Peak live heap while up to 200 MB of hostile input streams through toolstream in 64 KiB writes,
// measured by the replaced operator new/delete of support/counting_allocator_impl.hpp.
// Its own executable: the replacement must not see the allocations of unrelated tests.
//
// The bound, 16 MiB, is what a service can budget per stream whatever a model or a network
// sends; each case below needs a limit of toolstream to stay within it (see docs/errors.md).
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/ollama.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/writers/openai_sse.hpp>

#include "catch_compat.hpp"
#include "providers/large_streams.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "support/counting_allocator_impl.hpp"   // this program's operator new and delete

namespace {

using namespace toolstream;
namespace heap = toolstream::test::heap;

constexpr std::size_t total = std::size_t{200} << 20;
constexpr std::size_t write_size = std::size_t{64} << 10;
constexpr std::size_t bound = std::size_t{16} << 20;

/// Peak live heap above what was live at the start, while `run` streams.
std::size_t peak_during(const std::function<void()>& run)
{
    const std::size_t base = heap::reset_peak();
    run();
    return heap::peak_bytes() - base;
}

/// Writes `head`, then `bytes` (default `total`) made of `unit` repeated, in `write_size` writes,
/// to `write` (the 64 KiB buffer is refilled as it goes: 200 MB are never held), then the rest
/// of the unit; returns the bytes written.
template<class Write>
std::size_t stream(std::string_view head, std::string_view unit, Write&& write, std::size_t bytes = total)
{
    std::string buffer(head);
    std::size_t sent = 0;
    std::size_t next = 0;   // position in `unit` that the buffer continues from
    while (sent < bytes) {
        while (buffer.size() < write_size) {
            const std::size_t n = std::min(unit.size() - next, write_size - buffer.size());
            buffer.append(unit.substr(next, n));
            next = (next + n) % unit.size();
        }
        write(std::string_view(buffer));
        sent += buffer.size();
        buffer.clear();
    }
    if (next != 0) {   // end on a whole unit, as a stream would
        write(unit.substr(next));
        sent += unit.size() - next;
    }
    return sent;
}

} // namespace

TEST_CASE("memory bound: an unterminated <tool name=\" then 200 MB through the xml policy", "[alloc][memory]")
{
    std::size_t held = 0;
    const std::size_t used = peak_during([&] {
        handler<xml, null_sink> h;
        CHECK(stream("Let me call it. <tool name=\"", "abcdefghijklmnopqrstuvwxyz0123456789 <> ", [&](std::string_view bytes) {
            REQUIRE(!h.feed(bytes));
            held = std::max(held, h.policy().held_bytes());
        }) >= total);
        REQUIRE(!h.finalize());
        CHECK(h.invocations().empty());   // the opening tag outgrew max_tag_size: text
    });
    INFO("peak " << used << " bytes, most held " << held);
    CHECK(held < 4096 + 16);
    CHECK(used < bound);
}

TEST_CASE("memory bound: never-closing string arguments through openai_chat with max_argument_bytes", "[alloc][memory]")
{
    native_call_limits limits;
    limits.max_argument_bytes = std::size_t{1} << 20;
    // A write_file (decoded as it streams) and a generic call, each argument string never closes.
    const std::string head =
        R"(data: {"choices":[{"index":0,"delta":{"tool_calls":[)"
        R"({"index":0,"id":"call_a","function":{"name":"write_file","arguments":"{\"path\":\"a.txt\",\"content\":\""}},)"
        R"({"index":1,"id":"call_b","function":{"name":"search","arguments":"{\"query\":\""}}]}}]})"
        "\n\n";
    std::string unit;
    for (int index : {0, 1})
        unit += R"(data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":)" + std::to_string(index)
            + R"(,"function":{"arguments":")" + std::string(1000, 'x') + "\"}}]}}]}\n\n";
    std::size_t too_large = 0;
    const std::size_t used = peak_during([&] {
        pipeline_options options;
        options.native_limits = limits;
        pipeline<openai_chat, api_tool_call, null_sink> p(null_sink{}, options);
        CHECK(stream(head, unit, [&](std::string_view bytes) { too_large += p.write(bytes) == error::arguments_too_large; })
              >= total);
        REQUIRE(!p.finish());
        const auto& calls = p.choice(0).invocations();
        REQUIRE(calls.size() == 2);
        for (const auto& call : calls) {
            CHECK(call.status == invocation_status::invalid_arguments);
            CHECK(call.error == make_error_code(error::arguments_too_large).message());
        }
    });
    INFO("peak " << used << " bytes");
    CHECK(too_large >= 1);   // reported by the write that crossed the limit
    CHECK(used < bound);
}

TEST_CASE("memory bound: 100000 parallel call indexes through openai_chat", "[alloc][memory]")
{
    native_call_limits limits;
    limits.max_argument_bytes = 4096;
    // Round robin over 100,000 indexes: each event names the next index with an id, a name and
    // a piece of arguments, so every index opens a call; 64 MB cycle through them 5 times.
    std::string unit;
    for (std::size_t index = 0; index < 100'000; ++index)
        unit += R"(data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":)" + std::to_string(index)
            + R"(,"id":"call_)" + std::to_string(index) + R"(","function":{"name":"f","arguments":"{\"k\": 1, "}}]}}]})"
            + "\n\n";
    std::size_t refused = 0;
    const std::size_t used = peak_during([&] {
        pipeline_options options;
        options.native_limits = limits;
        pipeline<openai_chat, api_tool_call, null_sink> p(null_sink{}, options);
        constexpr std::size_t bytes = std::size_t{64} << 20;
        CHECK(stream(
                  "", unit,
                  [&](std::string_view piece) {
                      const auto ec = p.write(piece);
                      refused += ec == error::too_many_calls || ec == error::invalid_payload;
                  },
                  bytes)
              >= bytes);
        REQUIRE(!p.finish());
        CHECK(p.choice(0).invocations().size() == native_call_limits{}.max_calls);
    });
    INFO("peak " << used << " bytes");
    CHECK(refused > 0);
    CHECK(used < bound);
}

TEST_CASE("memory bound: a 200 MB SSE event and a 200 MB NDJSON line are dropped as they arrive", "[alloc][memory]")
{
    // The transports hold an event or a line up to their limit (defaults 16 and 64 MiB), then
    // drop the rest as it arrives; 1 MiB here shows that nothing else grows.
    pipeline_options options;
    options.sse.max_event_size = std::size_t{1} << 20;
    options.ndjson.max_line_size = std::size_t{1} << 20;
    const std::size_t used = peak_during([&] {
        pipeline<openai_chat, api_tool_call, null_sink> sse(null_sink{}, options);
        std::size_t too_large = 0;
        CHECK(stream("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"", "0123456789abcdef",
                     [&](std::string_view bytes) { too_large += sse.write(bytes) == error::event_too_large; })
              >= total);
        CHECK(too_large == 1);   // once per event
        CHECK(!sse.finish());   // not provider_mismatch: the oversized event stays the stream's error
        CHECK(sse.first_error() == error::event_too_large);

        pipeline<ollama, api_tool_call, null_sink> ndjson(null_sink{}, options);
        too_large = 0;
        CHECK(stream("{\"message\":{\"content\":\"", "0123456789abcdef",
                     [&](std::string_view bytes) { too_large += ndjson.write(bytes) == error::line_too_large; })
              >= total);
        CHECK(too_large == 1);   // once per line
        CHECK(!ndjson.finish());
        CHECK(ndjson.first_error() == error::line_too_large);
    });
    INFO("peak " << used << " bytes");
    CHECK(used < bound);
}

namespace {

/// Discards chunks, counting the bytes of content and arguments they carry.
struct byte_counter {
    std::size_t bytes = 0;
    void operator()(std::size_t, const chunk_response& c)
    {
        bytes += c.content.size();
        for (const auto& d : c.tool_calls)
            bytes += d.arguments_delta.size();
    }
};

/// Peak live heap while `count` events, each carrying `bytes` of text, go through the decoder and
/// converter of `Provider` in 64 KiB writes; the stream is made before the measure starts.
template<class Provider>
std::size_t peak_for_events(std::size_t bytes, std::size_t count, std::string_view event_json)
{
    namespace large = toolstream::test::large;
    const std::string unit = std::string(large::tag_template) + large::escaped(large::body(bytes));
    std::string json(event_json);
    json.replace(json.find("@"), 1, unit);
    auto shape = large::shape_builder<Provider>{}.repeated(json).done();
    byte_counter counter;
    std::size_t errors = 0;
    const std::size_t used = peak_during([&] {
        large::feed<Provider>(shape, count, write_size, counter, [&](error_code) { ++errors; });
    });
    CHECK(errors == 0);
    CHECK(counter.bytes >= count * (bytes - 3));
    return used;
}

} // namespace

TEST_CASE("memory bound: large events use a small multiple of the largest, whatever their number", "[alloc][memory]")
{
    // Before issue 10's fix the payload parser's arena doubled its next block with every payload
    // over 4 KiB, and threw std::bad_alloc after about 23 of them.
    const auto check = [](auto provider, std::string_view event_json) {
        using P = decltype(provider);
        INFO(provider_converter<P>::name);
        const std::size_t mib = std::size_t{1} << 20;
        const std::size_t few = peak_for_events<P>(mib, 10, event_json);
        const std::size_t many = peak_for_events<P>(mib, 100, event_json);
        const std::size_t huge = peak_for_events<P>(8 * mib, 3, event_json);
        INFO("peak for 10 events of 1 MiB " << few << ", for 100 " << many << ", for 3 of 8 MiB " << huge);
        // Measured (Debug): 5.5x to 7.7x the event's content for 1 MiB, the same for 8 MiB. The
        // copies: the SSE line and the event's data, Boost's partial-string buffer, the DOM, the
        // chunk's content (and for Gemini the arguments re-serialized).
        CHECK(many <= few + few / 8);   // does not grow with the number of events
        CHECK(many < 10 * mib);
        CHECK(huge < 10 * 8 * mib);
    };
    check(openai_chat{}, R"({"choices":[{"index":0,"delta":{"content":"@"}}]})");
    check(anthropic{}, R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"@"}})");
    check(gemini{}, R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"content":"@"}}}]},"index":0}]})");
    check(ollama{}, R"({"message":{"role":"assistant","content":"@"},"done":false})");
}

TEST_CASE("memory bound: a 24 MiB native write_file relayed as SSE is held as text and parsed, no more", "[alloc][memory]")
{
    // The arguments' text (growing by half once large) and, at END, its parse: each layer that
    // used to keep a copy (the call assembler's raw text, the decoded body, the invocation's
    // copies) now borrows or moves one. Measured (-O2): 2.5x the arguments, while the text last
    // grows.
    const std::size_t args = std::size_t{24} << 20;
    const std::string head =
        R"(data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function",)"
        R"("function":{"name":"write_file","arguments":"{\"path\":\"a.txt\",\"content\":\""}}]}}]})" "\n\n";
    const std::string unit = R"(data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":")"
                             + std::string(4000, 'a') + "\"}}]}}]}\n\n";
    const std::string tail = R"(data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]}}]})"
                             "\n\n" R"(data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})" "\n\ndata: [DONE]\n\n";
    struct byte_count {
        std::size_t* n;
        void operator()(std::string_view bytes) const { *n += bytes.size(); }
    };
    struct invocation_check {
        std::size_t* complete;
        std::size_t body;
        void operator()(const tool_invocation& inv) const
        {
            *complete += inv.is_complete();
            CHECK(inv.arguments.at("content").as_string().size() == body);
        }
    };
    const std::size_t body = (args + 3999) / 4000 * 4000;
    for (const bool keep : {true, false}) {
        INFO((keep ? "invocations kept" : "keep_invocations off"));
        std::size_t out = 0;
        std::size_t held_after = 0;
        const std::size_t base = heap::live_bytes();
        const std::size_t used = peak_during([&] {
            pipeline_options options;
            options.native_limits.max_argument_bytes = 2 * args;
            options.keep_invocations = keep;
            std::size_t invocations_seen = 0;
            using writer = openai_sse_writer<byte_count>;
            pipeline<openai_chat, api_tool_call, tee_sink<writer, invocation_check>> p(
                {writer(byte_count{&out}), invocation_check{&invocations_seen, body}}, options);
            REQUIRE(!p.write(head));
            std::string buffer;
            for (std::size_t sent = 0; sent < args; sent += 4000) {
                buffer += unit;
                if (buffer.size() >= write_size) {
                    REQUIRE(!p.write(buffer));
                    buffer.clear();
                }
            }
            REQUIRE(!p.write(buffer + tail));
            REQUIRE(!p.finish());
            p.sink().first().done();
            CHECK(invocations_seen == 1);
            CHECK(p.choice(0).invocations().size() == (keep ? 1u : 0u));
            held_after = heap::live_bytes() - base;
        });
        INFO("peak " << used << " bytes, held after the call " << held_after);
        CHECK(out > args);   // the SSE answer carries the whole body
        CHECK(used < 3 * args);
        if (!keep)
            CHECK(held_after < bound);
    }
}
