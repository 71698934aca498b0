// The viewer server's fan-out (programs/viewer/feed_hub.hpp): a page that connects gets the
// current state; one that falls behind is resynchronised with a skipped marker, within bounds.
#include "../../programs/viewer/feed_hub.hpp"

#include "catch_compat.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <vector>

namespace test_feed_hub {

using toolstream_viewer::feed_hub;

namespace {

std::vector<std::string> types_of(const std::vector<std::string>& lines)
{
    std::vector<std::string> out;
    for (const auto& l : lines)
        out.emplace_back(boost::json::parse(l).at("type").as_string());
    return out;
}

void publish_call(feed_hub& hub)
{
    hub.publish(R"({"type":"response","id":"r1","model":"m"})");
    hub.publish(R"({"type":"start","id":"seg_1","kind":"text","choice":0})");
    hub.publish(R"({"type":"delta","id":"seg_1","kind":"text","text":"Hel"})");
    hub.publish(R"({"type":"delta","id":"seg_1","kind":"text","text":"lo"})");
    hub.publish(R"({"type":"end","id":"seg_1","kind":"text","status":"complete","bytes":5})");
    hub.publish(R"({"type":"start","id":"call_1","kind":"tool_call","choice":0,"name":"f"})");
    hub.publish(R"({"type":"args","id":"call_1","json":"{\"a\":","preview":{}})");
    hub.publish(R"({"type":"args","id":"call_1","json":"1,","preview":{"a":1}})");
    hub.publish(R"({"type":"start","id":"call_2","kind":"write_file","choice":0,"name":"write_file"})");
    hub.publish(R"({"type":"delta","id":"call_2","kind":"write_file","text":"line 1\n"})");
    hub.publish(R"({"type":"delta","id":"call_2","kind":"write_file","text":"line 2\n"})");
}

} // namespace

TEST_CASE("viewer hub: a page that connects late gets the state, merged", "[viewer]")
{
    feed_hub hub;
    publish_call(hub);
    auto q = hub.subscribe({});
    const auto lines = hub.take(*q);
    const std::vector<std::string> expected{
        R"({"type":"reset"})",
        R"({"type":"response","id":"r1","model":"m"})",
        R"({"type":"start","id":"seg_1","kind":"text","choice":0})",
        R"({"type":"delta","id":"seg_1","kind":"text","text":"Hello"})",
        R"({"type":"end","id":"seg_1","kind":"text","status":"complete","bytes":5})",
        R"({"type":"start","id":"call_1","kind":"tool_call","choice":0,"name":"f"})",
        R"({"type":"args","id":"call_1","json":"{\"a\":1,","preview":{"a":1}})",   // its text so far
        R"({"type":"start","id":"call_2","kind":"write_file","choice":0,"name":"write_file"})",
        R"({"type":"delta","id":"call_2","kind":"write_file","text":"line 1\nline 2\n"})",
    };
    CHECK(lines == expected);
    // Then live lines, one by one; nothing more when there is nothing.
    hub.publish(R"({"type":"delta","id":"call_2","kind":"write_file","text":"line 3\n"})");
    CHECK(hub.take(*q) == std::vector<std::string>{R"({"type":"delta","id":"call_2","kind":"write_file","text":"line 3\n"})"});
    CHECK(hub.take(*q).empty());
    hub.unsubscribe(q);
}

