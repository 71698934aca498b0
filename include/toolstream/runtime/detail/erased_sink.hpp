// The one sink type the run-time path is compiled for: any event_sink, reached through a table of
// function pointers made at compile time for its type. runtime_pipeline<Sink> hands its sink over
// as an erased_sink, so the pipelines of every provider and policy are compiled once, whatever the
// sinks of a program.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/parse/event_target.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>

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

template<class Sink>
inline constexpr sink_table sink_table_for{
    deliver_event<Sink, segment_event>(),   deliver_event<Sink, tool_invocation>(),
    deliver_event<Sink, argument_fragment>(), deliver_event<Sink, consumed_markup>(),
    deliver_event<Sink, response_started>(), deliver_event<Sink, choice_finished>(),
    deliver_event<Sink, usage_reported>(),  deliver_event<Sink, provider_failed>(),
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

    void operator()(const segment_event& e) const { deliver_if_taken(table_->segment, sink_, e); }
    void operator()(const tool_invocation& inv) const { deliver_if_taken(table_->invocation, sink_, inv); }
    void operator()(const argument_fragment& f) const { deliver_if_taken(table_->fragment, sink_, f); }
    void operator()(const consumed_markup& m) const { deliver_if_taken(table_->markup, sink_, m); }
    void operator()(const response_started& r) const { deliver_if_taken(table_->started, sink_, r); }
    void operator()(const choice_finished& c) const { deliver_if_taken(table_->finished, sink_, c); }
    void operator()(const usage_reported& u) const { deliver_if_taken(table_->usage, sink_, u); }
    void operator()(const provider_failed& p) const { deliver_if_taken(table_->failed, sink_, p); }

private:
    void* sink_;
    const sink_table* table_;
};

static_assert(event_sink<erased_sink>);

} // namespace toolstream::detail
