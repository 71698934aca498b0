// What the streaming and the non-streaming Anthropic Messages writers share: the message's
// identity, the wire names of finish kinds, the usage object, the placeholder thinking signature
// and the words of the error that replaces a broken tool call.
#pragma once

#include <toolstream/segment_event.hpp>
#include <toolstream/types.hpp>
#include <toolstream/writers/detail/openai_chunk.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// The `signature` of every thinking block written. Anthropic signs the thinking its models
/// produce so that the API can check it when a client sends the block back; a stream re-served
/// from another provider (or from model text) has no such signature, and writing none would make
/// clients that require the member (they store and echo it) drop the block. A fixed, recognisable
/// value says "not signed": a gateway that receives a thinking block with it in a later request
/// must ignore the signature (and never forward it to Anthropic, which would reject it).
inline constexpr std::string_view anthropic_thinking_signature = "toolstream-unsigned";

/// `msg_` and 24 random hex digits, for a message whose provider gave no id (the random part is
/// generated_completion_id's).
inline std::string generated_message_id()
{
    constexpr std::string_view completion_prefix = "chatcmpl-";
    return "msg_" + generated_completion_id().substr(completion_prefix.size());
}

/// Fixes the message's id and model: the caller's, else the provider's, else a generated
/// `msg_` id (the model may stay empty). `created` is not part of a message; it is left as set.
inline void start_message_identity(response_identity& identity, std::string_view given_id,
                                   std::string_view given_model, std::string_view provider_id,
                                   std::string_view provider_model)
{
    if (identity.started)
        return;
    std::string id(!given_id.empty() ? given_id : provider_id);
    if (id.empty())
        id = generated_message_id();
    identity.start(id, given_model, 1, {}, provider_model);
}

/// The `stop_reason` of a normalised finish (`error` has none: it is an error event).
constexpr std::string_view anthropic_stop_reason(finish_kind kind) noexcept
{
    switch (kind) {
    case finish_kind::tool_calls: return "tool_use";
    case finish_kind::length: return "max_tokens";
    case finish_kind::content_filter: return "refusal";
    case finish_kind::stop:
    case finish_kind::error: break;
    }
    return "end_turn";
}

/// The message_delta `usage`: `{"input_tokens":…,"output_tokens":…}` when the stream reported
/// usage (Anthropic sends the cumulative input count there too, and the SDKs take it), else
/// `{"output_tokens":0}` (the one member the event requires).
inline void append_anthropic_usage(std::string& out, const std::optional<token_usage>& usage)
{
    if (!usage) {
        out += "{\"output_tokens\":0}";
        return;
    }
    out += "{\"input_tokens\":";
    append_integer(out, usage->input_tokens);
    out += ",\"output_tokens\":";
    append_integer(out, usage->output_tokens);
    out += '}';
}

/// Why a tool call the model did not finish cleanly is an error rather than a call: its name
/// (when known), id, how it ended (`status`; none: it never ended) and the segment's own error.
inline std::string broken_call_message(std::string_view name, std::string_view id,
                                       std::optional<segment_status> status, std::string_view error)
{
    std::string message = "tool call ";
    if (!name.empty())
        message.append("'").append(name).append("' ");
    message.append("(id ").append(id).append(")");
    if (!status)
        message += " never ended";
    else if (*status == segment_status::invalid_arguments)
        message += " has invalid arguments";
    else
        message += " is incomplete, and the response did not stop at its length limit";
    if (!error.empty())
        message.append(": ").append(error);
    return message;
}

} // namespace toolstream::detail
