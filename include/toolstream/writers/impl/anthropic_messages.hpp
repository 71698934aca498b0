// Out-of-line members of toolstream::anthropic_sse_writer: each event the block sequencer decides
// on, written as one SSE event (`event: <type>`, `data: <json>`, a blank line) from one reused
// buffer.
#pragma once

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/utf8.hpp>
#include <toolstream/writers/anthropic_messages.hpp>
#include <toolstream/writers/detail/sse_comment.hpp>

namespace toolstream {

template<byte_output Output>
void anthropic_sse_writer<Output>::operator()(const response_started& r)
{
    detail::start_message_identity(identity_, options_.id, options_.model, r.id, r.model);
    blocks_.start(*this);
}

template<byte_output Output>
void anthropic_sse_writer<Output>::comment(std::string_view text)
{
    if (blocks_.closed())
        return;
    detail::make_sse_comment(buf_, text);
    output_(std::string_view(buf_));
}

template<byte_output Output>
void anthropic_sse_writer<Output>::message_start()
{
    detail::start_message_identity(identity_, options_.id, options_.model, {}, {});
    open_event("message_start");
    buf_ += ",\"message\":{\"id\":";
    detail::append_json_string_valid(buf_, identity_.id);
    buf_ += ",\"type\":\"message\",\"role\":\"assistant\",\"model\":";
    detail::append_json_string_valid(buf_, identity_.model);
    buf_ += ",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,"
            "\"usage\":{\"input_tokens\":0,\"output_tokens\":0}}";
    close_event();
}

template<byte_output Output>
void anthropic_sse_writer<Output>::block_start(detail::anthropic_block_type type, std::uint32_t index,
                                               std::string_view id, std::string_view name)
{
    open_block_event("content_block_start", index);
    buf_ += ",\"content_block\":";
    switch (type) {
    case detail::anthropic_block_type::text: buf_ += "{\"type\":\"text\",\"text\":\"\"}"; break;
    case detail::anthropic_block_type::thinking: buf_ += "{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}"; break;
    case detail::anthropic_block_type::tool_use:
        buf_ += "{\"type\":\"tool_use\",\"id\":";
        detail::append_json_string_valid(buf_, id);
        buf_ += ",\"name\":";
        detail::append_json_string_valid(buf_, name);
        buf_ += ",\"input\":{}}";
        break;
    }
    close_event();
}

template<byte_output Output>
void anthropic_sse_writer<Output>::block_delta(detail::anthropic_block_type type, std::uint32_t index,
                                               std::string_view piece)
{
    open_block_event("content_block_delta", index);
    switch (type) {
    case detail::anthropic_block_type::text: buf_ += ",\"delta\":{\"type\":\"text_delta\",\"text\":\""; break;
    case detail::anthropic_block_type::thinking: buf_ += ",\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\""; break;
    case detail::anthropic_block_type::tool_use:
        buf_ += ",\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"";
        break;
    }
    detail::append_json_escaped_valid(buf_, piece);
    buf_ += "\"}";
    close_event();
}

template<byte_output Output>
void anthropic_sse_writer<Output>::block_stop(detail::anthropic_block_type type, std::uint32_t index)
{
    if (type == detail::anthropic_block_type::thinking) {
        open_block_event("content_block_delta", index);
        buf_ += ",\"delta\":{\"type\":\"signature_delta\",\"signature\":";
        detail::append_json_string(buf_, detail::anthropic_thinking_signature);
        buf_ += '}';
        close_event();
    }
    open_block_event("content_block_stop", index);
    close_event();
}

template<byte_output Output>
void anthropic_sse_writer<Output>::message_end(std::string_view stop_reason)
{
    open_event("message_delta");
    buf_ += ",\"delta\":{\"stop_reason\":\"";
    buf_ += stop_reason;
    buf_ += "\",\"stop_sequence\":null},\"usage\":";
    detail::append_anthropic_usage(buf_, usage_);
    close_event();
    open_event("message_stop");
    close_event();
}

template<byte_output Output>
void anthropic_sse_writer<Output>::error_event(std::string_view message)
{
    open_event("error");
    buf_ += ",\"error\":{\"type\":\"api_error\",\"message\":";
    detail::append_json_string_valid(buf_, message);
    buf_ += '}';
    close_event();
}

// `event: TYPE` and `data: {"type":"TYPE"`: the caller adds the members and calls close_event().
template<byte_output Output>
void anthropic_sse_writer<Output>::open_event(std::string_view type)
{
    buf_ = "event: ";
    buf_ += type;
    buf_ += "\ndata: {\"type\":\"";
    buf_ += type;
    buf_ += '"';
}

template<byte_output Output>
void anthropic_sse_writer<Output>::open_block_event(std::string_view type, std::uint32_t index)
{
    open_event(type);
    buf_ += ",\"index\":";
    detail::append_integer(buf_, static_cast<std::uint64_t>(index));
}

template<byte_output Output>
void anthropic_sse_writer<Output>::close_event()
{
    buf_ += "}\n\n";
    output_(std::string_view(buf_));
    constexpr std::size_t keep = std::size_t{1} << 20;   // one huge delta does not stay allocated
    if (buf_.capacity() > keep)
        std::string().swap(buf_);
}

} // namespace toolstream
