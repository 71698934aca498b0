// Test support: a sink that takes every kind of event, keeps it in order, and checks the
// argument contract of every tool segment (argument_contract.hpp) as events arrive.
#pragma once

#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>

#include "support/argument_contract.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <map>
#include <string>
#include <vector>

namespace toolstream::test {

/// Records one line per event (kind and payload) and, per segment, the joined argument
/// fragments; checks the argument contract (argument_contract_checker) as events come, so tests
/// can REQUIRE `violations()` empty.
struct event_log {
    std::vector<std::string> lines;
    std::map<std::string, std::string> fragments;   // segment id -> joined fragments
    std::vector<tool_invocation> invocations;
    argument_contract_checker contract;
    std::string markup;

    const std::vector<std::string>& violations() const noexcept { return contract.failures; }

    void operator()(const segment_event& e)
    {
        lines.push_back(to_json_string(e));
        contract(e);
        if (e.type == segment_event_type::SEGMENT_START && is_tool_segment(e.segment_kind))
            fragments.try_emplace(std::string(e.segment_id));   // a call without fragments has ""
    }
    void operator()(const tool_invocation& i) { invocations.push_back(i); }
    void operator()(const argument_fragment& f)
    {
        contract(f);
        fragments[std::string(f.segment_id)] += f.json;
        lines.push_back("FRAGMENT " + std::string(f.segment_id) + " " + std::string(f.json));
    }
    void operator()(const consumed_markup& m) { markup += m.bytes; }
    void operator()(const response_started& r)
    {
        lines.push_back("RESPONSE " + std::string(r.id) + " " + std::string(r.model));
    }
    void operator()(const choice_finished& c)
    {
        lines.push_back("FINISH " + std::to_string(c.choice) + " " + std::string(c.reason) + " "
                        + boost::json::serialize(boost::json::value_from(c.kind)));
    }
    void operator()(const usage_reported& u)
    {
        lines.push_back("USAGE " + std::to_string(u.usage.input_tokens) + " " + std::to_string(u.usage.output_tokens));
    }
    void operator()(const provider_failed& p) { lines.push_back("FAILED " + std::string(p.message)); }
};

} // namespace toolstream::test
