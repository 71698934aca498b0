// Out-of-line members of detail::anthropic_block_sequencer: which block each event goes to, what
// waits while a call's block is open, and how the message ends.
#pragma once

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/writers/detail/anthropic_blocks.hpp>
#include <toolstream/writers/detail/anthropic_message.hpp>
#include <toolstream/writers/detail/openai_chunk.hpp>

#include <utility>

namespace toolstream::detail {

template<class Target>
void anthropic_block_sequencer::start(Target& t)
{
    if (started_ || closed_)
        return;
    started_ = true;
    t.message_start();
}

template<class Target>
void anthropic_block_sequencer::segment(const segment_event& e, Target& t)
{
    // Messages has one choice; media has no block a client would read here.
    if (closed_ || e.choice != 0 || e.segment_kind == segment_type::media)
        return;
    const bool tool = is_tool_segment(e.segment_kind);
    if (tool == (e.type == segment_event_type::SEGMENT_CONTENT))
        return;   // a flow's START opens nothing (its first character does); a call's CONTENT is in its fragments
    start(t);
    event_view v;
    v.kind = e.type == segment_event_type::SEGMENT_START ? step::start
           : e.type == segment_event_type::SEGMENT_END   ? step::end
                                                         : step::content;
    v.id = e.segment_id;
    v.type = e.segment_kind;
    v.bytes = e.delta;
    if (tool) {
        v.name = tool_name_of(e);
        v.free_form = is_free_form(e);
    }
    v.status = e.status;
    v.error = e.error;
    handle(v, t);
}

template<class Target>
void anthropic_block_sequencer::fragment(const argument_fragment& f, Target& t)
{
    if (closed_ || f.choice != 0 || f.json.empty())
        return;
    start(t);
    event_view v;
    v.kind = step::fragment;
    v.id = f.segment_id;
    v.type = f.segment_kind;
    v.bytes = f.json;
    handle(v, t);
}

template<class Target>
void anthropic_block_sequencer::finish(const choice_finished& c, Target& t)
{
    if (closed_ || c.choice != 0)
        return;
    if (c.kind == finish_kind::error) {
        fail(error_finish_message(c.reason), t);
        return;
    }
    if (finish_)
        return;   // the first finish stands
    finish_ = c.kind;
    start(t);
    if (call_.active && call_.ended && c.kind != finish_kind::length)
        fail(call_problem(), t);
}

template<class Target>
void anthropic_block_sequencer::fail(std::string_view message, Target& t)
{
    if (closed_)
        return;
    failed_ = closed_ = true;
    t.error_event(message);
}

template<class Target>
void anthropic_block_sequencer::done(Target& t)
{
    if (closed_)
        return;
    start(t);
    if (call_.active) {
        if (finish_ != finish_kind::length) {
            fail(call_problem(), t);
            return;
        }
        // Cut by the length limit: its block stays open, unstopped, and the message ends
        // max_tokens; what waited behind it is not written.
        held_.clear();
    } else {
        close_flow(t);
    }
    closed_ = true;
    t.message_end(finish_ ? anthropic_stop_reason(*finish_) : made_call_ ? "tool_use" : "end_turn");
}

template<class Target>
void anthropic_block_sequencer::handle(const event_view& e, Target& t)
{
    const bool own = call_.active && e.kind != step::start && e.id == call_.id && is_tool_segment(e.type);
    if (!call_.active || own) {
        apply(e, t);
        return;
    }
    // Another block's event while a call's block is open. After the call ended broken, more
    // output means the model went on: the call was not cut by the length limit.
    if (call_.ended && e.kind != step::end) {
        fail(call_problem(), t);
        return;
    }
    hold(e, t);
}

template<class Target>
void anthropic_block_sequencer::apply(const event_view& e, Target& t)
{
    const bool tool = is_tool_segment(e.type);
    switch (e.kind) {
    case step::start:
        start_call(e, t);   // only tool segments come here
        return;
    case step::content:
        flow_content(e.type == segment_type::text ? anthropic_block_type::text : anthropic_block_type::thinking,
                     e.bytes, t);
        return;
    case step::fragment:
        if (call_.active && e.id == call_.id)
            call_arguments(e.bytes, t);
        return;   // a call never started (or of a dropped START) has no block
    case step::end:
        if (!tool)
            close_flow(t);
        else if (call_.active && e.id == call_.id)
            end_call(e, t);
        return;
    }
}

template<class Target>
void anthropic_block_sequencer::hold(const event_view& e, Target& t)
{
    const bool appends = !held_.empty() && (e.kind == step::content || e.kind == step::fragment)
        && held_.back().kind == e.kind && held_.back().type == e.type && held_.back().id == e.id;
    if (appends) {
        held_.back().bytes.append(e.bytes);
        held_bytes_ += e.bytes.size();
    } else {
        held_.push_back({e.kind, std::string(e.id), e.type, std::string(e.bytes), std::string(e.name), e.status,
                         std::string(e.error), e.free_form});
        held_bytes_ += held_.back().cost();
    }
    if (held_bytes_ > max_held_) {
        std::string message = "more than " + std::to_string(max_held_)
            + " bytes arrived for other content blocks while tool call ";
        if (!call_.name.empty())
            message.append("'").append(call_.name).append("' ");
        message.append("(id ").append(call_.id).append(") was open: an Anthropic stream writes one block at a time");
        fail(message, t);
    }
}

// Replays what was held once the call's block closed. A call opened by the replay holds what
// is not its own again, in order; when that call closes during the replay, the pass restarts
// from what it held, which came before the rest of the batch.
template<class Target>
void anthropic_block_sequencer::drain(Target& t)
{
    if (draining_) {
        block_closed_ = true;
        return;
    }
    draining_ = true;
    std::vector<held_event> batch;
    do {
        block_closed_ = false;
        batch.clear();
        batch.swap(held_);
        held_bytes_ = call_.held.size();
        std::size_t i = 0;
        while (i < batch.size() && !closed_ && !block_closed_)
            handle(batch[i++].view(), t);
        for (; i < batch.size(); ++i) {
            held_bytes_ += batch[i].cost();
            held_.push_back(std::move(batch[i]));
        }
    } while (block_closed_ && !closed_);
    draining_ = false;
}

template<class Target>
void anthropic_block_sequencer::flow_content(anthropic_block_type type, std::string_view delta, Target& t)
{
    if (carry_type_ != type) {
        close_flow(t);   // thinking then text (or back) without an END between: two blocks
        carry_type_ = type;
    }
    if (flow_carry_.empty() && utf8_complete_prefix(delta) == delta.size())
        flow_piece(delta, t);   // the common case
    else
        flow_carry_.feed(delta, [&](std::string_view piece) { flow_piece(piece, t); });
}

template<class Target>
void anthropic_block_sequencer::flow_piece(std::string_view piece, Target& t)
{
    if (piece.empty())
        return;
    if (!flow_open_) {
        flow_open_ = true;
        flow_type_ = carry_type_;
        flow_index_ = next_index_++;
        t.block_start(flow_type_, flow_index_, {}, {});
    }
    t.block_delta(flow_type_, flow_index_, piece);
}

template<class Target>
void anthropic_block_sequencer::close_flow(Target& t)
{
    flow_carry_.flush([&](std::string_view piece) { flow_piece(piece, t); });
    if (!flow_open_)
        return;
    flow_open_ = false;
    t.block_stop(flow_type_, flow_index_);
}

template<class Target>
void anthropic_block_sequencer::start_call(const event_view& e, Target& t)
{
    close_flow(t);
    call_.active = true;
    call_.announced = call_.ended = false;
    call_.free_form = e.free_form;
    call_.id.assign(e.id);
    call_.name.assign(e.name);
    call_.held.clear();
    call_.status = segment_status::complete;
    call_.error.clear();
    call_.carry = {};
    if (!call_.name.empty())
        announce(t);
}

template<class Target>
void anthropic_block_sequencer::announce(Target& t)
{
    call_.announced = true;
    call_.index = next_index_++;
    t.block_start(anthropic_block_type::tool_use, call_.index, call_.id, call_.name);
    if (call_.free_form)   // Messages has no free-form input: the text is the member `input`
        t.block_delta(anthropic_block_type::tool_use, call_.index, "{\"input\":\"");
    if (!call_.held.empty()) {
        held_bytes_ -= call_.held.size();
        write_arguments(call_.held, t);
        std::string().swap(call_.held);
    }
}

template<class Target>
void anthropic_block_sequencer::call_arguments(std::string_view json, Target& t)
{
    if (call_.announced) {
        write_arguments(json, t);
        return;
    }
    call_.held.append(json);
    held_bytes_ += json.size();
    if (held_bytes_ > max_held_)
        fail("tool call (id " + call_.id + ") sent more than " + std::to_string(max_held_)
                 + " bytes of arguments before its name: an Anthropic tool_use block cannot start without one",
             t);
}

template<class Target>
void anthropic_block_sequencer::write_arguments(std::string_view json, Target& t)
{
    if (call_.carry.empty() && utf8_complete_prefix(json) == json.size())
        arguments_piece(json, t);
    else
        call_.carry.feed(json, [&](std::string_view piece) { arguments_piece(piece, t); });
}

template<class Target>
void anthropic_block_sequencer::arguments_piece(std::string_view piece, Target& t)
{
    if (!call_.free_form) {
        t.block_delta(anthropic_block_type::tool_use, call_.index, piece);
        return;
    }
    escaped_.clear();
    append_json_escaped(escaped_, piece);
    t.block_delta(anthropic_block_type::tool_use, call_.index, escaped_);
}

template<class Target>
void anthropic_block_sequencer::end_call(const event_view& e, Target& t)
{
    if (!call_.announced) {
        if (!e.name.empty())
            call_.name.assign(e.name);
        if (call_.name.empty()) {
            fail("tool call (id " + call_.id + ") ended without a name: an Anthropic tool_use block needs one", t);
            return;
        }
        call_.free_form = call_.free_form || e.free_form;
        announce(t);
    }
    call_.carry.flush([&](std::string_view rest) { arguments_piece(rest, t); });
    if (e.status != segment_status::complete) {
        call_.ended = true;
        call_.status = e.status;
        call_.error.assign(e.error);
        if (finish_ && *finish_ != finish_kind::length)
            fail(call_problem(), t);
        return;   // the finish decides: cut (length) or an error
    }
    if (call_.free_form)
        t.block_delta(anthropic_block_type::tool_use, call_.index, "\"}");
    t.block_stop(anthropic_block_type::tool_use, call_.index);
    made_call_ = true;
    call_.active = false;
    drain(t);
}

inline std::string anthropic_block_sequencer::call_problem() const
{
    if (!call_.ended)
        return broken_call_message(call_.name, call_.id, std::nullopt, {});
    return broken_call_message(call_.name, call_.id, call_.status, call_.error);
}

} // namespace toolstream::detail
