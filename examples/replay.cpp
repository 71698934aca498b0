// toolstream-replay: replays a recorded provider stream (or plain model text) through toolstream.
//
//   toolstream-replay --provider openai_chat|openai_responses|anthropic|gemini|ollama|mistral|text
//                     [--parser NAME] [--reasoning-parser NAME] [--tools FILE.json]
//                     [--chunk N] [--emit summary|events|invocations|openai-sse|tarko]
//                     [--tool-events] [--extensions chunk|comment] [FILE|-]
//
// --emit summary (default) prints one JSON object in the `.expected.json` shape; events prints
// one segment event per line; invocations prints one {id, name, arguments, status} per line;
// openai-sse writes the stream as OpenAI Chat Completions SSE (chat.completion.chunk), ending
// with data: [DONE]; tarko prints one Agent TARS assistant_streaming_tool_call event per line.
// --tool-events adds, after each complete tool call, what a host running the tool would add
// (progress `step` and `complete`, and a result echoing the arguments), encoded per --extensions.
// --tools reads an OpenAI `tools` array whose parameter schemas type the raw values of the
// key/value formats (qwen3_coder, glm45, minimax_m2); without it they are strings.
// Exit: 0 once the stream was processed (a provider error goes in "error"), 2 bad usage, 1 I/O.
#include <toolstream/handler.hpp>
#include <toolstream/runtime_pipeline.hpp>
#include <toolstream/writers/openai_sse.hpp>
#include <toolstream/writers/tarko_events.hpp>

#include "replay_serve.hpp"   // programs/viewer: --serve

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <charconv>
#include <concepts>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace ts = toolstream;

namespace {

enum class emit_mode { summary, events, invocations, openai_sse, tarko };

struct arguments {
    std::string provider;
    std::string parser;
    std::string reasoning_parser;
    std::shared_ptr<const ts::tool_schemas> schemas;   // --tools
    std::size_t chunk = 64 * 1024;
    emit_mode emit = emit_mode::summary;
    bool tool_events = false;
    ts::extension_encoding extensions = ts::extension_encoding::chunk;
    std::string input = "-";
};

// The provider and parser names come from the registry.
std::string joined(std::span<const std::string_view> names)
{
    std::string out;
    for (auto name : names)
        out.append(out.empty() ? "" : "|").append(name);
    return out;
}

const std::string usage_text = "usage: toolstream-replay --provider " + joined(ts::provider_names) + "|text\n"
    "                         [--parser " + joined(ts::policy_names) + "]\n"
    "                         [--reasoning-parser NAME] [--tools FILE.json]\n"
    "                         [--chunk N] [--emit summary|events|invocations|openai-sse|tarko]\n"
    "                         [--tool-events] [--extensions chunk|comment] [FILE|-]\n";

// The schemas of the OpenAI `tools` array in `path`; null (and a message) when it is not one.
std::shared_ptr<const ts::tool_schemas> read_tools(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    boost::system::error_code ec;
    const boost::json::value tools = boost::json::parse(text, ec);
    if (!in || ec || !tools.is_array()) {
        std::cerr << "toolstream-replay: " << path << " is not a JSON tools array\n";
        return nullptr;
    }
    return std::make_shared<const ts::tool_schemas>(tools.get_array());
}

std::optional<arguments> parse_arguments(int argc, char** argv)
{
    arguments a;
    a.parser = std::string(ts::default_policy_name());
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--provider" && has_value) {
            a.provider = argv[++i];
        } else if (arg == "--parser" && has_value) {
            a.parser = argv[++i];
        } else if (arg == "--reasoning-parser" && has_value) {
            a.reasoning_parser = argv[++i];
        } else if (arg == "--tools" && has_value) {
            if (a.schemas = read_tools(argv[++i]); a.schemas == nullptr)
                return std::nullopt;
        } else if (arg == "--chunk" && has_value) {
            const std::string_view v = argv[++i];
            auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), a.chunk);
            if (ec != std::errc{} || end != v.data() + v.size() || a.chunk == 0)
                return std::nullopt;
        } else if (arg == "--emit" && has_value) {
            const std::string_view v = argv[++i];
            if (v == "summary")
                a.emit = emit_mode::summary;
            else if (v == "events")
                a.emit = emit_mode::events;
            else if (v == "invocations")
                a.emit = emit_mode::invocations;
            else if (v == "openai-sse")
                a.emit = emit_mode::openai_sse;
            else if (v == "tarko")
                a.emit = emit_mode::tarko;
            else
                return std::nullopt;
        } else if (arg == "--tool-events") {
            a.tool_events = true;
        } else if (arg == "--extensions" && has_value) {
            const std::string_view v = argv[++i];
            if (v == "chunk")
                a.extensions = ts::extension_encoding::chunk;
            else if (v == "comment")
                a.extensions = ts::extension_encoding::comment;
            else
                return std::nullopt;
        } else if (arg == "-" || (!arg.empty() && arg[0] != '-')) {
            a.input = arg;
        } else {
            return std::nullopt;
        }
    }
    if (a.provider.empty() || !ts::make_policy(a.parser, a.reasoning_parser))
        return std::nullopt;
    return a;
}

