// OpenAI Responses answers: `response.*` SSE events, or one `response` object. The client's custom
// and namespaced tools are turned back from the functions the upstream saw (client_tool_calls);
// how each terminal state is written is the writers' (docs/api_writers.md).
#pragma once

#include "../answer_output.hpp"
#include "client_tool_calls.hpp"
#include "tool_table.hpp"

#include <toolstream/writers/openai_response_builder.hpp>
#include <toolstream/writers/openai_responses.hpp>

#include <boost/json/serialize.hpp>

#include <string>

namespace gateway::responses {

using stream_writer = client_tool_calls<toolstream::openai_responses_writer<append_to>>;
using builder = client_tool_calls<toolstream::openai_response_builder>;

inline stream_writer make_stream_writer(std::string* out, const client_tool_table* tools)
{
    return stream_writer(toolstream::openai_responses_writer<append_to>(append_to{out}), tools);
}

inline builder make_builder(const client_tool_table* tools) { return builder(toolstream::openai_response_builder{}, tools); }

/// A response cut by the token limit (or a content filter) is a 200 with `status: "incomplete"`,
/// as the API answers it; a failed one (a broken call, the upstream's error) is an HTTP error.
inline whole_answer_body whole(builder& b)
{
    auto response = b.inner().response();
    if (b.inner().failed())
        return {true, b.inner().error_message(), {}};
    return {false, {}, boost::json::serialize(response)};
}

} // namespace gateway::responses
