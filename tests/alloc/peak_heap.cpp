// Peak live heap for one write_file call of N bytes of arguments, measured by the replaced operator
// new/delete of support/counting_allocator_impl.hpp, through the openai_chat pipeline (native
// call, api_tool_call) and through text formats (hermes, xml) in a text_pipeline; and the
// no-retention option (`retain_bodies = false`), under which the heap does not grow with N.
// Its own executable: the replacement must not see the allocations of unrelated tests.
#include <toolstream/formats/hermes.hpp>
#include <toolstream/formats/xml.hpp>
#include <toolstream/pipeline.hpp>
#include <toolstream/policies/api_tool_call.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/text_pipeline.hpp>
#include <toolstream/writers/sinks.hpp>

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

/// Collects the CONTENT of file segments (the application writing the body to disk) and the
/// write_file invocation; keeps nothing else.
struct body_sink {
    std::string* body = nullptr;   // null: the bytes are only counted
    std::size_t* bytes = nullptr;
    tool_invocation* last = nullptr;

    void operator()(const segment_event& e) const
    {
        if (e.type != segment_event_type::SEGMENT_CONTENT || e.segment_kind != segment_type::write_file)
            return;
        *bytes += e.delta.size();
        if (body != nullptr)
            body->append(e.delta);
    }
    void operator()(const tool_invocation& inv) const
    {
        // Metadata only: a copy of the arguments would be the test's own heap.
        last->id = inv.id;
        last->name = inv.name;
        last->status = inv.status;
        last->error = inv.error;
        last->arguments = {};
        last->arguments_raw = {};
        if (auto it = inv.arguments.find("path"); it != inv.arguments.end())
            last->arguments["path"] = it->value();
        if (auto it = inv.arguments.find("content"); it != inv.arguments.end())
            last->arguments["content_bytes"] = static_cast<std::int64_t>(it->value().as_string().size());
        if (auto it = inv.arguments.find("content_bytes"); it != inv.arguments.end())
            last->arguments["streamed_bytes"] = it->value();
        last->arguments["raw_bytes"] = inv.arguments_raw.size();
    }
};

struct measured {
    std::size_t peak = 0;        // most bytes held above the start
    std::size_t held_after = 0;  // bytes held after finish(), pipeline alive
    std::size_t body_bytes = 0;  // CONTENT bytes of the write_file segment
    tool_invocation call;        // metadata of the write_file invocation
};

/// Streams `input` (made before the measure starts) in `write_size` writes through `Pipeline`.
template<class Pipeline>
measured run(std::string_view input, pipeline_options options, std::size_t writes = write_size)
{
    measured m;
    const std::size_t base = heap::reset_peak();
    {
        Pipeline p(body_sink{nullptr, &m.body_bytes, &m.call}, std::move(options));
        for (std::size_t at = 0; at < input.size(); at += writes)
            REQUIRE(!p.write(input.substr(at, writes)));
        REQUIRE(!p.finish());
        m.held_after = heap::live_bytes() - base;
    }
    m.peak = heap::peak_bytes() - base;
    return m;
}

using openai_pipeline = pipeline<openai_chat, api_tool_call, body_sink>;
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
        const std::string sse = bench::openai_chat_write_file_sse(content, 16);
        const std::string hermes = hermes_text(content);
        const std::string xml = bench::xml_embedded_text(content);
        for (const bool keep : {true, false}) {
            pipeline_options options;
            options.keep_invocations = keep;
            INFO("content " << content << " bytes, N " << n << (keep ? ", invocations kept" : ", not kept"));
            const measured chat = run<openai_pipeline>(sse, options);
            report(keep ? "openai_chat, kept" : "openai_chat", n, chat);
            const measured h = run<hermes_pipeline>(hermes, options);
            report(keep ? "hermes, kept" : "hermes", n, h);
            const measured x = run<xml_pipeline>(xml, options);
            report(keep ? "xml, kept" : "xml", n, x);
            for (const measured* m : {&chat, &h, &x}) {
                CHECK(m->body_bytes == content);
                CHECK(m->call.is_complete());
                CHECK(m->call.arguments.at("content_bytes").as_int64() == static_cast<std::int64_t>(content));
                CHECK(m->peak <= 3 * n);
            }
        }
    }
}
