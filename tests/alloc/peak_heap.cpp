// Peak live heap for one write_file call of N bytes of arguments, measured by the replaced operator
// new/delete of support/counting_allocator_impl.hpp, through the openai_chat pipeline (native
// call, api_tool_call) and through text formats (hermes, xml) in a text_pipeline; and the
// no-retention option (`retain_bodies = false`), under which the heap does not grow with N.
// Its own executable: the replacement must not see the allocations of unrelated tests.
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/pipeline/text_pipeline.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/mistral.hpp>
#include <toolstream/providers/ollama.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/sinks.hpp>

#include "../../benchmarks/stream_generators.hpp"
#include "catch_compat.hpp"

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

#include "support/counting_allocator_impl.hpp"   // this program's operator new and delete

namespace {

using namespace toolstream;
namespace heap = toolstream::test::heap;
namespace bench = toolstream::bench;

constexpr std::size_t mib = std::size_t{1} << 20;
constexpr std::size_t write_size = std::size_t{64} << 10;

/// FNV-1a, to compare bodies without holding them.
struct fnv1a {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    void add(std::string_view s) noexcept
    {
        for (unsigned char c : s)
            h = (h ^ c) * 0x100000001b3ULL;
    }
};

/// Reads the CONTENT of write_file segments as an application writing the body to disk would
/// (counted and hashed, not kept) and the write_file invocation's metadata; keeps nothing else.
struct body_sink {
    std::size_t* bytes = nullptr;
    fnv1a* hash = nullptr;
    tool_invocation* last = nullptr;

    void operator()(const segment_event& e) const
    {
        if (e.type != segment_event_type::SEGMENT_CONTENT || e.segment_kind != segment_type::write_file)
            return;
        *bytes += e.delta.size();
        hash->add(e.delta);
    }
    void operator()(const tool_invocation& inv) const
    {
        if (inv.name != "write_file")
            return;
        // Metadata only: a copy of the arguments would be the test's own heap.
        last->id = inv.id;
        last->name = inv.name;
        last->status = inv.status;
        last->error = inv.error;
        last->streamed_body_bytes = inv.streamed_body_bytes;
        last->arguments = {};
        last->arguments_raw = {};
        if (auto it = inv.arguments.find("path"); it != inv.arguments.end())
            last->arguments["path"] = it->value();
        if (auto it = inv.arguments.find("content"); it != inv.arguments.end())
            last->arguments["content_bytes"] = static_cast<std::int64_t>(it->value().as_string().size());
        last->arguments["has_body_key"] = inv.arguments.contains("content");
        last->arguments["raw_bytes"] = static_cast<std::int64_t>(inv.arguments_raw.size());
    }
};

struct measured {
    std::size_t peak = 0;        // most bytes held above the start
    std::size_t held_after = 0;  // bytes held after finish(), pipeline alive
    std::size_t body_bytes = 0;  // CONTENT bytes of the write_file segment
    fnv1a body_hash;             // of those bytes
    tool_invocation call;        // metadata of the write_file invocation
};

/// Streams `input` (made before the measure starts) in `write_size` writes through `Pipeline`.
template<class Pipeline>
measured run(std::string_view input, pipeline_options options, std::size_t writes = write_size)
{
    measured m;
    const std::size_t base = heap::reset_peak();
    {
        Pipeline p(body_sink{&m.body_bytes, &m.body_hash, &m.call}, std::move(options));
        for (std::size_t at = 0; at < input.size(); at += writes)
            REQUIRE(!p.write(input.substr(at, writes)));
        REQUIRE(!p.finish());
        m.held_after = heap::live_bytes() - base;
    }
    m.peak = heap::peak_bytes() - base;
    return m;
}

using openai_pipeline = pipeline<openai_chat, api_tool_call, body_sink>;
using gemini_pipeline = pipeline<gemini, api_tool_call, body_sink>;
using ollama_pipeline = pipeline<ollama, api_tool_call, body_sink>;
using mistral_pipeline = pipeline<mistral, api_tool_call, body_sink>;
using hermes_pipeline = text_pipeline<hermes, body_sink>;
using xml_pipeline = text_pipeline<xml, body_sink>;

std::string hermes_text(std::size_t content_bytes)
{
    return "I'll write it.\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": "
           + bench::write_file_arguments_json(content_bytes) + "}\n</tool_call>\nDone.\n";
}

void report(const char* what, std::size_t n, const measured& m)
{
    std::printf("%-34s N=%9zu  peak %6.2fxN  held after %6.2fxN\n", what, n, double(m.peak) / double(n),
                double(m.held_after) / double(n));
}

} // namespace

