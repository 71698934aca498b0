// The named requirements of event sinks: what every stage after the parser delivers to.
#pragma once

#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/types.hpp>

#include <concepts>
#include <string_view>

namespace toolstream {

/// A sink takes segment events, tool invocations, or both, and any of the other kinds of event
/// it declares it takes. Handlers, pipelines and the sink adaptors forward each kind only to
/// sinks invocable with it, so a sink that ignores a kind pays nothing for it. The views inside
/// every event die when the call returns.
///
/// | expression     | semantics                                                              |
/// |----------------|------------------------------------------------------------------------|
/// | `s(e)`         | `e` is a `const segment_event&`                                        |
/// | `s(inv)`       | `inv` is a `const tool_invocation&`, delivered right after its END      |
/// | `s(f)`         | optional; `f` is a `const argument_fragment&` (after START, before END) |
/// | `s(m)`         | optional; `m` is a `const consumed_markup&`                             |
/// | `s(r)`         | optional; `r` is a `const response_started&`, first of a pipeline's stream |
/// | `s(c)`         | optional; `c` is a `const choice_finished&`, one per choice at the end  |
/// | `s(u)`         | optional; `u` is a `const usage_reported&`, after the choices' finishes |
/// | `s(p)`         | optional; `p` is a `const provider_failed&`, where the stream failed    |
/// | `s.events`     | optional; the recorded events, which `handler::events()` returns         |
/// | `s.clear()`    | optional; called by `handler::reset()`, to forget what was recorded      |
///
/// A generic lambda is invocable with every kind: constrain it (`requires`) or give it a body
/// that compiles for each. A sink that takes a kind only by non-const or rvalue reference
/// (`operator()(argument_fragment&)`) is a compile-time error naming the fix.
template<class S>
concept event_sink = std::invocable<S&, const segment_event&> || std::invocable<S&, const tool_invocation&>;

namespace detail {
/// `S` takes `Event` only as a non-const lvalue or an rvalue reference (`operator()(Event&)`,
/// `operator()(Event&&)`): every event is delivered as `const Event&`, so such a sink would
/// compile and silently never receive the kind.
template<class S, class Event>
concept near_miss_of = !std::invocable<S&, const Event&>
    && (std::invocable<S&, Event&> || std::invocable<S&, Event&&>);

// One static_assert per kind of event, so that the first error line names the kind and the fix.
#define TOOLSTREAM_DETAIL_NO_NEAR_MISS(Event)                                                          \
    static_assert(!near_miss_of<S, Event>,                                                             \
                  "toolstream: this sink takes " #Event " only by non-const or rvalue reference, so it " \
                  "would never receive one (events are delivered as const " #Event "&): declare "       \
                  "operator()(const " #Event "&)")

/// Checks a sink's signatures; handler, pipeline, callback_sink and tee_sink assert it.
template<class S>
consteval bool sink_signatures_checked()
{
    TOOLSTREAM_DETAIL_NO_NEAR_MISS(segment_event);
    TOOLSTREAM_DETAIL_NO_NEAR_MISS(tool_invocation);
    TOOLSTREAM_DETAIL_NO_NEAR_MISS(argument_fragment);
    TOOLSTREAM_DETAIL_NO_NEAR_MISS(consumed_markup);
    TOOLSTREAM_DETAIL_NO_NEAR_MISS(response_started);
    TOOLSTREAM_DETAIL_NO_NEAR_MISS(choice_finished);
    TOOLSTREAM_DETAIL_NO_NEAR_MISS(usage_reported);
    TOOLSTREAM_DETAIL_NO_NEAR_MISS(provider_failed);
    return true;
}
#undef TOOLSTREAM_DETAIL_NO_NEAR_MISS
} // namespace detail

template<class S>
concept invocation_sink = std::invocable<S&, const tool_invocation&>;

} // namespace toolstream
