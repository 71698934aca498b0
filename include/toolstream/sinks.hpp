// Ready-made event sinks: record, call back, discard, or fan out to two sinks.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>

#include <concepts>
#include <utility>
#include <vector>

namespace toolstream {

/// Keeps an owning copy of every event and invocation.
struct recording_sink {
    std::vector<owned_segment_event> events;
    std::vector<tool_invocation> invocations;

    void operator()(const segment_event& e) { events.emplace_back(e); }
    void operator()(const tool_invocation& i) { invocations.push_back(i); }
    void clear() noexcept
    {
        events.clear();
        invocations.clear();
    }
};

/// Discards events (the handler still builds invocations).
struct null_sink {
    void operator()(const segment_event&) const noexcept {}
};

/// Forwards to any invocable: events if it takes a `segment_event`, invocations if it takes a
/// `tool_invocation` (a generic lambda takes both).
template<class F>
    requires event_sink<F>
class callback_sink {
public:
    explicit callback_sink(F f) : f_(std::move(f)) {}

    void operator()(const segment_event& e)
        requires segment_event_sink<F>
    {
        f_(e);
    }
    void operator()(const tool_invocation& i)
        requires invocation_sink<F>
    {
        f_(i);
    }

private:
    F f_;
};

/// Sends everything to `first`, then to `second`, each only what it takes.
template<event_sink First, event_sink Second>
class tee_sink {
public:
    tee_sink(First first, Second second) : first_(std::move(first)), second_(std::move(second)) {}

    void operator()(const segment_event& e)
        requires segment_event_sink<First> || segment_event_sink<Second>
    {
        if constexpr (segment_event_sink<First>)
            first_(e);
        if constexpr (segment_event_sink<Second>)
            second_(e);
    }
    void operator()(const tool_invocation& i)
        requires invocation_sink<First> || invocation_sink<Second>
    {
        if constexpr (invocation_sink<First>)
            first_(i);
        if constexpr (invocation_sink<Second>)
            second_(i);
    }

    First& first() noexcept { return first_; }
    Second& second() noexcept { return second_; }

private:
    First first_;
    Second second_;
};

} // namespace toolstream
