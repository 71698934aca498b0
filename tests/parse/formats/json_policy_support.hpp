// Shared by the json_calls policy tests (test_json_policy.cpp, test_json_policy_streaming.cpp): an
// object from its JSON text, and the kinds of the segments a run started.
#pragma once

#include <toolstream/segment_event.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value_from.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace toolstream::test::json_policy_support {

inline boost::json::object obj(std::string_view s)
{
    return boost::json::parse(s).as_object();
}

// Segment kinds of coalesced events, START events only: a compact shape check.
inline std::string starts(const std::vector<toolstream::owned_segment_event>& events)
{
    std::string s;
    for (const auto& e : events)
        if (e.type == toolstream::segment_event_type::SEGMENT_START)
            s += std::string(boost::json::value_from(e.segment_kind).as_string()) + " ";
    return s;
}

} // namespace toolstream::test::json_policy_support
