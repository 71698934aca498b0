// toolstream-replay: replays a recorded provider stream (or plain model text) through toolstream.
//
//   toolstream-replay --provider openai_chat|openai_responses|anthropic|gemini|ollama|mistral|text
//                     [--parser api_tool_call|xml|json|sentinel|passthrough]
//                     [--chunk N] [--emit summary|events|invocations|tarko] [FILE|-]
//
// --emit summary (default) prints one JSON object in the `.expected.json` shape; events prints
// one segment event per line; invocations prints one {id, name, arguments, status} per line;
// tarko prints one Agent TARS assistant_streaming_tool_call event per line.
// Exit: 0 once the stream was processed (a provider error goes in "error"), 2 bad usage, 1 I/O.
#include <toolstream/handler.hpp>
#include <toolstream/runtime_pipeline.hpp>
#include <toolstream/writers/tarko_events.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace ts = toolstream;

namespace {

enum class emit_mode { summary, events, invocations, tarko };

struct arguments {
    std::string provider;
    std::string parser;
    std::size_t chunk = 64 * 1024;
    emit_mode emit = emit_mode::summary;
    std::string input = "-";
};

constexpr std::string_view usage_text =
    "usage: toolstream-replay --provider openai_chat|openai_responses|anthropic|gemini|ollama|mistral|text\n"
    "                         [--parser api_tool_call|xml|json|sentinel|passthrough]\n"
    "                         [--chunk N] [--emit summary|events|invocations|tarko] [FILE|-]\n";

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
            else if (v == "tarko")
                a.emit = emit_mode::tarko;
            else
                return std::nullopt;
        } else if (arg == "-" || (!arg.empty() && arg[0] != '-')) {
            a.input = arg;
        } else {
            return std::nullopt;
        }
    }
    if (a.provider.empty() || !ts::make_policy(a.parser))
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

int replay_text(const arguments& a)
{
    // Plain model text is one choice; its summary text is what the text segments carried.
    ts::choice_summary choice;
    auto collect = [&choice](const ts::segment_event& e) {
        if (e.type == ts::segment_event_type::SEGMENT_CONTENT && e.segment_kind == ts::segment_type::text)
            choice.text.append(e.delta);
    };
    using sink = ts::tee_sink<line_printer, ts::callback_sink<decltype(collect)>>;
    ts::handler<ts::runtime_policy, sink> h(sink{line_printer{a.emit}, ts::callback_sink{collect}}, {},
                                            ts::make_policy(a.parser).value());
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
    auto made = ts::runtime_pipeline<line_printer>::create(a.provider, a.parser, line_printer{a.emit}, options);
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
    const auto a = parse_arguments(argc, argv);
    if (!a) {
        std::cerr << usage_text;
        return 2;
    }
    return a->provider == "text" ? replay_text(*a) : replay_stream(*a);
}
