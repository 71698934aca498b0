#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/tool_syntax.hpp>
#include <toolstream/types.hpp>

#include "catch_compat.hpp"

#include <boost/json.hpp>

#include <utility>

namespace test_events {

using namespace toolstream;

TEST_CASE("event JSON matches the reference serialization", "[events]")
{
    const boost::json::object meta{{"path", "/tmp/test.py"}};
    segment_event start;
    start.type = segment_event_type::SEGMENT_START;
    start.segment_id = "seg_001";
    start.segment_kind = segment_type::write_file;
    start.metadata = &meta;
    CHECK(to_json_string(start)
          == R"({"type":"SEGMENT_START","segment_id":"seg_001","segment_type":"write_file","payload":{"metadata":{"path":"/tmp/test.py"}}})");

    segment_event content;
    content.type = segment_event_type::SEGMENT_CONTENT;
    content.segment_id = "seg_001";
    content.segment_kind = segment_type::write_file;
    content.delta = "code here";
    CHECK(to_json_string(content) == R"({"type":"SEGMENT_CONTENT","segment_id":"seg_001","payload":{"delta":"code here"}})");

    segment_event end;
    end.type = segment_event_type::SEGMENT_END;
    end.segment_id = "seg_001";
    CHECK(to_json_string(end) == R"({"type":"SEGMENT_END","segment_id":"seg_001","payload":{}})");
    end.metadata = &meta;
    CHECK(to_json_string(end) == R"({"type":"SEGMENT_END","segment_id":"seg_001","payload":{"metadata":{"path":"/tmp/test.py"}}})");

    end.status = segment_status::incomplete;
    end.error = "stream ended before the tool call was complete";
    CHECK(to_json_string(end)
          == R"({"type":"SEGMENT_END","segment_id":"seg_001","payload":{"metadata":{"path":"/tmp/test.py"},"status":"incomplete","error":"stream ended before the tool call was complete"}})");
}

TEST_CASE("owned events keep everything but the END arguments and serialize alike", "[events]")
{
    const boost::json::object meta{{"tool_name", "x"}};
    segment_event e;
    e.type = segment_event_type::SEGMENT_END;
    e.segment_id = "call_1";
    e.segment_kind = segment_type::tool_call;
    e.metadata = &meta;
    const boost::json::object args{{"a", 1}};
    e.arguments = &args;
    e.arguments_text = R"({"a":1})";
    const owned_segment_event owned(e);
    CHECK(owned.segment_id == "call_1");
    CHECK(owned.metadata == meta);
    CHECK(boost::json::value_from(owned) == boost::json::value(to_json(e)));
    CHECK(owned.arguments_text.empty());   // a complete call's are in its invocation
    // A recorded event serializes as written, without .view().
    CHECK(to_json(owned) == to_json(e));
    CHECK(to_json_string(owned) == to_json_string(e));

    // A call that did not complete reports its arguments as read from their text (the summary's
    // rule): the owned copy keeps the text, so it serializes alike.
    e.arguments = nullptr;
    e.status = segment_status::incomplete;
    for (const auto& [text, reported] : {std::pair{R"({"a":1})", R"({"a":1})"}, std::pair{R"({"a":)", "null"},
                                         std::pair{"", "{}"}}) {
        e.arguments_text = text;
        const owned_segment_event cut(e);
        CHECK(boost::json::value_from(cut) == boost::json::value(to_json(e)));
        CHECK(to_json(e).at("payload").at("arguments") == boost::json::parse(reported));
    }
}

TEST_CASE("a tool segment's name is its tool_name, else its table name, in every output", "[events]")
{
    segment_event e;
    e.segment_kind = segment_type::write_file;
    CHECK(tool_name_of(e) == "write_file");
    const boost::json::object blank{{"tool_name", ""}};   // an empty name names nothing
    e.metadata = &blank;
    CHECK(tool_name_of(e) == "write_file");
    const boost::json::object named{{"tool_name", "save"}};
    e.metadata = &named;
    CHECK(tool_name_of(e) == "save");
    e.segment_kind = segment_type::tool_call;
    CHECK(tool_name_of(e) == "save");
    e.metadata = &blank;
    CHECK(tool_name_of(e).empty());
}

TEST_CASE("core types convert to and from JSON through their descriptions", "[events]")
{
    chunk_response c;
    c.content = "hi";
    c.usage = token_usage{3, 4};
    c.tool_calls.push_back({2, "call_x", "f", "{\"a\":", true});
    const auto v = boost::json::value_from(c);
    CHECK(v.at("content") == "hi");
    CHECK(v.at("usage") == boost::json::parse(R"({"input_tokens":3,"output_tokens":4})"));
    CHECK(v.at("tool_calls").at(0).at("call_id") == "call_x");
    CHECK(boost::json::value_to<chunk_response>(v) == c);

    tool_invocation inv{"seg_1", "run_bash", {{"command", "ls"}}, invocation_status::incomplete, "why", "ls"};
    const auto iv = boost::json::value_from(inv);
    CHECK(iv.at("status") == "incomplete");
    CHECK(iv.at("arguments") == boost::json::parse(R"({"command":"ls"})"));
    CHECK(iv.at("streamed_body_bytes").is_null());
    inv.streamed_body_bytes = 12;
    CHECK(boost::json::value_from(inv).at("streamed_body_bytes") == 12);
    CHECK(boost::json::value_from(segment_type::patch_file) == "patch_file");
    CHECK(boost::json::value_from(segment_event_type::SEGMENT_CONTENT) == "SEGMENT_CONTENT");
}

TEST_CASE("generated segment ids count up per stream and take the per-turn prefix", "[events]")
{
    handler<api_tool_call> plain;
    REQUIRE(!plain.feed("a"));
    REQUIRE(!plain.finalize());
    CHECK(plain.events().front().segment_id == "seg_1");

    handler<api_tool_call> prefixed(recording_sink{}, handler_options{.segment_id_prefix = "turn_ab12:", .choice = 0, .native_limits = {}});
    chunk_response c;
    c.reasoning = "think";
    REQUIRE(!prefixed.feed(c));
    REQUIRE(!prefixed.feed("say"));
    REQUIRE(!prefixed.finalize());
    const auto& ev = prefixed.events();
    REQUIRE(ev.size() == 6);
    CHECK(ev[0].segment_id == "turn_ab12:seg_1");
    CHECK(ev[0].segment_kind == segment_type::reasoning);
    CHECK(ev[3].segment_id == "turn_ab12:seg_2");
    CHECK(ev[3].segment_kind == segment_type::text);
}

} // namespace test_events
