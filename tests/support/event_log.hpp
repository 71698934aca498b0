// Test support: a sink that takes every kind of event, keeps it in order, and checks the
// argument contract of every tool segment as its END arrives.
#pragma once

#include <toolstream/detail/parse_json.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/stream_events.hpp>
#include <toolstream/tool_invocation.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <map>
#include <string>
#include <vector>

namespace toolstream::test {

/// Records one line per event (kind and payload) and, per tool segment, the joined argument
/// fragments. At each tool segment's END it checks the contract: the joined fragments are the
/// END's `arguments_text`, and for a complete segment they parse (blank stands for `{}`) to a
/// value equal to END's `arguments`. Violations go to `violations`, so tests can REQUIRE none.
struct event_log {
    std::vector<std::string> lines;
    std::map<std::string, std::string> fragments;   // segment id -> joined fragments
    std::vector<tool_invocation> invocations;
    std::vector<std::string> violations;
    std::string markup;

    void operator()(const segment_event& e)
    {
        lines.push_back(to_json_string(e));
        if (e.type != segment_event_type::SEGMENT_END || !is_tool_segment(e.segment_kind))
            return;
        const std::string& joined = fragments[std::string(e.segment_id)];
        if (joined != e.arguments_text)
            violations.push_back(std::string(e.segment_id) + ": fragments " + joined + " but END text "
                                 + std::string(e.arguments_text));
        if (e.status != segment_status::complete) {
            if (e.arguments != nullptr)
                violations.push_back(std::string(e.segment_id) + ": arguments on an END that is not complete");
            return;
        }
        if (e.arguments == nullptr) {
            violations.push_back(std::string(e.segment_id) + ": complete END without arguments");
            return;
        }
        boost::json::parse_options options;
        options.allow_invalid_utf8 = true;
        boost::system::error_code ec;
        const bool blank = joined.find_first_not_of(" \t\r\n") == std::string::npos;
        const auto parsed = blank ? boost::json::value(boost::json::object()) : detail::parse_json(joined, ec, options);
        if (ec || parsed != boost::json::value(*e.arguments))
            violations.push_back(std::string(e.segment_id) + ": fragments " + joined + " do not parse to "
                                 + boost::json::serialize(*e.arguments));
    }
    void operator()(const tool_invocation& i) { invocations.push_back(i); }
    void operator()(const argument_fragment& f)
    {
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
