// toolstream-replay: replays a recorded provider stream (or plain model text) through toolstream.
// Flags, output formats and exit codes: docs/replay.md (and --help); the command line is
// arguments.hpp. Exit: 0 once the stream was processed (a provider error goes in "error"),
// 1 an input or output failure or a stream that is not the provider's or is empty, 2 bad usage.
#include "arguments.hpp"
#include "output.hpp"
#include "replay_serve.hpp"   // programs/viewer: --serve
#include "../common/handler_events.hpp"

#include <toolstream/runtime/runtime_pipeline.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/version.hpp>
#include <toolstream/writers/anthropic_messages.hpp>
#include <toolstream/writers/openai_responses.hpp>
#include <toolstream/writers/openai_sse.hpp>
#include <toolstream/writers/tarko_events.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <cerrno>
#include <concepts>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <unistd.h>

namespace ts = toolstream;
using replay::arguments;
using replay::emit_mode;

namespace {

// Prints one Agent TARS `assistant_streaming_tool_call` event per line (--emit tarko).
struct print_line {
    void operator()(std::string_view line) const { replay::standard_output().line(line); }
};

// Prints events or invocations as they happen, per --emit.
struct line_printer {
    emit_mode mode;
    ts::tarko_event_sink<print_line> tarko{print_line{}};

    void operator()(const ts::segment_event& e)
    {
        if (mode == emit_mode::events)
            replay::standard_output().line(ts::to_json_string(e));
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
        replay::standard_output().json_line(ts::to_json(inv));
    }
};

struct stdout_bytes {
    void operator()(std::string_view bytes) const { replay::standard_output().write(bytes); }
};
using sse_writer = ts::openai_sse_writer<stdout_bytes>;
using api_writer = ts::variant_sink<sse_writer, ts::anthropic_sse_writer<stdout_bytes>, ts::openai_responses_writer<stdout_bytes>>;

// Writes the client API stream --emit names (one sink type for the three, so the run-time
// pipeline is compiled once); with --tool-events, OpenAI SSE also gets what a host running each
// complete call would add.
struct api_sink {
    api_writer writer;
    bool tool_events = false;

    template<class Event>
        requires std::invocable<api_writer&, const Event&>
    void operator()(const Event& e)
    {
        writer(e);
    }
    void operator()(const ts::tool_invocation& inv)
    {
        auto* sse = std::get_if<sse_writer>(&writer.get());
        if (sse == nullptr || !tool_events || !inv.is_complete())
            return;
        const boost::json::value step_data{{"current", 1}, {"total", 1}};
        sse->progress({inv.name, inv.id, ts::tool_phase::step, "running " + inv.name, &step_data, 0});
        sse->progress({inv.name, inv.id, ts::tool_phase::complete, "done", nullptr, 0});
        sse->result({inv.id, inv.name, boost::json::serialize(inv.arguments), false});
    }
    void done()
    {
        std::visit([](auto& w) { w.done(); }, writer.get());
    }
};

api_sink make_api_sink(const arguments& a)
{
    if (a.emit == emit_mode::anthropic_sse)
        return api_sink{api_writer{std::in_place_index<1>, stdout_bytes{}}};
    if (a.emit == emit_mode::openai_responses_sse)
        return api_sink{api_writer{std::in_place_index<2>, stdout_bytes{}}};
    ts::openai_sse_options options;
    options.extensions = a.extensions;
    return api_sink{api_writer{std::in_place_index<0>, stdout_bytes{}, std::move(options)}, a.tool_events};
}

// The text and reasoning of plain model text, for --emit summary (a stream's pipeline collects
// its own); nothing without a choice to fill.
struct text_collector {
    ts::choice_summary* choice = nullptr;

