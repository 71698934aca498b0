// Test support for the Anthropic Messages writers: an output that records its writes, fixed
// identity, events made by hand, and both writers fed as one sink.
#pragma once

#include <toolstream/writers/anthropic_message_builder.hpp>
#include <toolstream/writers/anthropic_messages.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream::test {

/// Appends the writer's bytes; counts the writes and keeps the largest.
struct recording_output {
    std::string bytes;
    std::size_t writes = 0;
    std::size_t largest = 0;
    void operator()(std::string_view b)
    {
        bytes.append(b);
        ++writes;
        largest = std::max(largest, b.size());
    }
};

using anthropic_writer = anthropic_sse_writer<recording_output>;

inline anthropic_options fixed_message(std::size_t max_held = 256 * 1024)
{
    return {"msg_t", "m", max_held};
}

/// The streaming writer and the builder on one pipeline or handler.
struct anthropic_both {
    anthropic_writer sse{recording_output{}, fixed_message()};
    anthropic_message_builder builder{fixed_message()};

    template<class Event>
        requires std::invocable<anthropic_writer&, const Event&>
    void operator()(const Event& e)
    {
        sse(e);
        builder(e);
    }
    void done()
    {
        sse.done();
        builder.done();
    }
};

inline segment_event event_of(segment_event_type type, std::string_view id, segment_type kind,
                              const boost::json::object* metadata = nullptr, std::string_view delta = {})
{
    segment_event e;
    e.type = type;
    e.segment_id = id;
    e.segment_kind = kind;
    e.metadata = metadata;
    e.delta = delta;
    return e;
}

/// Feeds a segment's START, its content (text or reasoning) or fragments (tools), and its END.
template<class Sink>
void whole_segment(Sink& s, std::string_view id, segment_type kind, std::initializer_list<std::string_view> pieces,
                   const boost::json::object* metadata = nullptr, segment_status status = segment_status::complete,
                   std::string_view error = {})
{
    s(event_of(segment_event_type::SEGMENT_START, id, kind, metadata));
    for (auto piece : pieces) {
        if (is_tool_segment(kind))
            s(argument_fragment{id, kind, piece, 0});
        else
            s(event_of(segment_event_type::SEGMENT_CONTENT, id, kind, nullptr, piece));
    }
    auto end = event_of(segment_event_type::SEGMENT_END, id, kind, metadata);
    end.status = status;
    end.error = error;
    s(end);
}

} // namespace toolstream::test