TEST_CASE("viewer hub: a cut call's text and the stream's end are in the snapshot", "[viewer]")
{
    toolstream_viewer::hub_options o;
    o.segment_body_bytes = 12;
    feed_hub hub(o);
    hub.publish(R"({"type":"start","stream":"2","id":"call_1","kind":"tool_call","choice":0,"name":"f"})");
    hub.publish(R"({"type":"args","stream":"2","id":"call_1","json":"{\"a\":\"xy"})");
    hub.publish(R"({"type":"args","stream":"2","id":"call_1","json":"z","preview":{"a":"xyz"}})");
    hub.publish(R"({"type":"args","stream":"2","id":"call_1","json":"0123456789"})");   // past the bound
    hub.publish(R"({"type":"end","stream":"2","id":"call_1","kind":"tool_call","name":"f","status":"incomplete","error":"cut","bytes":0})");
    hub.publish(R"({"type":"error","stream":"2","message":"cut"})");
    hub.publish(R"({"type":"done","stream":"2","error":"cut"})");
    auto q = hub.subscribe({});
    const std::vector<std::string> expected{
        R"({"type":"reset"})",
        R"({"type":"start","stream":"2","id":"call_1","kind":"tool_call","choice":0,"name":"f"})",
        R"({"type":"args","stream":"2","id":"call_1","json":"{\"a\":\"xyz","preview":{"a":"xyz"}})",
        R"({"type":"skipped","stream":"2","id":"call_1","bytes":10})",
        R"({"type":"end","stream":"2","id":"call_1","kind":"tool_call","name":"f","status":"incomplete","error":"cut","bytes":0})",
        R"({"type":"error","stream":"2","message":"cut"})",
        R"({"type":"done","stream":"2","error":"cut"})",
    };
    CHECK(hub.take(*q) == expected);
}

TEST_CASE("viewer hub: a page that falls behind is resynchronised, within its bound", "[viewer]")
{
    toolstream_viewer::hub_options o;
    o.client_queue_bytes = 1000;
    feed_hub hub(o);
    int woken = 0;
    auto q = hub.subscribe([&woken] { ++woken; });
    CHECK(types_of(hub.take(*q)) == std::vector<std::string>{"reset"});
    CHECK(hub.take(*q).empty());   // now it waits
    publish_call(hub);
    CHECK(woken == 1);   // woken once: it was waiting, then busy
    const std::string line = R"({"type":"delta","id":"call_2","kind":"write_file","text":")" + std::string(100, 'x') + R"("})";
    for (int i = 0; i < 20; ++i)
        hub.publish(line);
    CHECK(q->bytes <= o.client_queue_bytes);
    const auto lines = hub.take(*q);
    REQUIRE(lines.size() >= 3);
    CHECK(lines.front() == R"({"type":"reset"})");
    const auto last = boost::json::parse(lines.back()).as_object();
    CHECK(last.at("type").as_string() == "skipped");
    CHECK(last.at("events").to_number<int>() > 0);
    // The state it got has the whole body so far.
    std::string body;
    for (const auto& l : lines) {
        const auto v = boost::json::parse(l).as_object();
        if (v.at("type").as_string() == "delta" && v.at("id").as_string() == "call_2")
            body += v.at("text").as_string();
    }
    CHECK(body == "line 1\nline 2\n" + [&] { std::string s; for (int i = 0; i < 20; ++i) s += std::string(100, 'x'); return s; }());
}

TEST_CASE("viewer hub: the snapshot is bounded, open segments kept", "[viewer]")
{
    toolstream_viewer::hub_options o;
    o.segment_body_bytes = 10;
    o.snapshot_items = 4;
    feed_hub hub(o);
    hub.publish(R"({"type":"start","id":"open","kind":"write_file","choice":0,"name":"write_file"})");
    hub.publish(R"({"type":"delta","id":"open","kind":"write_file","text":"0123456789"})");
    hub.publish(R"({"type":"delta","id":"open","kind":"write_file","text":"abc"})");
    for (int i = 0; i < 10; ++i) {
        const std::string id = "\"s" + std::to_string(i) + "\"";
        hub.publish(R"({"type":"start","id":)" + id + R"(,"kind":"text","choice":0})");
        hub.publish(R"({"type":"end","id":)" + id + R"(,"kind":"text","status":"complete","bytes":0})");
    }
    auto q = hub.subscribe({});
    const auto lines = hub.take(*q);
    CHECK(lines[1] == R"({"type":"start","id":"open","kind":"write_file","choice":0,"name":"write_file"})");
    CHECK(lines[2] == R"({"type":"delta","id":"open","kind":"write_file","text":"0123456789"})");
    CHECK(lines[3] == R"({"type":"skipped","id":"open","bytes":3})");
    // The open segment, and the three most recent closed ones (start and end each).
    CHECK(lines.size() == 4 + 3 * 2);
    CHECK(lines.back() == R"({"type":"end","id":"s9","kind":"text","status":"complete","bytes":0})");
}

} // namespace test_feed_hub
