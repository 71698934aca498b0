// toolstream-replay --serve: replays a recording into the live viewer page.
//
//   toolstream-replay --serve [--listen ADDR] [--pace MS] [--no-wait] --provider NAME
//                     [--parser NAME] [--reasoning-parser NAME] FILE
//
// Prints `viewer: http://HOST:PORT/` once it listens, waits for the first page to connect
// (unless --no-wait), then feeds the recording one provider event at a time (a line of NDJSON,
// an SSE event), --pace MS apart (default 20; 0: at full speed), and keeps serving the final
// state until SIGINT or SIGTERM.
//
// Declared here and compiled in replay_serve.cpp, its own translation unit: the server's
// Boost.Beast and Asio stay out of replay.cpp.
#pragma once

#include <string_view>

namespace toolstream_viewer {

/// Whether the command line asks for --serve.
inline bool wants_serve(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) == "--serve")
            return true;
    return false;
}

/// The whole of `toolstream-replay --serve`; returns the exit status.
int serve_replay(int argc, char** argv, std::string_view usage);

} // namespace toolstream_viewer
