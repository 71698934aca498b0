// Anthropic Messages answers: the Messages SSE events, or one `message` object. How each
// terminal state is written (a cut call, an error) is the writers' (docs/api_writers.md).
#pragma once

#include "../answer_output.hpp"

#include <toolstream/writers/anthropic_message_builder.hpp>
#include <toolstream/writers/anthropic_messages.hpp>

#include <boost/json/serialize.hpp>

#include <string>

namespace gateway::anthropic {

using stream_writer = toolstream::anthropic_sse_writer<append_to>;
using builder = toolstream::anthropic_message_builder;

inline stream_writer make_stream_writer(std::string* out) { return stream_writer(append_to{out}); }

/// A message cut by the token limit is a 200 with `stop_reason: "max_tokens"`, as Anthropic
/// answers it; an error (a broken call, the upstream's error) is an HTTP error.
inline whole_answer_body whole(builder& b)
{
    b.done();
    if (b.failed())
        return {true, std::string(b.error_message()), {}};
    return {false, {}, boost::json::serialize(b.message())};
}

} // namespace gateway::anthropic
