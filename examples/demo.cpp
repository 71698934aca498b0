// toolstream-demo: replays a bundled OpenAI Chat Completions stream in which the model writes a
// file through a write_file tool call, and shows the file appear as its bytes arrive.
//
//   toolstream-demo [--pace MS] [--json] [STREAM.sse]
//
// The raw SSE bytes go through the whole pipeline (SSE decoder, openai_chat converter,
// api_tool_call policy). --pace sleeps MS milliseconds per ~one-event piece, for human speed.
// Without --json the file body is printed as it streams; with it, one event JSON per line.
#include <toolstream.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/openai_chat.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>

#include <unistd.h>

#ifndef TOOLSTREAM_DEMO_DATA
#define TOOLSTREAM_DEMO_DATA "write_file_demo.sse"
#endif

namespace {

struct live_printer {
    bool json = false;
    bool color = ::isatty(1) != 0;

    const char* paint(const char* code) const { return color ? code : ""; }

    void operator()(const toolstream::segment_event& e) const
    {
        using toolstream::segment_event_type;
        if (json) {
            std::cout << toolstream::to_json_string(e) << '\n';
            return;
        }
        switch (e.type) {
        case segment_event_type::SEGMENT_START:
            std::cout << paint("\x1b[1;36m") << "── " << boost::describe::enum_to_string(e.segment_kind, "?") << " "
                      << e.segment_id << " " << boost::json::serialize(*e.metadata) << " ──" << paint("\x1b[0m") << "\n";
            break;
        case segment_event_type::SEGMENT_CONTENT:
            std::cout << e.delta;
            break;
        case segment_event_type::SEGMENT_END:
            std::cout << "\n" << paint("\x1b[1;36m") << "── end " << e.segment_id << " ("
                      << boost::describe::enum_to_string(e.status, "?") << ") ──" << paint("\x1b[0m") << "\n";
            break;
        }
        std::cout.flush();
    }

    void operator()(const toolstream::tool_invocation& inv) const
    {
        if (json)
            return;
        std::cout << paint("\x1b[1;32m") << "invocation " << inv.id << ": " << inv.name << " "
                  << boost::describe::enum_to_string(inv.status, "?");
        for (const auto& [key, value] : inv.arguments) {
            std::cout << ", " << std::string_view(key) << "=";
            if (value.is_string() && value.as_string().size() > 60)
                std::cout << value.as_string().size() << " bytes";
            else
                std::cout << boost::json::serialize(value);
        }
        std::cout << paint("\x1b[0m") << "\n";
    }
};

} // namespace

int main(int argc, char** argv)
{
    int pace_ms = 0;
    bool json = false;
    std::string path = TOOLSTREAM_DEMO_DATA;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "--pace" && i + 1 < argc) {
            pace_ms = std::atoi(argv[++i]);
        } else if (arg == "--json") {
            json = true;
        } else if (!arg.empty() && arg[0] != '-') {
            path = arg;
        } else {
            std::cerr << "usage: toolstream-demo [--pace MS] [--json] [STREAM.sse]\n";
            return 2;
        }
    }
    std::ifstream in(path, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (!in && !in.eof()) {
        std::cerr << "toolstream-demo: cannot read " << path << "\n";
        return 1;
    }

    toolstream::pipeline<toolstream::openai_chat, toolstream::api_tool_call, live_printer> p(live_printer{json});
    // About one SSE event per piece: with --pace the file grows the way a model would write it.
    const std::size_t piece = pace_ms > 0 ? 160 : bytes.size() + 1;
    for (std::size_t at = 0; at < bytes.size(); at += piece) {
        if (auto ec = p.write(std::string_view(bytes).substr(at, piece)))
            std::cerr << "toolstream-demo: " << ec.message() << "\n";
        if (pace_ms > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(pace_ms));
    }
    (void)p.finish();
    const auto& calls = p.choice(0).invocations();
    return calls.size() == 1 && calls[0].is_complete() ? 0 : 1;
}
