// A sink that passes on only the kinds of event a handler delivers. Plain model text runs through
// runtime_pipeline("text"), whose policies are compiled once for the program, instead of a
// handler<runtime_policy, Sink> in the program's own TU; its sink then sees what a handler's sink
// sees, without the response_started and choice_finished that text_pipeline adds.
#pragma once

#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>

#include <concepts>

namespace toolstream_programs {

template<class Event>
concept handler_event = std::same_as<Event, toolstream::segment_event> || std::same_as<Event, toolstream::tool_invocation>
                        || std::same_as<Event, toolstream::argument_fragment>
                        || std::same_as<Event, toolstream::consumed_markup>;

template<class Sink>
struct handler_events {
    Sink sink;

    template<handler_event Event>
        requires std::invocable<Sink&, const Event&>
    void operator()(const Event& e)
    {
        sink(e);
    }
};

} // namespace toolstream_programs
