// The client's writer, whichever dialect it speaks: one sink type for the three, so that the
// chat's runtime pipeline is compiled once, not once per dialect and mode.
#pragma once

#include "anthropic/answer.hpp"
#include "chat_request.hpp"
#include "http_replies.hpp"
#include "openai_chat/answer.hpp"
#include "responses/answer.hpp"

#include <toolstream/sinks.hpp>

#include <string>
#include <type_traits>
#include <variant>

namespace gateway {

using client_writer = toolstream::variant_sink<openai_chat::stream_writer, openai_chat::builder, anthropic::stream_writer,
                                               anthropic::builder, responses::stream_writer, responses::builder>;

/// What the answer side needs to know of the client beyond its chat request.
struct client_context {
    dialect api = dialect::openai_chat;
    const responses::client_tool_table* tools = nullptr;   // a Responses client's custom and namespaced tools
};

/// Whether the client's dialect has its own honest shape for a call cut by the token limit
/// (Anthropic's `max_tokens`, Responses' `incomplete`); Chat Completions has none a client would
/// not run.
inline bool ends_cut_calls(const client_context& client) { return client.api != dialect::openai_chat; }

/// The streaming writer of the client's dialect, appending to `out`.
inline client_writer stream_writer_for(const client_context& client, std::string* out, const chat_request& chat)
{
    switch (client.api) {
    case dialect::anthropic_messages: return client_writer(std::in_place_index<2>, anthropic::make_stream_writer(out));
    case dialect::openai_responses:
        return client_writer(std::in_place_index<4>, responses::make_stream_writer(out, client.tools));
    case dialect::openai_chat: break;
    }
    return client_writer(std::in_place_index<0>, openai_chat::make_stream_writer(out, chat));
}

/// The builder of a non-streamed answer in the client's dialect.
inline client_writer builder_for(const client_context& client)
{
    switch (client.api) {
    case dialect::anthropic_messages: return client_writer(std::in_place_index<3>);
    case dialect::openai_responses: return client_writer(std::in_place_index<5>, responses::make_builder(client.tools));
    case dialect::openai_chat: break;
    }
    return client_writer(std::in_place_index<1>);
}

/// Ends a streamed answer: the writer's closing events.
inline void end_stream(client_writer& w)
{
    std::visit(
        [](auto& held) {
            if constexpr (requires { held.done(); })
                held.done();
        },
        w.get());
}

/// Ends a non-streamed answer: its body, or the error it ended with.
inline whole_answer_body whole_of(client_writer& w)
{
    return std::visit(
        [](auto& held) -> whole_answer_body {
            using held_type = std::remove_cvref_t<decltype(held)>;
            if constexpr (std::is_same_v<held_type, openai_chat::builder>)
                return openai_chat::whole(held);
            else if constexpr (std::is_same_v<held_type, anthropic::builder>)
                return anthropic::whole(held);
            else if constexpr (std::is_same_v<held_type, responses::builder>)
                return responses::whole(held);
            else
                return {true, "a streaming writer has no whole answer", {}};
        },
        w.get());
}

} // namespace gateway