// Prints one Agent TARS `assistant_streaming_tool_call` event per line (--emit tarko).
struct print_line {
    void operator()(std::string_view line) const { std::cout << line << '\n'; }
};

// Prints events or invocations as they happen, per --emit.
struct line_printer {
    emit_mode mode;
    ts::tarko_event_sink<print_line> tarko{print_line{}};

    void operator()(const ts::segment_event& e)
    {
        if (mode == emit_mode::events)
            std::cout << ts::to_json_string(e) << '\n';
        else if (mode == emit_mode::tarko)
            tarko(e);
    }
    void operator()(const ts::argument_fragment& f)
    {
        if (mode == emit_mode::tarko)
            tarko(f);
    }
    void operator()(const ts::response_started& r)
    {
        if (mode == emit_mode::tarko)
            tarko(r);
    }
    void operator()(const ts::tool_invocation& inv) const
    {
        if (mode != emit_mode::invocations)
            return;
        const boost::json::object line{{"id", inv.id},
                                       {"name", inv.name},
                                       {"arguments", inv.arguments},
                                       {"status", boost::json::value_from(inv.status)}};
        std::cout << boost::json::serialize(line) << '\n';
    }
};

struct stdout_bytes {
    void operator()(std::string_view bytes) const { std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size())); }
};
using sse_writer = ts::openai_sse_writer<stdout_bytes>;

// Writes OpenAI SSE; with --tool-events, also what a host running each complete call would add.
struct sse_sink {
    sse_writer writer;
    bool tool_events = false;

    template<class Event>
        requires std::invocable<sse_writer&, const Event&>
    void operator()(const Event& e)
    {
        writer(e);
    }
    void operator()(const ts::tool_invocation& inv)
    {
        if (!tool_events || !inv.is_complete())
            return;
        const boost::json::value step_data{{"current", 1}, {"total", 1}};
        writer.progress({inv.name, inv.id, ts::tool_phase::step, "running " + inv.name, &step_data, 0});
        writer.progress({inv.name, inv.id, ts::tool_phase::complete, "done", nullptr, 0});
        writer.result({inv.id, inv.name, boost::json::serialize(inv.arguments), false});
    }
};

sse_sink make_sse_sink(const arguments& a)
{
    ts::openai_sse_options options;
    options.extensions = a.extensions;
    return sse_sink{sse_writer{stdout_bytes{}, std::move(options)}, a.tool_events};
}

// Shows how far a large input is, on a terminal only.
class progress {
public:
    explicit progress(std::uintmax_t total) : show_(::isatty(2) != 0 && total > (50u << 20)), total_(total) {}
    void advance(std::size_t n)
    {
        done_ += n;
        if (show_ && done_ - shown_ >= (16u << 20)) {
            shown_ = done_;
            std::fprintf(stderr, "\rtoolstream-replay: %ju / %ju MB", done_ >> 20, total_ >> 20);
        }
    }
    ~progress()
    {
        if (show_ && shown_ > 0)
            std::fputc('\n', stderr);
    }

private:
    bool show_;
    std::uintmax_t total_;
    std::uintmax_t done_ = 0;
    std::uintmax_t shown_ = 0;
};

// Reads the input in --chunk pieces and hands each to `write`; false on an I/O failure.
template<class Write>
bool read_in_chunks(const arguments& a, Write&& write)
{
    std::FILE* in = a.input == "-" ? stdin : std::fopen(a.input.c_str(), "rb");
    if (in == nullptr) {
        std::cerr << "toolstream-replay: cannot open " << a.input << "\n";
        return false;
    }
    std::error_code size_error;
    const auto total = a.input == "-" ? 0 : std::filesystem::file_size(a.input, size_error);
    progress shown(size_error ? 0 : total);
    std::vector<char> buffer(a.chunk);
    bool ok = true;
    for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), in)) > 0;) {
        write(std::string_view(buffer.data(), n));
        shown.advance(n);
    }
    if (std::ferror(in)) {
        std::cerr << "toolstream-replay: read error on " << a.input << "\n";
        ok = false;
    }
    if (in != stdin)
        std::fclose(in);
    return ok;
}

