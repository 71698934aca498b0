// Out-of-line members of toolstream::openai_sse_writer: events to deltas (the chunks themselves
// are assembled in openai_sse_chunks.hpp).
#pragma once

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/writers/openai_sse.hpp>

namespace toolstream {

namespace detail {

constexpr std::string_view tool_phase_name(tool_phase p) noexcept
{
    switch (p) {
    case tool_phase::step: return "step";
    case tool_phase::progress: return "progress";
    case tool_phase::complete: return "complete";
    case tool_phase::error: return "error";
    }
    return "progress";
}

} // namespace detail

template<byte_output Output>
void openai_sse_writer<Output>::start(std::string_view provider_id, std::string_view provider_model)
{
    if (identity_.started)
        return;
    identity_.start(options_.id, options_.model, options_.created, provider_id, provider_model);
    prefix_ = "{\"id\":";
    detail::append_json_string_valid(prefix_, identity_.id);
    prefix_ += ",\"object\":\"chat.completion.chunk\",\"created\":";
    detail::append_integer(prefix_, identity_.created);
    prefix_ += ",\"model\":";
    detail::append_json_string_valid(prefix_, identity_.model);
    prefix_ += ',';
}

template<byte_output Output>
auto openai_sse_writer<Output>::choice(std::size_t index) -> choice_state&
{
    if (index >= choices_.size())
        choices_.resize(index + 1);
    return choices_[index];
}

template<byte_output Output>
void openai_sse_writer<Output>::operator()(const segment_event& e)
{
    if (closed_)
        return;
    start();
    auto& ch = choice(e.choice);
    const bool is_text = e.segment_kind == segment_type::text;
    if (is_text || e.segment_kind == segment_type::reasoning) {
        auto& carry = is_text ? ch.text : ch.reasoning;
        const std::string_view field = is_text ? "content" : "reasoning_content";
        if (e.type == segment_event_type::SEGMENT_CONTENT)
            text_delta(e.choice, field, carry, e.delta);
        else if (e.type == segment_event_type::SEGMENT_END)
            carry.flush([&](std::string_view rest) { write_text(e.choice, field, rest); });
        return;
    }
    if (!is_tool_segment(e.segment_kind))
        return;   // media: no Chat Completions form
    if (e.type == segment_event_type::SEGMENT_START)
        start_call(e);
    else if (e.type == segment_event_type::SEGMENT_END)
        end_call(e);
    // A tool segment's CONTENT is what its argument fragments encode: they carry it.
}

template<byte_output Output>
void openai_sse_writer<Output>::operator()(const argument_fragment& f)
{
    if (closed_)
        return;
    if (open_call* c = find_call(f.choice, f.segment_id))
        write_arguments(*c, f.json);
}

template<byte_output Output>
void openai_sse_writer<Output>::operator()(const choice_finished& f)
{
    if (closed_)
        return;
    if (f.kind == finish_kind::error) {
        fail(detail::error_finish_message(f.reason));
        return;
    }
    start();
    auto& ch = choice(f.choice);
    if (ch.finished)
        return;
    ch.finished = true;
    open_choice(f.choice);
    close_choice(detail::openai_finish_reason(f.kind));
}

template<byte_output Output>
void openai_sse_writer<Output>::operator()(const usage_reported& u)
{
    if (closed_ || !options_.include_usage)
        return;
    start();
    open_chunk();
    buf_ += "\"choices\":[],\"usage\":";
    detail::append_openai_usage(buf_, u.usage);
    close_chunk();
}

template<byte_output Output>
void openai_sse_writer<Output>::progress(const tool_progress& p)
{
    write_extension("tool_progress", [&] {
        buf_ += "{\"tool\":";
        detail::append_json_string_valid(buf_, p.tool);
        if (!p.tool_call_id.empty()) {
            buf_ += ",\"tool_call_id\":";
            detail::append_json_string_valid(buf_, p.tool_call_id);
        }
        buf_ += ",\"phase\":\"";
        buf_ += detail::tool_phase_name(p.phase);
        buf_ += "\",\"message\":";
        detail::append_json_string_valid(buf_, p.message);
        if (p.data != nullptr && !p.data->is_null()) {
            buf_ += ",\"data\":";
            detail::append_compact_json(buf_, *p.data);
        }
        if (p.timestamp != 0) {
            buf_ += ",\"timestamp\":";
            detail::append_integer(buf_, p.timestamp);
        }
        buf_ += '}';
    });
}

template<byte_output Output>
void openai_sse_writer<Output>::result(const tool_result& r)
{
    write_extension("tool_result", [&] {
        buf_ += "{\"tool_call_id\":";
        detail::append_json_string_valid(buf_, r.tool_call_id);
        if (!r.name.empty()) {
            buf_ += ",\"name\":";
            detail::append_json_string_valid(buf_, r.name);
        }
        buf_ += ",\"content\":";
        detail::append_json_string_valid(buf_, r.content);
        if (r.is_error)
            buf_ += ",\"is_error\":true";
        buf_ += '}';
    });
}

template<byte_output Output>
auto openai_sse_writer<Output>::find_call(std::size_t choice, std::string_view id) -> open_call*
{
    auto matches = [&](const open_call& c) { return c.open && c.choice == choice && c.id == id; };
    if (last_call_ < calls_.size() && matches(calls_[last_call_]))
        return &calls_[last_call_];
    for (std::size_t i = 0; i < calls_.size(); ++i)
        if (matches(calls_[i])) {
            last_call_ = i;
            return &calls_[i];
        }
    return nullptr;
}

template<byte_output Output>
void openai_sse_writer<Output>::start_call(const segment_event& e)
{
    std::size_t slot = 0;
    while (slot < calls_.size() && calls_[slot].open)
        ++slot;
    if (slot == calls_.size())
        calls_.emplace_back();
    last_call_ = slot;
    open_call& c = calls_[slot];
    c.id.assign(e.segment_id);
    c.choice = e.choice;
    c.open = true;
    c.announced = c.named = false;
    c.held.clear();
    c.carry = {};
    if (const std::string_view name = tool_name_of(e); !name.empty())
        announce(c, name, true);
}

template<byte_output Output>
void openai_sse_writer<Output>::end_call(const segment_event& e)
{
    open_call* found = find_call(e.choice, e.segment_id);
    if (found == nullptr)
        return;
    open_call& c = *found;
    const std::string_view name = tool_name_of(e);
    if (!c.announced && !name.empty())
        announce(c, name, true);
    if (e.status == segment_status::complete && (c.announced || !name.empty()))
        choice(c.choice).made_calls = true;
    if (c.announced) {
        c.carry.flush([&](std::string_view rest) { write_arguments_delta(c, rest); });
        if (!c.named && !name.empty()) {
            c.named = true;
            open_choice(c.choice);
            open_tool_call(c);
            buf_ += "\"function\":{\"name\":";
            detail::append_json_string_valid(buf_, name);
            buf_ += ",\"arguments\":\"\"}}]";
            close_choice();
        }
    }
    c.open = false;
    constexpr std::size_t keep = std::size_t{1} << 20;   // a large held call does not stay allocated
    if (c.held.capacity() > keep)
        std::string().swap(c.held);
}

template<byte_output Output>
void openai_sse_writer<Output>::write_arguments(open_call& c, std::string_view json)
{
    if (!c.announced) {
        c.held.append(json);
        if (c.held.size() > options_.max_held_call_bytes)
            announce(c, {}, false);
        return;
    }
    c.carry.feed(json, [&](std::string_view piece) { write_arguments_delta(c, piece); });
}

// The call's first delta: index, id, type, the name when `with_name`, and the arguments held so far.
template<byte_output Output>
void openai_sse_writer<Output>::announce(open_call& c, std::string_view name, bool with_name)
{
    c.announced = true;
    c.named = with_name;
    c.index = choice(c.choice).calls++;
    open_choice(c.choice);
    open_tool_call(c);
    buf_ += "\"id\":";
    detail::append_json_string_valid(buf_, c.id);
    buf_ += ",\"type\":\"function\",\"function\":{";
    if (with_name) {
        buf_ += "\"name\":";
        detail::append_json_string_valid(buf_, name);
        buf_ += ',';
    }
    buf_ += "\"arguments\":\"";
    c.carry.feed(c.held, [&](std::string_view piece) { detail::append_json_escaped_valid(buf_, piece); });
    buf_ += "\"}}]";
    close_choice();
    c.held.clear();
}

template<byte_output Output>
void openai_sse_writer<Output>::text_delta(std::size_t choice, std::string_view field, detail::utf8_carry& carry,
                                           std::string_view delta)
{
    if (carry.empty() && detail::utf8_complete_prefix(delta) == delta.size())
        write_text(choice, field, delta);   // the common case
    else
        carry.feed(delta, [&](std::string_view piece) { write_text(choice, field, piece); });
}

} // namespace toolstream
