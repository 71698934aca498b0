// Out-of-line members of toolstream::openai_responses_writer: events to output items (collected
// by detail::response_output), items to `response.*` events, and how the stream ends.
#pragma once

#include <toolstream/writers/openai_responses.hpp>

namespace toolstream {

template<byte_output Output>
void openai_responses_writer<Output>::start(std::string_view provider_id, std::string_view provider_model)
{
    if (identity_.started)
        return;
    detail::start_response_identity(identity_, options_.id, options_.model, options_.created_at, provider_id,
                                    provider_model);
    out_.start(identity_.id);
    const detail::response_end in_progress{"in_progress", {}, {}};
    for (const std::string_view type : {"response.created", "response.in_progress"}) {
        open_event(type);
        buf_ += ",\"response\":";
        detail::append_response_object(buf_, identity_, in_progress, {}, std::nullopt, [this] { spill(); });
        close_event();
    }
}

template<byte_output Output>
void openai_responses_writer<Output>::operator()(const segment_event& e)
{
    if (closed_)
        return;
    start();
    if (out_.on_segment(e) != nullptr)
        pump();
}

template<byte_output Output>
void openai_responses_writer<Output>::operator()(const argument_fragment& f)
{
    if (closed_)
        return;
    start();
    const detail::response_item* item = out_.on_fragment(f);
    if (item == nullptr)
        return;
    if (item->name.empty() && item->content.size() > options_.max_held_call_bytes) {
        fail(detail::held_call_failure(*item));
        return;
    }
    pump();
}

template<byte_output Output>
void openai_responses_writer<Output>::operator()(const choice_finished& c)
{
    if (closed_ || c.choice != 0)
        return;
    start();
    if (c.kind == finish_kind::error)
        fail(detail::error_finish_message(c.reason));
    else if (!finish_)
        finish_ = c.kind;
}

template<byte_output Output>
void openai_responses_writer<Output>::operator()(const usage_reported& u)
{
    if (closed_)
        return;
    start();
    usage_ = u.usage;
}

template<byte_output Output>
void openai_responses_writer<Output>::done()
{
    if (closed_)
        return;
    start();
    out_.close_all(finish_ == finish_kind::length || finish_ == finish_kind::content_filter);
    finish(detail::end_of_response(finish_, {}, out_));
}

template<byte_output Output>
void openai_responses_writer<Output>::fail(std::string_view message)
{
    if (closed_)
        return;
    start();
    out_.close_all(true);
    finish(detail::end_of_response(finish_, message.empty() ? std::string_view("provider error") : message, out_));
}

// Every item not written yet goes out, then the terminal event with the whole response.
template<byte_output Output>
void openai_responses_writer<Output>::finish(const detail::response_end& end)
{
    pump();
    closed_ = true;
    failed_ = end.status == "failed";
    open_event(end.status == "completed" ? "response.completed"
               : end.status == "failed"  ? "response.failed"
                                         : "response.incomplete");
    buf_ += ",\"response\":";
    detail::append_response_object(buf_, identity_, end, out_.items(), usage_, [this] { spill(); });
    close_event();
}

// Writes what it can of the items from the first one not done: an item goes out once every
// earlier one is done, so that one is open at a time, in order of START.
template<byte_output Output>
void openai_responses_writer<Output>::pump()
{
    auto& items = out_.items();
    while (current_ < items.size()) {
        const detail::response_item& item = items[current_];
        if (!announced_) {
            if (!item.written()) {
                if (item.open)
                    return;   // a call waiting for its name
                ++current_;   // never named: not written
                continue;
            }
            announce(item);
            announced_ = true;
            streamed_ = 0;
        }
        if (streamed_ < item.content.size()) {
            write_delta(item, std::string_view(item.content).substr(streamed_));
            streamed_ = item.content.size();
        }
        if (item.open)
            return;
        write_done(item);
        ++current_;
        ++output_index_;
        announced_ = false;
    }
}

template<byte_output Output>
void openai_responses_writer<Output>::announce(const detail::response_item& item)
{
    using type = detail::response_item_type;
    open_event("response.output_item.added");
    buf_ += ",\"output_index\":";
    detail::append_integer(buf_, output_index_);
    buf_ += ",\"item\":{\"type\":\"";
    if (item.is_call()) {
        const bool function = item.type == type::function_call;
        buf_ += function ? "function_call" : "custom_tool_call";
        buf_ += "\",\"id\":";
        detail::append_json_string_valid(buf_, item.id);
        buf_ += ",\"call_id\":";
        detail::append_json_string_valid(buf_, item.call_id);
        detail::append_call_name(buf_, item);
        buf_ += function ? ",\"arguments\":\"\",\"status\":\"in_progress\"}" : ",\"input\":\"\"}";
        close_event();
        return;
    }
    const bool message = item.type == type::message;
    buf_ += message ? "message" : "reasoning";
    buf_ += "\",\"id\":";
    detail::append_json_string_valid(buf_, item.id);
    buf_ += message ? ",\"status\":\"in_progress\",\"role\":\"assistant\",\"content\":[]}"
                    : ",\"status\":\"in_progress\",\"summary\":[],\"content\":[]}";
    close_event();
    open_item_event("response.content_part.added", item, true);
    buf_ += message ? ",\"part\":{\"type\":\"output_text\",\"text\":\"\",\"annotations\":[],\"logprobs\":[]}"
                    : ",\"part\":{\"type\":\"reasoning_text\",\"text\":\"\"}";
    close_event();
}

template<byte_output Output>
void openai_responses_writer<Output>::write_delta(const detail::response_item& item, std::string_view text)
{
    using type = detail::response_item_type;
    static constexpr std::string_view names[] = {"response.output_text.delta", "response.reasoning_text.delta",
                                                 "response.function_call_arguments.delta",
                                                 "response.custom_tool_call_input.delta"};
    open_item_event(names[static_cast<int>(item.type)], item, !item.is_call());
    buf_ += ",\"delta\":\"";
    detail::append_escaped_sliced(buf_, text, [this] { spill(); });
    buf_ += item.type == type::message ? "\",\"logprobs\":[]" : "\"";
    close_event();
}

template<byte_output Output>
void openai_responses_writer<Output>::write_done(const detail::response_item& item)
{
    using type = detail::response_item_type;
    if (!item.is_call()) {
        const bool message = item.type == type::message;
        open_item_event(message ? "response.output_text.done" : "response.reasoning_text.done", item, true);
        buf_ += ",\"text\":\"";
        detail::append_escaped_sliced(buf_, item.content, [this] { spill(); });
        buf_ += message ? "\",\"logprobs\":[]" : "\"";
        close_event();
        open_item_event("response.content_part.done", item, true);
        buf_ += message ? ",\"part\":{\"type\":\"output_text\",\"text\":\""
                        : ",\"part\":{\"type\":\"reasoning_text\",\"text\":\"";
        detail::append_escaped_sliced(buf_, item.content, [this] { spill(); });
        buf_ += message ? "\",\"annotations\":[],\"logprobs\":[]}" : "\"}";
        close_event();
    } else if (item.call_status == segment_status::complete) {
        // The whole arguments again: the dialect's `.done` carries them (a second write of the
        // one copy, not a second copy).
        const bool function = item.type == type::function_call;
        open_item_event(function ? "response.function_call_arguments.done" : "response.custom_tool_call_input.done",
                        item, false);
        buf_ += function ? ",\"arguments\":\"" : ",\"input\":\"";
        detail::append_escaped_sliced(buf_, item.content, [this] { spill(); });
        buf_ += '"';
        close_event();
    }
    open_event("response.output_item.done");
    buf_ += ",\"output_index\":";
    detail::append_integer(buf_, output_index_);
    buf_ += ",\"item\":";
    detail::append_response_item(buf_, item, [this] { spill(); });
    close_event();
}

template<byte_output Output>
void openai_responses_writer<Output>::open_event(std::string_view type)
{
    buf_ += "event: ";
    buf_ += type;
    buf_ += "\ndata: {\"type\":\"";
    buf_ += type;
    buf_ += '"';
}

// An event about the current item: its id, its output_index and, for a part, content_index 0.
template<byte_output Output>
void openai_responses_writer<Output>::open_item_event(std::string_view type, const detail::response_item& item,
                                                      bool content_index)
{
    open_event(type);
    buf_ += ",\"item_id\":";
    detail::append_json_string_valid(buf_, item.id);
    buf_ += ",\"output_index\":";
    detail::append_integer(buf_, output_index_);
    if (content_index)
        buf_ += ",\"content_index\":0";
}

template<byte_output Output>
void openai_responses_writer<Output>::close_event()
{
    buf_ += ",\"sequence_number\":";
    detail::append_integer(buf_, sequence_++);
    buf_ += "}\n\n";
    output_(std::string_view(buf_));
    buf_.clear();
    constexpr std::size_t keep = std::size_t{1} << 20;   // a huge name does not stay allocated
    if (buf_.capacity() > keep)
        std::string().swap(buf_);
}

template<byte_output Output>
void openai_responses_writer<Output>::spill()
{
    constexpr std::size_t spill_at = 16 * 1024;
    if (buf_.size() >= spill_at) {
        output_(std::string_view(buf_));
        buf_.clear();
    }
}

} // namespace toolstream
