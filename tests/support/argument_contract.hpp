// Test support: the argument-fragment contract, checked as events arrive. For every tool segment:
// its argument fragments come between its START and its END; END's `arguments_text` is their
// concatenation; a complete END carries `arguments`, equal to that concatenation parsed.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/parse_json.hpp>
#include <toolstream/error.hpp>
#include <toolstream/segment_event.hpp>

#include <boost/json/parse_options.hpp>
#include <boost/json/serialize.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace toolstream::test {

/// A sink part: feed it every segment event and argument fragment; read `failures` afterwards
/// (a sink does not throw through the library).
struct argument_contract_checker {
    std::map<std::string, std::string, std::less<>> open;   // tool segment id → fragments so far
    std::vector<std::string> failures;
    std::size_t ended = 0;   // tool segments checked at their END

    void operator()(const segment_event& e)
    {
        if (!is_tool_segment(e.segment_kind))
            return;
        const std::string id(e.segment_id);
        if (e.type == segment_event_type::SEGMENT_START) {
            open[id].clear();
            return;
        }
        if (e.type != segment_event_type::SEGMENT_END)
            return;
        const auto it = open.find(id);
        if (it == open.end()) {
            failures.push_back("END of tool segment " + id + " that did not START");
            return;
        }
        check_end(e, it->second);
        open.erase(it);
        ++ended;
    }

    void operator()(const argument_fragment& f)
    {
        const auto it = open.find(f.segment_id);
        if (it == open.end())
            failures.push_back("argument fragment of " + std::string(f.segment_id) + " outside START..END");
        else if (f.json.empty())
            failures.push_back("an empty argument fragment of " + std::string(f.segment_id));
        else
            it->second += f.json;
    }

private:
    void check_end(const segment_event& e, const std::string& joined)
    {
        const std::string id(e.segment_id);
        if (e.arguments_text != joined)
            failures.push_back("END of " + id + ": arguments_text " + std::string(e.arguments_text)
                               + " is not the fragments joined: " + joined);
        if (e.status != segment_status::complete) {
            if (e.arguments != nullptr)
                failures.push_back("END of " + id + " is not complete but carries arguments");
            return;
        }
        if (e.arguments == nullptr) {
            failures.push_back("complete END of " + id + " without arguments");
            return;
        }
        if (is_free_form(e)) {   // free-form input (Responses custom tools): raw text, arguments {}
            if (!e.arguments->empty())
                failures.push_back("free-form END of " + id + " carries parsed arguments");
            return;
        }
        boost::json::parse_options options;
        options.max_depth = 1024;
        options.allow_invalid_utf8 = true;
        error_code ec;
        // No fragments, or only blanks, stand for {} (a native call's "arguments":"").
        const bool blank = detail::all_blank(joined);
        const auto parsed = blank ? boost::json::value(boost::json::object()) : detail::parse_json(joined, ec, options);
        if (ec || !parsed.is_object() || parsed.get_object() != *e.arguments)
            failures.push_back("END of " + id + ": the fragments " + joined + " do not parse to its arguments "
                               + boost::json::serialize(*e.arguments));
    }
};

} // namespace toolstream::test
