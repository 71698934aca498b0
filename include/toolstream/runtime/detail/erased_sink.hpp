// The one sink type the run-time path is compiled for: any event_sink, reached through a table of
// function pointers made at compile time for its type. runtime_pipeline<Sink> hands its sink over
// as an erased_sink, so the pipelines of every provider and policy are compiled once, whatever the
// sinks of a program.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>

#include <concepts>

namespace toolstream::detail {

/// One entry per kind of event, null where the sink does not take that kind.
struct sink_table {
    void (*segment)(void*, const segment_event&);
    void (*invocation)(void*, const tool_invocation&);
    void (*fragment)(void*, const argument_fragment&);
    void (*markup)(void*, const consumed_markup&);
    void (*started)(void*, const response_started&);
    void (*finished)(void*, const choice_finished&);
    void (*usage)(void*, const usage_reported&);
    void (*failed)(void*, const provider_failed&);
};

template<class Sink, class Event>
constexpr auto deliver_to() -> void (*)(void*, const Event&)
{
    if constexpr (std::invocable<Sink&, const Event&>)
        return [](void* sink, const Event& e) { (*static_cast<Sink*>(sink))(e); };
    else
        return nullptr;
}

template<class Sink>
inline constexpr sink_table sink_table_for{
    deliver_to<Sink, segment_event>(),    deliver_to<Sink, tool_invocation>(), deliver_to<Sink, argument_fragment>(),
    deliver_to<Sink, consumed_markup>(),  deliver_to<Sink, response_started>(), deliver_to<Sink, choice_finished>(),
    deliver_to<Sink, usage_reported>(),   deliver_to<Sink, provider_failed>(),
};

/// A reference to a sink of any type; the sink must outlive it. It takes every kind of event and
/// passes on those the sink takes, as `sink_table_for<Sink>` records them: `segment_event`,
/// `tool_invocation`, `argument_fragment`, `consumed_markup`, `response_started`,
/// `choice_finished`, `usage_reported` and `provider_failed`, each where `Sink&` is invocable with
/// it. Which kinds those are is known only here, at run time: the pipeline behind builds an event
/// of every kind, and a kind the sink does not take is dropped at this call (one test of a null
/// pointer).
class erased_sink {
public:
    static constexpr bool event_types_erased = true;   // see erases_event_types

    template<event_sink Sink>
    explicit erased_sink(Sink& sink) noexcept : sink_(&sink), table_(&sink_table_for<Sink>)
    {
        static_assert(sink_signatures_checked<Sink>());
    }

    void operator()(const segment_event& e) const { deliver(table_->segment, e); }
    void operator()(const tool_invocation& inv) const { deliver(table_->invocation, inv); }
    void operator()(const argument_fragment& f) const { deliver(table_->fragment, f); }
    void operator()(const consumed_markup& m) const { deliver(table_->markup, m); }
    void operator()(const response_started& r) const { deliver(table_->started, r); }
    void operator()(const choice_finished& c) const { deliver(table_->finished, c); }
    void operator()(const usage_reported& u) const { deliver(table_->usage, u); }
    void operator()(const provider_failed& p) const { deliver(table_->failed, p); }

private:
    template<class Event>
    void deliver(void (*to)(void*, const Event&), const Event& e) const
    {
        if (to != nullptr)
            to(sink_, e);
    }

    void* sink_;
    const sink_table* table_;
};

static_assert(event_sink<erased_sink>);

} // namespace toolstream::detail
