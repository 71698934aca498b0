// Out-of-line members of toolstream::pipeline.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/pipeline/pipeline.hpp>

namespace toolstream {

template<class Provider, parser_policy Policy, event_sink Sink>
    requires provider_traits<Provider>
auto pipeline<Provider, Policy, Sink>::state(std::size_t index) -> choice_state&
{
    if (index >= choices_.size())
        choices_.resize(index + 1);
    auto& slot = choices_[index];
    if (!slot) {
        slot = std::make_unique<choice_state>();
        slot->record.summary.index = index;
        slot->record.collect_text = options_.collect_text;
        handler_options h;
        h.segment_id_prefix = options_.segment_id_prefix;
        h.choice = index;
        h.native_limits = options_.native_limits;
        h.keep_invocations = options_.keep_invocations;
        h.keep_file_bodies = options_.keep_file_bodies;
        if (index > 0)
            h.segment_id_prefix += "c" + std::to_string(index) + ":";
        slot->handler = std::make_unique<handler_type>(detail::choice_sink<Sink>{&sink_, &slot->record},
                                                       std::move(h), make_policy_());
    }
    return *slot;
}

template<class Provider, parser_policy Policy, event_sink Sink>
    requires provider_traits<Provider>
auto pipeline<Provider, Policy, Sink>::choice(std::size_t index) -> handler_type&
{
    return *state(index).handler;
}

template<class Provider, parser_policy Policy, event_sink Sink>
    requires provider_traits<Provider>
void pipeline<Provider, Policy, Sink>::record_error(error_code ec, error_code& first, bool of_stream)
{
    if (!ec)
        return;
    if (!first)
        first = ec;
    if (!first_error_)
        first_error_ = ec;
    if (of_stream && !stream_error_) {
        stream_error_ = ec;
        fail(ec.message());
    }
}

template<class Provider, parser_policy Policy, event_sink Sink>
    requires provider_traits<Provider>
void pipeline<Provider, Policy, Sink>::start_response(const chunk_response* first_chunk)
{
    if (started_)
        return;
    started_ = true;
    response_started r;
    if (first_chunk != nullptr) {
        r.id = first_chunk->response_id;
        r.model = first_chunk->model;
    }
    deliver(r);
}

template<class Provider, parser_policy Policy, event_sink Sink>
    requires provider_traits<Provider>
void pipeline<Provider, Policy, Sink>::fail(std::string_view message)
{
    if (failed_)
        return;
    failed_ = true;
    start_response(nullptr);
    deliver(provider_failed{message});
}

// The converter's word, else: a broken stream is `error`, one that ended before the provider
// said it was finished is `length`. A choice that stopped after complete calls made `tool_calls`.
template<class Provider, parser_policy Policy, event_sink Sink>
    requires provider_traits<Provider>
finish_kind pipeline<Provider, Policy, Sink>::finish_of(const choice_state& c) const
{
    finish_kind kind = c.record.finish ? *c.record.finish
                     : provider_error_ || stream_error_ ? finish_kind::error
                                                        : finish_kind::length;
    return kind == finish_kind::stop && c.record.made_calls ? finish_kind::tool_calls : kind;
}

template<class Provider, parser_policy Policy, event_sink Sink>
    requires provider_traits<Provider>
error_code pipeline<Provider, Policy, Sink>::route(std::size_t index, const chunk_response& chunk,
                                                   chunk_response* owned)
{
    recognized_ = true;
    start_response(&chunk);
    auto& st = state(index);
    // A choice ends once: a later finish of another kind, or another raw reason, is the
    // upstream's protocol error, reported (error::finish_repeated) and not obeyed. The same finish
    // again alters nothing; a raw reason after a finish that had none (an in-stream error, then
    // the provider's terminal status naming it) completes it.
    const auto& raw = st.record.summary.finish_reason;
    error_code repeated;
    if (chunk.finish && st.record.finish
        && (*chunk.finish != *st.record.finish || (raw && !chunk.finish_reason.empty() && chunk.finish_reason != *raw))) {
        repeated = error::finish_repeated;
    } else {
        if (!chunk.finish_reason.empty() && !raw)
            st.record.summary.finish_reason = chunk.finish_reason;
        if (chunk.finish && !st.record.finish)
            st.record.finish = chunk.finish;
    }
    st.record.summary.refusal.append(chunk.refusal);
    if (chunk.usage)
        usage_ = chunk.usage;
    // A limit the policy hit. The chunk's error is read after: the handler takes only call text.
    const error_code ec = owned != nullptr ? st.handler->feed(std::move(*owned)) : st.handler->feed(chunk);
    if (!chunk.error.empty()) {
        provider_error_ = chunk.error;
        fail(chunk.error);
    }
    return ec ? ec : repeated;
}

template<class Provider, parser_policy Policy, event_sink Sink>
    requires provider_traits<Provider>
error_code pipeline<Provider, Policy, Sink>::write(std::string_view bytes)
{
    if (finished_)
        return error::feed_after_finalize;
    seen_input_ = seen_input_ || !detail::all_blank(bytes);
    error_code first;
    router on_event{*this, first};
    // The decoder's errors reach `on_event` in stream order; only a failed allocation is new here.
    record_error(detail::guard_allocation([&] {
             (void)decoder_.write(bytes, on_event);
             return error_code{};
         }),
         first);
    return first;
}

template<class Provider, parser_policy Policy, event_sink Sink>
    requires provider_traits<Provider>
error_code pipeline<Provider, Policy, Sink>::finish()
{
    if (finished_)
        return {};
    error_code first;
    router on_event{*this, first};
    record_error(detail::guard_allocation([&] {
             (void)decoder_.finish(on_event);
             converter_.finish(on_event);
             return error_code{};
         }),
         first);
    // When the transport dropped every event as oversized, that error already says why no chunk
    // came: the dialect of what was dropped is unknown.
    const bool all_dropped = !seen_event_
                             && (stream_error_ == error::event_too_large || stream_error_ == error::line_too_large);
    if (!recognized_ && !all_dropped) {
        // Not the provider's stream: the verdict comes first, before what finish() met.
        const error_code ec = seen_input_ ? error::provider_mismatch : error::empty_stream;
        const std::string_view name = converter_type::name;
        verdict_ = seen_input_ ? "the stream is not " + std::string(name) + ": none of its events has that dialect's"
                                     " shape (another provider's stream, or no stream at all)"
                               : "the " + std::string(name) + " stream is empty: no event";
        first = ec;
        if (!first_error_)
            first_error_ = ec;
        if (!stream_error_)
            stream_error_ = ec;
        fail(verdict_);
    }
    start_response(nullptr);
    state(0);   // an empty stream still has its one choice
    for (auto& c : choices_)
        if (c)
            record_error(c->handler->finalize(), first, false);
    for (auto& c : choices_)
        if (c) {
            const auto& raw = c->record.summary.finish_reason;
            deliver(choice_finished{c->record.summary.index, raw ? std::string_view(*raw) : std::string_view{},
                                    finish_of(*c)});
        }
    if (usage_)
        deliver(usage_reported{*usage_});
    finished_ = true;
    return first;
}

template<class Provider, parser_policy Policy, event_sink Sink>
    requires provider_traits<Provider>
stream_summary pipeline<Provider, Policy, Sink>::summary() const
{
    stream_summary s;
    s.usage = usage_;
    s.error = provider_error_;
    if (!s.error && !verdict_.empty())
        s.error = verdict_;
    if (!s.error && stream_error_)
        s.error = stream_error_.message();
    for (const auto& c : choices_) {
        if (!c)
            continue;
        choice_summary cs = c->record.summary;
        const auto& invocations = c->handler->invocations();
        for (const auto& id : c->record.tool_order)
            for (const auto& inv : invocations)
                if (inv.id == id) {
                    // A stream broken by an error abandons the calls it left open (the SDKs
                    // throw); a merely truncated stream still lists them, flagged incomplete.
                    if (!(s.error && inv.status == invocation_status::incomplete))
                        cs.tool_calls.push_back(inv);
                    break;
                }
        s.choices.push_back(std::move(cs));
    }
    return s;
}

} // namespace toolstream
