// Out-of-line members of toolstream::openai_sse_writer: how chunks, comments and the stream's
// end are assembled into its one reused buffer and handed to the output.
#pragma once

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/writers/detail/sse_comment.hpp>
#include <toolstream/writers/openai_sse.hpp>

namespace toolstream {

// A `tool_progress` or `tool_result` object (`append_object` writes it), encoded per
// `options_.extensions`: a chunk member beside `"choices":[]`, or an SSE comment.
template<byte_output Output>
template<class AppendObject>
void openai_sse_writer<Output>::write_extension(std::string_view member, AppendObject&& append_object)
{
    if (closed_)
        return;
    start();
    const bool as_chunk = options_.extensions == extension_encoding::chunk;
    if (as_chunk) {
        open_chunk();
        buf_ += "\"choices\":[],\"";
        buf_ += member;
        buf_ += "\":";
    } else {
        buf_ = ": ";
        buf_ += member;
        buf_ += ' ';
    }
    append_object();
    if (as_chunk) {
        close_chunk();
    } else {
        buf_ += "\n\n";
        flush_buffer();
    }
}

template<byte_output Output>
void openai_sse_writer<Output>::comment(std::string_view text)
{
    if (closed_)
        return;
    detail::make_sse_comment(buf_, text);
    flush_buffer();
}

// A choice nobody finished (the writer fed by a handler, which knows no finish reason) ends
// here, so that the stream is complete whatever fed it: `tool_calls` when it completed a call,
// else `stop`. A stream with no choice at all gets choice 0.
template<byte_output Output>
void openai_sse_writer<Output>::finish_choices()
{
    start();
    choice(0);
    for (std::size_t i = 0; i < choices_.size(); ++i) {
        auto& ch = choices_[i];   // i is below the size: writing does not resize
        if (ch.finished)
            continue;
        ch.text.flush([&](std::string_view rest) { write_text(i, "content", rest); });
        ch.reasoning.flush([&](std::string_view rest) { write_text(i, "reasoning_content", rest); });
        ch.finished = true;
        open_choice(i);
        close_choice(ch.made_calls ? "tool_calls" : "stop");
    }
}

template<byte_output Output>
void openai_sse_writer<Output>::done()
{
    if (closed_)
        return;
    finish_choices();
    closed_ = true;
    buf_ = "data: [DONE]\n\n";
    flush_buffer();
}

template<byte_output Output>
void openai_sse_writer<Output>::fail(std::string_view message)
{
    if (closed_)
        return;
    start();
    failed_ = closed_ = true;
    buf_ = "data: {\"error\":{\"message\":";
    detail::append_json_string_valid(buf_, message);
    buf_ += ",\"type\":\"server_error\",\"param\":null,\"code\":null}}\n\n";
    flush_buffer();
}

template<byte_output Output>
void openai_sse_writer<Output>::write_arguments_delta(const open_call& c, std::string_view piece)
{
    open_choice(c.choice);
    open_tool_call(c);
    buf_ += "\"function\":{\"arguments\":\"";
    detail::append_json_escaped_valid(buf_, piece);
    buf_ += "\"}}]";
    close_choice();
}

template<byte_output Output>
void openai_sse_writer<Output>::write_text(std::size_t choice, std::string_view field, std::string_view text)
{
    open_choice(choice);
    buf_ += '"';
    buf_ += field;
    buf_ += "\":\"";
    detail::append_json_escaped_valid(buf_, text);
    buf_ += '"';
    close_choice();
}

template<byte_output Output>
void openai_sse_writer<Output>::open_chunk()
{
    buf_ = "data: ";
    buf_ += prefix_;
}

template<byte_output Output>
void openai_sse_writer<Output>::close_chunk()
{
    buf_ += "}\n\n";
    flush_buffer();
}

// `"choices":[{"index":N,"delta":{` and the role on the choice's first delta; the caller writes
// the delta's one member (or none) and calls close_choice().
template<byte_output Output>
void openai_sse_writer<Output>::open_choice(std::size_t index)
{
    open_chunk();
    buf_ += "\"choices\":[{\"index\":";
    detail::append_integer(buf_, static_cast<std::uint64_t>(index));
    buf_ += ",\"delta\":{";
    auto& ch = choice(index);
    if (!ch.role_sent) {
        ch.role_sent = true;
        buf_ += "\"role\":\"assistant\",";   // close_choice() drops the comma if nothing follows
    }
}

template<byte_output Output>
void openai_sse_writer<Output>::close_choice(std::string_view finish_reason)
{
    if (buf_.back() == ',')
        buf_.pop_back();   // the role with no member after it
    buf_ += "},\"finish_reason\":";
    if (finish_reason.empty()) {
        buf_ += "null";
    } else {
        buf_ += '"';
        buf_ += finish_reason;
        buf_ += '"';
    }
    buf_ += "}]";
    close_chunk();
}

template<byte_output Output>
void openai_sse_writer<Output>::open_tool_call(const open_call& c)
{
    buf_ += "\"tool_calls\":[{\"index\":";
    detail::append_integer(buf_, static_cast<std::uint64_t>(c.index));
    buf_ += ',';
}

template<byte_output Output>
void openai_sse_writer<Output>::flush_buffer()
{
    output_(std::string_view(buf_));
    constexpr std::size_t keep = std::size_t{1} << 20;
    if (buf_.capacity() > keep)
        std::string().swap(buf_);
}

} // namespace toolstream