TEST_CASE("peak heap: one write_file call holds at most 3x its arguments", "[alloc][peak]")
{
    for (const std::size_t content : {1 * mib, 4 * mib}) {
        const std::size_t n = bench::write_file_arguments_json(content).size();   // N: argument bytes
        const std::string sse = bench::openai_chat_write_file_sse(content, 64);
        const std::string gemini_sse = bench::gemini_write_file_sse(content, 16);
        const std::string hermes = hermes_text(content);
        const std::string xml = bench::xml_embedded_text(content);
        for (const bool keep : {true, false}) {
            pipeline_options options;
            options.keep_invocations = keep;
            INFO("content " << content << " bytes, N " << n << (keep ? ", invocations kept" : ", not kept"));
            const measured chat = run<openai_pipeline>(sse, options);
            report(keep ? "openai_chat, kept" : "openai_chat", n, chat);
            const measured whole = run<gemini_pipeline>(gemini_sse, options);
            report(keep ? "gemini (one event), kept" : "gemini (one event)", n, whole);
            const measured h = run<hermes_pipeline>(hermes, options);
            report(keep ? "hermes, kept" : "hermes", n, h);
            const measured x = run<xml_pipeline>(xml, options);
            report(keep ? "xml, kept" : "xml", n, x);
            for (const measured* m : {&chat, &whole, &h, &x}) {
                CHECK(m->body_bytes == content);
                CHECK(m->call.is_complete());
                CHECK(m->call.arguments.at("content_bytes").as_int64() == static_cast<std::int64_t>(content));
                CHECK(!m->call.streamed_body_bytes);
            }
            // The arguments' text (grown by half, then cut to size) and, at END, the object
            // parsed from it, whose body is allocated once at its decoded size.
            CHECK(chat.peak <= 3 * n);
            // A whole call in one event: while it parses, the event and the arguments written
            // from it; then the converter frees the event (wire_event::release), the handler
            // takes the arguments as the call's text (the chunk passed by rvalue), and END adds
            // the body.
            CHECK(whole.peak <= 3 * n);
            CHECK(x.peak <= 3 * n);
            // Measured 2.7x (1 MiB) and 3.2x (4 MiB): the text engine's json_file_arguments also
            // keeps the call's raw JSON for the verdict of a call that fails to decode (in blocks,
            // which never move), beside the call's text, which holds old and new buffers while it
            // grows by half.
            CHECK(h.peak <= 7 * n / 2);
        }
    }
}

// Ollama sends a call whole, in one NDJSON line that its converter reads into a DOM.
TEST_CASE("peak heap: a whole call in one Ollama line", "[alloc][peak]")
{
    const std::string arguments = bench::write_file_arguments_json(mib);
    const std::size_t n = arguments.size();
    const std::string ndjson =
        R"({"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"write_file","arguments":)"
        + arguments + R"(}}]},"done":false})" "\n"
        R"({"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"})" "\n";
    const measured m = run<ollama_pipeline>(ndjson, {});
    report("ollama (one line), kept", n, m);
    CHECK(m.body_bytes == mib);
    CHECK(m.call.is_complete());
    // Measured 5.3x (6.7x before the line was freed once read and the call's text taken from
    // the chunk): while the line parses, Boost.JSON gathers the body in its parse stack (which
    // keeps its capacity) before copying it into the DOM, and the DOM lives until the chunk is
    // delivered, beside the call's text and body.
    CHECK(m.peak <= 6 * n);
}

