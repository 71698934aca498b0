// What both consumer programs of an installed toolstream do: feed an OpenAI Chat stream in 7-byte
// pieces, and report what went wrong.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string_view>

namespace consumer {

/// Prints `program: what` to stderr; returns the exit status of a failed check.
inline int fail(const char* program, const char* what)
{
    std::fprintf(stderr, "%s: %s\n", program, what);
    return 1;
}

/// Writes `stream` to `pipe` in 7-byte pieces, then finishes it: what reported an error, or null.
template<class Pipeline>
const char* feed_in_pieces(Pipeline& pipe, std::string_view stream)
{
    for (std::size_t at = 0; at < stream.size(); at += 7)
        if (pipe.write(stream.substr(at, 7)))
            return "write() reported an error";
    if (pipe.finish())
        return "finish() reported an error";
    return nullptr;
}

} // namespace consumer