// Plain model text through a handler, written as OpenAI SSE: one choice, which made calls when
// any is complete.
int replay_text_as_sse(const arguments& a)
{
    ts::handler<ts::runtime_policy, sse_sink> h(make_sse_sink(a), {}, ts::make_policy(a.parser, a.reasoning_parser, a.schemas).value());
    if (!read_in_chunks(a, [&](std::string_view piece) { (void)h.feed(piece); }))
        return 1;
    (void)h.finalize();
    bool made_calls = false;
    for (const auto& inv : h.invocations())
        made_calls = made_calls || inv.is_complete();
    auto& writer = h.sink().writer;
    writer(ts::choice_finished{0, {}, made_calls ? ts::finish_kind::tool_calls : ts::finish_kind::stop});
    writer.done();
    return 0;
}

int replay_stream_as_sse(const arguments& a)
{
    auto made = ts::runtime_pipeline<sse_sink>::create(a.provider, a.parser, make_sse_sink(a), {},
                                                           a.reasoning_parser, a.schemas);
    if (!made) {
        std::cerr << "toolstream-replay: " << made.error().message() << "\n" << usage_text;
        return 2;
    }
    auto& p = **made;
    if (!read_in_chunks(a, [&](std::string_view piece) { (void)p.write(piece); }))
        return 1;
    (void)p.finish();
    p.sink().writer.done();
    return 0;
}

int replay_text(const arguments& a)
{
    // Plain model text is one choice; its summary text and reasoning are what those segments carried.
    ts::choice_summary choice;
    auto collect = [&choice](const ts::segment_event& e) {
        if (e.type == ts::segment_event_type::SEGMENT_CONTENT && e.segment_kind == ts::segment_type::text)
            choice.text.append(e.delta);
        else if (e.type == ts::segment_event_type::SEGMENT_CONTENT && e.segment_kind == ts::segment_type::reasoning)
            choice.reasoning.append(e.delta);
    };
    using sink = ts::tee_sink<line_printer, ts::callback_sink<decltype(collect)>>;
    ts::handler<ts::runtime_policy, sink> h(sink{line_printer{a.emit}, ts::callback_sink{collect}}, {},
                                            ts::make_policy(a.parser, a.reasoning_parser, a.schemas).value());
    if (!read_in_chunks(a, [&](std::string_view piece) { (void)h.feed(piece); }))
        return 1;
    (void)h.finalize();
    if (a.emit == emit_mode::summary) {
        choice.tool_calls = h.invocations();
        ts::stream_summary s;
        s.choices.push_back(std::move(choice));
        std::cout << boost::json::serialize(ts::to_json(s, "text", "text")) << '\n';
    }
    return 0;
}

int replay_stream(const arguments& a)
{
    ts::pipeline_options options;
    options.collect_text = a.emit == emit_mode::summary;
    auto made = ts::runtime_pipeline<line_printer>::create(a.provider, a.parser, line_printer{a.emit}, options,
                                                              a.reasoning_parser, a.schemas);
    if (!made) {
        std::cerr << "toolstream-replay: " << made.error().message() << "\n" << usage_text;
        return 2;
    }
    auto& p = **made;
    if (!read_in_chunks(a, [&](std::string_view piece) { (void)p.write(piece); }))
        return 1;
    (void)p.finish();
    if (a.emit == emit_mode::summary) {
        const auto framing = p.wire_framing() == ts::framing::sse ? "sse" : "ndjson";
        std::cout << boost::json::serialize(ts::to_json(p.summary(), p.provider_name(), framing)) << '\n';
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(false);
    if (toolstream_viewer::wants_serve(argc, argv))
        return toolstream_viewer::serve_replay(argc, argv, usage_text);
    const auto a = parse_arguments(argc, argv);
    if (!a) {
        std::cerr << usage_text;
        return 2;
    }
    if (a->emit == emit_mode::openai_sse)
        return a->provider == "text" ? replay_text_as_sse(*a) : replay_stream_as_sse(*a);
    return a->provider == "text" ? replay_text(*a) : replay_stream(*a);
}