// Mistral sends a call whole, in one SSE event whose arguments are one JSON string.
TEST_CASE("peak heap: a whole call in one Mistral event", "[alloc][peak]")
{
    const std::string arguments = bench::write_file_arguments_json(mib);
    const std::size_t n = arguments.size();
    const std::string sse = bench::mistral_write_file_sse(mib, 4);
    const measured m = run<mistral_pipeline>(sse, {});
    report("mistral (one event), kept", n, m);
    CHECK(m.body_bytes == mib);
    CHECK(m.call.is_complete());
    // Measured 2.39x (5.86x before the event was freed once read, its arguments decoded into room
    // reserved at the event's size and handed on rather than copied).
    CHECK(m.peak <= 3 * n);
}

namespace {

/// Checks a run with keep_file_bodies off: every body byte in the events, and an invocation
/// that says the body was streamed instead of carrying it.
void check_streamed(const measured& m, const std::string& content)
{
    fnv1a expected;
    expected.add(content);
    CHECK(m.body_bytes == content.size());
    CHECK(m.body_hash.h == expected.h);
    CHECK(m.call.is_complete());
    CHECK(m.call.arguments.at("path").as_string() == bench::write_file_path);
    CHECK(m.call.arguments.at("has_body_key") == false);   // an absent body, not an empty one
    CHECK(m.call.arguments.at("raw_bytes").as_int64() == 0);
    REQUIRE(m.call.streamed_body_bytes.has_value());
    CHECK(*m.call.streamed_body_bytes == content.size());
}

} // namespace

TEST_CASE("peak heap: with keep_file_bodies off a call's heap does not grow with its body", "[alloc][peak]")
{
    pipeline_options options;
    options.keep_file_bodies = false;
    options.keep_invocations = true;   // the invocation is kept: it holds no body
    const auto check = [&](const char* what, auto run_one) {
        const std::string small = bench::write_file_content(1 * mib);
        const std::string large = bench::write_file_content(8 * mib);
        const measured a = run_one(std::size_t{1} * mib);
        const measured b = run_one(std::size_t{8} * mib);
        std::printf("%-34s peak %zu bytes for 1 MiB, %zu for 8 MiB; held after %zu, %zu\n", what, a.peak, b.peak,
                    a.held_after, b.held_after);
        INFO(what << ": peak " << a.peak << " for 1 MiB, " << b.peak << " for 8 MiB");
        check_streamed(a, small);
        check_streamed(b, large);
        // O(1) in the body: what is held is bounded by the size of one write (64 KiB here, whose
        // fragment of escaped JSON is delivered from a buffer of up to four times that), not N.
        CHECK(b.peak < a.peak + 7 * mib / 32);
        CHECK(b.peak < 8 * write_size);
        CHECK(b.held_after < 8 * write_size);   // xml: 250 KiB of its own buffers after 64 KiB writes
    };
    check("openai_chat, no bodies", [&](std::size_t content) {
        const std::string sse = bench::openai_chat_write_file_sse(content, 64);
        return run<openai_pipeline>(sse, options);
    });
    check("hermes, no bodies", [&](std::size_t content) {
        const std::string text = hermes_text(content);
        return run<hermes_pipeline>(text, options);
    });
    check("xml, no bodies", [&](std::size_t content) {
        const std::string text = bench::xml_embedded_text(content);
        return run<xml_pipeline>(text, options);
    });
}

TEST_CASE("peak heap: keep_file_bodies off streams the same body at every chunking", "[alloc][peak]")
{
    pipeline_options options;
    options.keep_file_bodies = false;
    const std::string content = bench::write_file_content(8 * 1024);
    const std::string sse = bench::openai_chat_write_file_sse(content.size(), 4);
    const std::string hermes = hermes_text(content.size());
    const std::string xml = bench::xml_embedded_text(content.size());
    for (const std::size_t writes : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}, std::size_t{64},
                                     std::size_t{4096}}) {
        INFO("writes of " << writes << " bytes");
        check_streamed(run<openai_pipeline>(sse, options, writes), content);
        check_streamed(run<hermes_pipeline>(hermes, options, writes), content);
        check_streamed(run<xml_pipeline>(xml, options, writes), content);
    }
}
