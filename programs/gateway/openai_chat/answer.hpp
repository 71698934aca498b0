// OpenAI Chat Completions answers: chat.completion.chunk SSE, or one chat.completion object.
#pragma once

#include "../answer_output.hpp"
#include "../chat_request.hpp"

#include <toolstream/writers/openai_completion.hpp>
#include <toolstream/writers/openai_sse.hpp>

#include <boost/json/serialize.hpp>

#include <string>

namespace gateway::openai_chat {

using stream_writer = toolstream::openai_sse_writer<append_to>;
using builder = toolstream::openai_completion_builder;

/// The usage chunk only when the client asked for it (the upstream is asked anyway, for the metrics).
inline stream_writer make_stream_writer(std::string* out, const chat_request& chat)
{
    toolstream::openai_sse_options options;
    options.include_usage = chat.include_usage;
    return stream_writer(append_to{out}, std::move(options));
}

inline whole_answer_body whole(builder& b)
{
    if (b.failed())
        return {true, std::string(b.error_message()), {}};
    return {false, {}, boost::json::serialize(b.completion())};
}

} // namespace gateway::openai_chat
