// Test support for the Agent TARS events: collect the lines, and check them against the calls.
#pragma once

#include <toolstream/sinks.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/writers/tarko_events.hpp>

#include "catch_compat.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <map>
#include <string>
#include <vector>

namespace toolstream::test {

struct tarko_lines {
    std::vector<std::string>* lines;
    void operator()(std::string_view line) const { lines->emplace_back(line); }
};

/// Each tool segment's END `arguments_text` (the core's fragments joined), by segment id.
struct end_arguments {
    std::map<std::string, std::string> text;
    void operator()(const segment_event& e)
    {
        if (e.type == segment_event_type::SEGMENT_END && is_tool_segment(e.segment_kind))
            text[std::string(e.segment_id)] = std::string(e.arguments_text);
    }
};

/// Records invocations and END argument texts beside the Agent TARS events.
using tarko_recording = tee_sink<tee_sink<recording_sink, end_arguments>, tarko_event_sink<tarko_lines>>;

inline tarko_recording make_tarko_recording(std::vector<std::string>& lines, tarko_events_options options = {})
{
    return tarko_recording{{recording_sink{}, end_arguments{}}, tarko_event_sink<tarko_lines>{{&lines}, options}};
}

/// One call's events, in order.
struct tarko_call {
    std::string name;        // the last name reported
    std::string arguments;   // the non-complete events' arguments, joined
    std::size_t completes = 0;
    bool complete_last = true;
    std::size_t events = 0;
};

/// Parses the lines (every one must have exactly the design's fields) and groups them by call.
inline std::map<std::string, tarko_call> group_by_call(const std::vector<std::string>& lines,
                                                        std::string_view message_id)
{
    std::map<std::string, tarko_call> calls;
    for (const auto& line : lines) {
        const auto v = boost::json::parse(line).as_object();
        INFO(line);
        REQUIRE(v.size() == 6);
        REQUIRE(v.at("type").as_string() == "assistant_streaming_tool_call");
        CHECK(v.at("messageId").as_string() == message_id);
        auto& c = calls[std::string(v.at("toolCallId").as_string())];
        const std::string name(v.at("toolName").as_string());
        if (!name.empty())
            c.name = name;
        if (c.completes != 0)
            c.complete_last = false;   // an event after the completion
        ++c.events;
        if (v.at("isComplete").as_bool()) {
            ++c.completes;
            CHECK(v.at("arguments").as_string().empty());
        } else {
            c.arguments += v.at("arguments").as_string();
        }
    }
    return calls;
}

/// The events agree with the invocations: per call the arguments join to its raw argument
/// text; exactly one completion, last, for a complete call and none otherwise; the name.
inline void check_against_invocations(const std::map<std::string, tarko_call>& calls,
                                      const std::vector<tool_invocation>& invocations,
                                      const end_arguments& ends)
{
    CHECK(calls.size() == invocations.size());
    for (const auto& inv : invocations) {
        INFO("call " << inv.id << " " << inv.name << " " << inv.arguments_raw);
        const auto it = calls.find(inv.id);
        REQUIRE(it != calls.end());
        REQUIRE(ends.text.count(inv.id) == 1);
        CHECK(it->second.arguments == ends.text.at(inv.id));
        CHECK(it->second.completes == (inv.is_complete() ? 1u : 0u));
        CHECK(it->second.complete_last);
        if (inv.is_complete())
            CHECK(it->second.name == inv.name);
    }
}

/// The lines without their messageId (generated ids differ between runs).
inline std::vector<std::string> without_message_id(const std::vector<std::string>& lines)
{
    std::vector<std::string> out;
    for (const auto& line : lines) {
        auto v = boost::json::parse(line).as_object();
        v.erase("messageId");
        out.push_back(boost::json::serialize(v));
    }
    return out;
}

} // namespace toolstream::test
