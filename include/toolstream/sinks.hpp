// Ready-made event sinks: record, call back, discard, fan out to two sinks, or pick one at run time.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>

#include <concepts>
#include <utility>
#include <variant>
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

/// Forwards to any invocable every kind of event it takes: segment events, invocations,
/// argument fragments, consumed markup, the response-level events (a generic lambda takes all).
template<class F>
    requires event_sink<F>
class callback_sink {
    static_assert(detail::sink_signatures_checked<F>());

public:
    explicit callback_sink(F f) : f_(std::move(f)) {}

    template<class Event>
        requires std::invocable<F&, const Event&>
    void operator()(const Event& e)
    {
        f_(e);
    }

private:
    F f_;
};

/// Sends every kind of event to `first`, then to `second`, each only the kinds it takes.
template<event_sink First, event_sink Second>
class tee_sink {
    static_assert(detail::sink_signatures_checked<First>() && detail::sink_signatures_checked<Second>());

public:
    tee_sink(First first, Second second) : first_(std::move(first)), second_(std::move(second)) {}

    template<class Event>
        requires std::invocable<First&, const Event&> || std::invocable<Second&, const Event&>
    void operator()(const Event& e)
    {
        if constexpr (std::invocable<First&, const Event&>)
            first_(e);
        if constexpr (std::invocable<Second&, const Event&>)
            second_(e);
    }

    First& first() noexcept { return first_; }
    Second& second() noexcept { return second_; }

private:
    First first_;
    Second second_;
};

/// One of several sinks, chosen at run time (a program's output format picked by a flag): every
/// kind of event that one of them takes is sent to the one held, if it takes that kind. One
/// pipeline type serves them all, so the pipeline is compiled once rather than once per sink.
template<event_sink... Sinks>
class variant_sink {
    static_assert((detail::sink_signatures_checked<Sinks>() && ...));

public:
    template<class... Args>
        requires std::constructible_from<std::variant<Sinks...>, Args...>
    explicit variant_sink(Args&&... args) : sink_(std::forward<Args>(args)...)
    {
    }

    template<class Event>
        requires(std::invocable<Sinks&, const Event&> || ...)
    void operator()(const Event& e)
    {
        std::visit(
            [&e](auto& held) {
                if constexpr (std::invocable<decltype(held)&, const Event&>)
                    held(e);
            },
            sink_);
    }

    std::variant<Sinks...>& get() noexcept { return sink_; }
    const std::variant<Sinks...>& get() const noexcept { return sink_; }

private:
    std::variant<Sinks...> sink_;
};

static_assert(event_sink<recording_sink> && event_sink<null_sink>);
static_assert(event_sink<variant_sink<recording_sink, null_sink>>);

} // namespace toolstream
