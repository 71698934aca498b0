// Out-of-line members of toolstream::handler.
#pragma once

#include <toolstream/handler/handler.hpp>

namespace toolstream {

template<parser_policy Policy, event_sink Sink>
void handler<Policy, Sink>::dispatcher::operator()(const segment_event& e)
{
    if constexpr (segment_event_sink<Sink>)
        sink(e);
    if (e.type != segment_event_type::SEGMENT_END)
        return;
    const auto ending = writer->ending();   // a tool segment's END: its arguments move into the invocation
    if (!ending)
        return;
    auto invocation = adapter.on_event(e, ending->parsed != nullptr ? std::move(*ending->parsed) : boost::json::object{},
                                       std::move(ending->text), ending->streamed_body);
    if (!invocation)
        return;
    if (!keep_invocations) {
        if constexpr (invocation_sink<Sink>)
            sink(*invocation);
        return;
    }
    invocations.push_back(std::move(*invocation));
    if constexpr (invocation_sink<Sink>)
        sink(invocations.back());
}

template<parser_policy Policy, event_sink Sink>
error_code handler<Policy, Sink>::feed(const chunk_response& chunk)
{
    return feed_chunk(chunk, nullptr);
}

template<parser_policy Policy, event_sink Sink>
error_code handler<Policy, Sink>::feed(chunk_response&& chunk)
{
    return feed_chunk(chunk, &chunk);
}

template<parser_policy Policy, event_sink Sink>
error_code handler<Policy, Sink>::feed_chunk(const chunk_response& chunk, chunk_response* owned)
{
    if (finalized_)
        return error::feed_after_finalize;
    return detail::guard_allocation([&] {
        writer_.reasoning(chunk.reasoning);
        if (!chunk.content.empty())
            policy_.on_content(chunk.content, writer_);
        for (std::size_t i = 0; i < chunk.tool_calls.size(); ++i)
            native_.on_tool_call(chunk.tool_calls[i], writer_,
                                 owned != nullptr ? &owned->tool_calls[i].arguments_delta : nullptr);
        return writer_.take_reported();
    });
}

template<parser_policy Policy, event_sink Sink>
error_code handler<Policy, Sink>::feed(std::string_view content)
{
    if (finalized_)
        return error::feed_after_finalize;
    return detail::guard_allocation([&] {
        if (!content.empty())
            policy_.on_content(content, writer_);
        return writer_.take_reported();
    });
}

template<parser_policy Policy, event_sink Sink>
error_code handler<Policy, Sink>::finalize()
{
    if (finalized_)
        return {};
    finalized_ = true;
    return detail::guard_allocation([&] {
        policy_.finalize(writer_);
        native_.finalize(writer_);
        writer_.end_flow();
        return writer_.take_reported();
    });
}

template<parser_policy Policy, event_sink Sink>
void handler<Policy, Sink>::reset()
{
    policy_.reset();
    native_.reset();
    writer_.reset();
    dispatch_.invocations.clear();
    if constexpr (requires(Sink& s) { s.clear(); })
        dispatch_.sink.clear();
    finalized_ = false;
}

} // namespace toolstream
