// event_target: any segment_emitter target, reached through a table of function pointers. A
// policy is compiled once per emitter type, so the run-time path writes every policy's output,
// and auto's trials of each format theirs, through segment_emitter<event_target>: one
// instantiation of each format where there had been one per target.
#pragma once

#include <toolstream/segment_event.hpp>

#include <concepts>

namespace toolstream {

namespace detail {

/// One entry per kind of event an emitter makes, null where the target does not take that kind.
struct event_target_table {
    void (*segment)(void*, const segment_event&);
    void (*fragment)(void*, const argument_fragment&);
    void (*markup)(void*, const consumed_markup&);
};

/// The entry of a table like event_target_table for `Target` and `Event`: a call of the target
/// through a `void*`, or null when the target does not take that kind.
template<class Target, class Event>
constexpr auto deliver_event() -> void (*)(void*, const Event&)
{
    if constexpr (std::invocable<Target&, const Event&>)
        return [](void* target, const Event& e) { (*static_cast<Target*>(target))(e); };
    else
        return nullptr;
}

/// Calls a table's entry, unless it is null.
template<class Event>
void deliver_if_taken(void (*to)(void*, const Event&), void* target, const Event& e)
{
    if (to != nullptr)
        to(target, e);
}

template<class Target>
inline constexpr event_target_table event_target_table_for{
    deliver_event<Target, segment_event>(),
    deliver_event<Target, argument_fragment>(),
    deliver_event<Target, consumed_markup>(),
};

} // namespace detail

/// A reference to a target of any type taking `const segment_event&` (and, when it wants them,
/// `const argument_fragment&` and `consumed_markup`); the target must outlive it. It takes all
/// three kinds and passes on those the target takes, so an emitter builds each kind of event
/// whatever the target (a fragment is a few views; one the target does not take is dropped here).
class event_target {
public:
    template<segment_event_sink Target>
        requires(!std::same_as<Target, event_target>)
    explicit event_target(Target& target) noexcept : target_(&target), table_(&detail::event_target_table_for<Target>)
    {
    }

    void operator()(const segment_event& e) const { detail::deliver_if_taken(table_->segment, target_, e); }
    void operator()(const argument_fragment& f) const { detail::deliver_if_taken(table_->fragment, target_, f); }
    void operator()(const consumed_markup& m) const { detail::deliver_if_taken(table_->markup, target_, m); }

private:
    void* target_;
    const detail::event_target_table* table_;
};

static_assert(segment_event_sink<event_target>);

/// A sink whose type erases the events it takes (it declares `static constexpr bool
/// event_types_erased = true`, as the run-time path's erased_sink does, and a sink that wraps one
/// says so of itself): a handler for it writes through segment_emitter<event_target>, the
/// emitter of auto's trials too.
template<class Sink>
concept erases_event_types = requires { requires Sink::event_types_erased; };

} // namespace toolstream
