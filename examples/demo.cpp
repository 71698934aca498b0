// toolstream-demo: replays a recorded write_file tool call and shows the file being written live.
//
//   toolstream-demo [--pace MS] [--json] [DELTAS.jsonl]
//
// Each input line is one tool_call_delta as JSON (read through its Boost.Describe description).
// Without --json the file body is printed as it streams; with it, one event JSON per line.
#include <toolstream.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value_to.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>

#include <unistd.h>

#ifndef TOOLSTREAM_DEMO_DATA
#define TOOLSTREAM_DEMO_DATA "write_file_demo.deltas.jsonl"
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
                  << boost::describe::enum_to_string(inv.status, "?") << ", path="
                  << boost::json::serialize(inv.arguments.at("path")) << ", content "
                  << inv.arguments.at("content").as_string().size() << " bytes" << paint("\x1b[0m") << "\n";
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
            std::cerr << "usage: toolstream-demo [--pace MS] [--json] [DELTAS.jsonl]\n";
            return 2;
        }
    }
    std::ifstream in(path);
    if (!in) {
        std::cerr << "toolstream-demo: cannot read " << path << "\n";
        return 1;
    }

    toolstream::handler<toolstream::api_tool_call, live_printer> h(live_printer{json});
    toolstream::chunk_response chunk;
    chunk.tool_calls.resize(1);
    for (std::string line; std::getline(in, line);) {
        chunk.tool_calls[0] = boost::json::value_to<toolstream::tool_call_delta>(boost::json::parse(line));
        if (auto ec = h.feed(chunk)) {
            std::cerr << "toolstream-demo: " << ec.message() << "\n";
            return 1;
        }
        if (pace_ms > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(pace_ms));
    }
    h.finalize();
    return h.invocations().size() == 1 && h.invocations()[0].is_complete() ? 0 : 1;
}