    void operator()(const ts::segment_event& e) const
    {
        if (choice == nullptr || e.type != ts::segment_event_type::SEGMENT_CONTENT)
            return;
        if (e.segment_kind == ts::segment_type::text)
            choice->text.append(e.delta);
        else if (e.segment_kind == ts::segment_type::reasoning)
            choice->reasoning.append(e.delta);
    }
};

// Every mode's sink, one type: the run-time pipeline and the handler are each compiled once.
using replay_sink = ts::variant_sink<api_sink, ts::tee_sink<line_printer, text_collector>>;

replay_sink api_stream_sink(const arguments& a) { return replay_sink(std::in_place_index<0>, make_api_sink(a)); }

replay_sink printing_sink(const arguments& a, ts::choice_summary* collected = nullptr)
{
    return replay_sink(std::in_place_index<1>, line_printer{a.emit}, text_collector{collected});
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

// Reads the input in --chunk pieces and hands each to `write`; false on an I/O failure (an output
// that failed stops the reading: main reports it).
template<class Write>
bool read_in_chunks(const arguments& a, Write&& write)
{
    std::FILE* in = a.input == "-" ? stdin : std::fopen(a.input.c_str(), "rb");
    if (in == nullptr) {
        std::cerr << "toolstream-replay: cannot open " << a.input << ": " << std::strerror(errno) << "\n";
        return false;
    }
    std::error_code size_error;
    const auto total = a.input == "-" ? 0 : std::filesystem::file_size(a.input, size_error);
    progress shown(size_error ? 0 : total);
    std::vector<char> buffer(a.chunk);
    bool ok = true;
    for (std::size_t n; !replay::standard_output().failed() && (n = std::fread(buffer.data(), 1, buffer.size(), in)) > 0;) {
        write(std::string_view(buffer.data(), n));
        replay::standard_output().flush();   // what this piece completed goes out now (a pipe stage)
        shown.advance(n);
    }
    if (std::ferror(in)) {
        std::cerr << "toolstream-replay: cannot read " << a.input << ": " << std::strerror(errno) << "\n";
        ok = false;
    }
    if (in != stdin)
        std::fclose(in);
    return ok && !replay::standard_output().failed();
}

// The pipeline runtime_pipeline<Sink>::create made of --provider (or `provider`), --parser and
// the reasoning options, or null once the reason there is none (a name nobody has) is printed.
template<class Sink>
std::unique_ptr<ts::runtime_pipeline<Sink>> pipeline_for(const arguments& a, std::string_view provider, Sink sink,
                                                         ts::pipeline_options options)
{
    auto made = ts::runtime_pipeline<Sink>::create(provider, a.parser, std::move(sink), std::move(options),
                                                   a.reasoning_parser, a.schemas, a.thinking_open);
    if (made)
        return std::move(*made);
    std::cerr << "toolstream-replay: " << made.error().message() << "\n" << replay::usage_text();
    return nullptr;
}

// Plain model text reaches `sink` as a handler<runtime_policy> would deliver it, through the
// run-time path compiled once for the program.
using text_sink = toolstream_programs::handler_events<replay_sink>;
std::unique_ptr<ts::runtime_pipeline<text_sink>> text_pipeline_for(const arguments& a, replay_sink sink)
{
    ts::pipeline_options options;
    options.keep_invocations = a.emit == emit_mode::summary;   // the other modes take each as it comes
    return pipeline_for(a, ts::text_provider_name, text_sink{std::move(sink)}, std::move(options));
}

// Plain model text through runtime_pipeline("text") as a handler would read it, written as
// --emit's API stream (the writer finishes the choice).
int replay_text_as_sse(const arguments& a)
{
    auto made = text_pipeline_for(a, api_stream_sink(a));
    if (!made)
        return 2;
    auto& p = *made;
    if (!read_in_chunks(a, [&](std::string_view piece) { (void)p.write(piece); }))
        return 1;
    (void)p.finish();
    std::get<api_sink>(p.sink().sink.get()).done();
    return 0;
}

// The summary's `format` (of choice 0, and of each choice) and `warnings`: a choice whose text
// holds tool-call markup of a format other than the one read (the parser named the wrong format,
// or none: the calls are left in the text), also on stderr. The exit status stays 0. `left` is
// each choice's format_of_calls_in(text).
void add_formats(boost::json::object& summary, const std::vector<std::string_view>& left,
                 const std::vector<std::string_view>& formats)
{
    boost::json::array warnings;
    auto& choices = summary["choices"].as_array();
    for (std::size_t i = 0; i < choices.size() && i < left.size(); ++i) {
        auto& choice = choices[i].as_object();
        const std::string_view read = i < formats.size() ? formats[i] : std::string_view{};
        choice["format"] = read.empty() ? boost::json::value(nullptr) : boost::json::value(read);
        if (left[i].empty() || left[i] == read)
            continue;
        std::string w = "choice " + boost::json::serialize(choice["index"]) + ": the text holds tool-call markup of format "
                        + std::string(left[i]) + ", left as text; --parser " + std::string(left[i])
                        + " or --parser auto reads it";
        std::cerr << "toolstream-replay: warning: " << w << "\n";
        warnings.push_back(boost::json::string(w));
    }
    summary["format"] = choices.empty() ? boost::json::value(nullptr) : choices[0].as_object()["format"];
    summary["warnings"] = std::move(warnings);
}

// Prints --emit summary's line. The calls' arguments are moved out of `s`, and the JSON is written
// a piece at a time: a call of many MB is held once more (its raw text), not three times.
void print_summary(ts::stream_summary s, std::string_view provider, std::string_view framing,
                   const std::vector<std::string_view>& formats)
{
    std::vector<std::string_view> left;
    for (const auto& c : s.choices)
        left.push_back(ts::format_of_calls_in(c.text));
    auto summary = ts::to_json(std::move(s), provider, framing);
    add_formats(summary, left, formats);
    replay::standard_output().json_line(summary);
}

// A stream that is not the provider's (or is empty) is an error of the run: says so, exit 1.
// `error` is the summary's.
bool not_the_providers(ts::error_code verdict, const std::optional<std::string>& error)
{
    if (verdict != ts::error::provider_mismatch && verdict != ts::error::empty_stream)
        return false;
    std::cerr << "toolstream-replay: " << error.value_or(verdict.message()) << "\n";
    return true;
}

int replay_stream_as_sse(const arguments& a)
{
    // The writer gets each call as it completes; nothing here reads them afterwards.
    ts::pipeline_options options;
    options.keep_invocations = false;
    auto made = pipeline_for(a, a.provider, api_stream_sink(a), std::move(options));
    if (!made)
        return 2;
    auto& p = *made;
    if (!read_in_chunks(a, [&](std::string_view piece) { (void)p.write(piece); }))
        return 1;
    const auto verdict = p.finish();
    std::get<api_sink>(p.sink().get()).done();
    return not_the_providers(verdict, p.summary().error) ? 1 : 0;
}

int replay_text(const arguments& a)
{
    // Plain model text is one choice; its summary text and reasoning are what those segments carried.
    ts::choice_summary choice;
    auto made = text_pipeline_for(a, printing_sink(a, &choice));
    if (!made)
        return 2;
    auto& p = *made;
    if (!read_in_chunks(a, [&](std::string_view piece) { (void)p.write(piece); }))
        return 1;
    (void)p.finish();
    if (a.emit == emit_mode::summary) {
        choice.tool_calls = std::move(p.summary().choices.front().tool_calls);
        ts::stream_summary s;
        s.choices.push_back(std::move(choice));
        print_summary(std::move(s), "text", "text", p.formats());
    }
    return 0;
}

int replay_stream(const arguments& a)
{
    ts::pipeline_options options;
    options.collect_text = a.emit == emit_mode::summary;
    options.keep_invocations = a.emit == emit_mode::summary;   // the other modes print each as it comes
    auto made = pipeline_for(a, a.provider, printing_sink(a), std::move(options));
    if (!made)
        return 2;
    auto& p = *made;
    if (!read_in_chunks(a, [&](std::string_view piece) { (void)p.write(piece); }))
        return 1;
    const auto verdict = p.finish();
    auto s = p.summary();
    const auto error = s.error;
    if (a.emit == emit_mode::summary) {
        const auto framing = p.wire_framing() == ts::framing::sse ? "sse" : "ndjson";
        print_summary(std::move(s), p.provider_name(), framing, p.formats());
    }
    return not_the_providers(verdict, error) ? 1 : 0;
}

} // namespace

int main(int argc, char** argv)
{
    // A reader that closes the pipe early is a write error (exit 1 with a message), not a silent
    // death by SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    if (toolstream_viewer::wants_serve(argc, argv))
        return toolstream_viewer::serve_replay(argc, argv, replay::usage_text());
    const auto c = replay::parse_arguments(argc, argv);
    if (!c.error.empty()) {
        std::cerr << "toolstream-replay: " << c.error << "\n" << replay::usage_text()
                  << "Try 'toolstream-replay --help'.\n";
        return 2;
    }
    auto& out = replay::standard_output();
    int status = 0;
    if (c.what == replay::command_line::action::help) {
        out.write(replay::help_text());
    } else if (c.what == replay::command_line::action::version) {
        out.line("toolstream-replay " TOOLSTREAM_VERSION_STRING);
    } else {
        const arguments& a = c.args;
        if (replay::writes_api_stream(a.emit))
            status = a.provider == "text" ? replay_text_as_sse(a) : replay_stream_as_sse(a);
        else
            status = a.provider == "text" ? replay_text(a) : replay_stream(a);
    }
    if (!out.flush()) {
        std::cerr << "toolstream-replay: cannot write the output: " << out.reason() << "\n";
        return 1;
    }
    return status;
}
