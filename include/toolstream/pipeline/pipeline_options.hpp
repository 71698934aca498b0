// What a pipeline is set up with: segment ids, what it keeps for summary(), and the transport's
// bounds. Apart from pipeline.hpp so that the run-time pipeline's users, who never name a
// pipeline type, do not parse the compile-time pipeline.
#pragma once

#include <toolstream/limits.hpp>
#include <toolstream/transport/ndjson.hpp>
#include <toolstream/transport/sse.hpp>

#include <string>

namespace toolstream {

struct pipeline_options {
    /// Prefix of generated segment ids; choice N > 0 adds `cN:` after it, so ids stay unique.
    std::string segment_id_prefix;
    /// Keep each choice's text and reasoning for summary() (off: only calls, finish, usage, error).
    bool collect_text = false;
    sse_options sse;
    ndjson_options ndjson;
    /// Bounds on each choice's native tool calls.
    native_call_limits native_limits;
    /// Keep each choice's invocations for choice().invocations() and summary() (off: the sink
    /// still gets each one; a relay holds no finished call, see handler_options).
    bool keep_invocations = true;
    /// Keep each write_file / patch_file body (off: streamed through CONTENT events only, O(1)
    /// heap per call; see handler_options::keep_file_bodies).
    bool keep_file_bodies = true;
};

} // namespace toolstream
