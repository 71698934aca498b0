// The viewer feed (writers/viewer_feed.hpp): exact lines, every recorded stream at several
// chunkings rebuilt from the feed alone, UTF-8 held whole or repaired, bounded previews.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/runtime/runtime_pipeline.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/writers/viewer_feed.hpp>

#include "catch_compat.hpp"
#include "support/fixtures.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <map>
#include <string>
#include <vector>

namespace test_viewer_feed {

using namespace toolstream;

namespace {

struct feed_lines {
    std::vector<std::string>* lines;
    void operator()(std::string_view line) const { lines->emplace_back(line); }
};
using feed = viewer_feed_sink<feed_lines>;

static_assert(event_sink<feed>);
static_assert(std::invocable<feed&, const argument_fragment&>);
static_assert(std::invocable<feed&, const choice_finished&>);
static_assert(std::invocable<feed&, const usage_reported&>);
static_assert(std::invocable<feed&, const provider_failed&>);

// What a page rebuilds from the feed alone, per segment id.
struct shown_segment {
    std::string kind, name, body, json, status = "streaming";
    boost::json::value preview, arguments;
    std::size_t bytes = 0;
};

std::map<std::string, shown_segment> rebuild(const std::vector<std::string>& lines)
{
    std::map<std::string, shown_segment> shown;
    for (const auto& line : lines) {
        INFO(line);
        boost::system::error_code ec;
        const auto v = boost::json::parse(line, ec);   // rejects invalid UTF-8
        REQUIRE(!ec);
        const auto& o = v.as_object();
        const auto type = o.at("type").as_string();
        if (type == "start") {
            auto& s = shown[std::string(o.at("id").as_string())];
            REQUIRE(s.kind.empty());   // one START per id
            s.kind = o.at("kind").as_string();
            if (o.contains("name"))
                s.name = o.at("name").as_string();
        } else if (type == "delta") {
            auto& s = shown.at(std::string(o.at("id").as_string()));
            REQUIRE(s.status == "streaming");
            s.body += o.at("text").as_string();
        } else if (type == "args") {
            auto& s = shown.at(std::string(o.at("id").as_string()));
            s.json += o.at("json").as_string();
            if (o.contains("preview"))
                s.preview = o.at("preview");
        } else if (type == "end") {
            auto& s = shown.at(std::string(o.at("id").as_string()));
            REQUIRE(s.status == "streaming");
            s.status = o.at("status").as_string();
            if (o.contains("name"))
                s.name = o.at("name").as_string();
            s.bytes = static_cast<std::size_t>(o.at("bytes").to_number<std::uint64_t>());
            if (o.contains("arguments"))
                s.arguments = o.at("arguments");
        }
    }
    return shown;
}

} // namespace

TEST_CASE("viewer feed: exact lines of a response", "[viewer]")
{
    std::vector<std::string> lines;
    feed sink{feed_lines{&lines}};
    sink(response_started{"chatcmpl-1", "m"});
    segment_event text;
    text.segment_id = "seg_1";
    sink(text);
    text.type = segment_event_type::SEGMENT_CONTENT;
    text.delta = "Hi \"you\"";
    sink(text);
    text.type = segment_event_type::SEGMENT_END;
    sink(text);
    boost::json::object meta{{"tool_name", "get_weather"}};
    segment_event start;
    start.segment_id = "call_1";
    start.segment_kind = segment_type::tool_call;
    start.metadata = &meta;
    sink(start);
    sink(argument_fragment{"call_1", segment_type::tool_call, "{\"city\":\"Z\xC3"});
    sink(argument_fragment{"call_1", segment_type::tool_call, "\xBCrich\"}"});
    const boost::json::object args{{"city", "Z\xC3\xBCrich"}};
    segment_event end = start;
    end.type = segment_event_type::SEGMENT_END;
    end.arguments = &args;
    sink(end);
    sink(choice_finished{0, "tool_calls", finish_kind::tool_calls});
    sink(usage_reported{{12, 34}});
    sink(provider_failed{"overloaded"});
    const std::vector<std::string> expected{
        R"({"type":"response","id":"chatcmpl-1","model":"m"})",
        R"({"type":"start","id":"seg_1","kind":"text","choice":0})",
        R"({"type":"delta","id":"seg_1","kind":"text","text":"Hi \"you\""})",
        R"({"type":"end","id":"seg_1","kind":"text","status":"complete","bytes":8})",
        R"({"type":"start","id":"call_1","kind":"tool_call","choice":0,"name":"get_weather","metadata":{"tool_name":"get_weather"}})",
        R"({"type":"args","id":"call_1","json":"{\"city\":\"Z","preview":{"city":"Z"}})",
        "{\"type\":\"args\",\"id\":\"call_1\",\"json\":\"\xC3\xBCrich\\\"}\",\"preview\":{\"city\":\"Z\xC3\xBCrich\"}}",
        "{\"type\":\"end\",\"id\":\"call_1\",\"kind\":\"tool_call\",\"name\":\"get_weather\",\"status\":\"complete\",\"bytes\":0,\"arguments\":{\"city\":\"Z\xC3\xBCrich\"}}",
        R"({"type":"finish","choice":0,"reason":"tool_calls","kind":"tool_calls"})",
        R"({"type":"usage","input_tokens":12,"output_tokens":34})",
        R"({"type":"error","message":"overloaded"})",
    };
    CHECK(lines == expected);

    SECTION("an incomplete call says why; a stream name tags every line")
    {
        lines.clear();
        feed tagged{feed_lines{&lines}, {.stream = "7"}};
        tagged(start);
        segment_event cut = start;
        cut.type = segment_event_type::SEGMENT_END;
        cut.status = segment_status::incomplete;
        cut.error = "stream ended";
        tagged(cut);
        REQUIRE(lines.size() == 2);
        CHECK(lines[1] == R"({"type":"end","stream":"7","id":"call_1","kind":"tool_call","name":"get_weather","status":"incomplete","error":"stream ended","bytes":0})");
    }
}

TEST_CASE("viewer feed: done ends the stream, once, with the first error", "[viewer]")
{
    std::vector<std::string> lines;
    feed sink{feed_lines{&lines}};
    sink.done();
    sink.done();
    CHECK(lines == std::vector<std::string>{R"({"type":"done"})"});

    lines.clear();
    feed failed{feed_lines{&lines}, {.stream = "3"}};
    failed(provider_failed{"the client disconnected"});
    failed(provider_failed{"later"});
    failed.done();
    failed.done();
    REQUIRE(lines.size() == 3);
    CHECK(lines[2] == R"({"type":"done","stream":"3","error":"the client disconnected"})");
}

TEST_CASE("viewer feed: a call cut behind its last preview ends with a preview of all its text", "[viewer]")
{
    std::vector<std::string> lines;
    feed sink{feed_lines{&lines}, {.stream = {}, .preview_every_fragment_below = 0}};
    segment_event start;
    start.segment_id = "call_1";
    start.segment_kind = segment_type::tool_call;
    sink(start);
    sink(argument_fragment{"call_1", segment_type::tool_call, R"({"path":"a.py","note":"abcdef)"});
    sink(argument_fragment{"call_1", segment_type::tool_call, "gh"});   // too small for a preview
    segment_event cut = start;
    cut.type = segment_event_type::SEGMENT_END;
    cut.status = segment_status::incomplete;
    cut.error = "stream ended";
    sink(cut);
    const std::vector<std::string> expected{
        R"({"type":"start","id":"call_1","kind":"tool_call","choice":0,"name":""})",
        R"({"type":"args","id":"call_1","json":"{\"path\":\"a.py\",\"note\":\"abcdef","preview":{"path":"a.py","note":"abcdef"}})",
        R"({"type":"args","id":"call_1","json":"gh"})",
        R"({"type":"args","id":"call_1","json":"","preview":{"path":"a.py","note":"abcdefgh"}})",
        R"({"type":"end","id":"call_1","kind":"tool_call","name":"","status":"incomplete","error":"stream ended","bytes":0})",
    };
    CHECK(lines == expected);

    SECTION("a complete call ends with its arguments, no extra preview")
    {
        lines.clear();
        feed whole{feed_lines{&lines}, {.stream = {}, .preview_every_fragment_below = 0}};
        whole(start);
        whole(argument_fragment{"call_1", segment_type::tool_call, R"({"path":"a.py","note":"abcdef)"});
        whole(argument_fragment{"call_1", segment_type::tool_call, "\"}"});
        const boost::json::object args{{"path", "a.py"}, {"note", "abcdef"}};
        segment_event end = start;
        end.type = segment_event_type::SEGMENT_END;
        end.arguments = &args;
        whole(end);
        REQUIRE(lines.size() == 4);
        CHECK(lines[2] == R"({"type":"args","id":"call_1","json":"\"}"})");
        CHECK(lines[3].starts_with(R"({"type":"end","id":"call_1","kind":"tool_call","name":"","status":"complete")"));
    }
}

TEST_CASE("viewer feed: a file body at every split position, split and invalid UTF-8", "[viewer]")
{
    const std::string body = "print('h\xC3\xA9llo \xF0\x9F\x98\x80')\n# \xFF end\n";
    const std::string input = "Writing. <write_file path=\"a.py\">" + body + "</write_file> Done.";
    for (std::size_t split = 0; split <= input.size(); ++split) {
        INFO("split " << split);
        std::vector<std::string> lines;
        handler<xml, feed> h(feed{feed_lines{&lines}});
        (void)h.feed(std::string_view(input).substr(0, split));
        (void)h.feed(std::string_view(input).substr(split));
        (void)h.finalize();
        const auto shown = rebuild(lines);
        std::string text;
        const shown_segment* file = nullptr;
        for (const auto& [id, s] : shown) {
            if (s.kind == "text")
                text += s.body;
            if (s.kind == "write_file")
                file = &s;
        }
        REQUIRE(file != nullptr);
        // The \xFF byte shows as U+FFFD; every other character arrives whole.
        std::string repaired = body;
        repaired.replace(repaired.find('\xFF'), 1, "\xEF\xBF\xBD");
        CHECK(file->body == repaired);
        CHECK(file->bytes == body.size());
        CHECK(file->status == "complete");
        CHECK(file->name == "write_file");
        CHECK(file->arguments == boost::json::value{{"path", "a.py"}});   // the body is in the deltas
        CHECK(text == "Writing.  Done.");
    }
}

TEST_CASE("viewer feed: every recorded stream, rebuilt from the feed at several chunkings", "[viewer]")
{
    const auto fixtures = test::load_fixtures();
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set or holds no fixtures: skipped");
        return;
    }
    for (const auto& f : fixtures) {
        const std::string bytes = test::read_file(f.stream_path);
        for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, bytes.size() + 1}) {
            INFO(f.name << " in " << chunk << "-byte pieces");
            std::vector<std::string> lines;
            using sink = tee_sink<recording_sink, feed>;
            auto made = runtime_pipeline<sink>::create(test::provider_of(f), "api_tool_call",
                                                       sink{recording_sink{}, feed{feed_lines{&lines}}});
            REQUIRE(made);
            auto& p = **made;
            for (std::size_t at = 0; at < bytes.size(); at += chunk)
                (void)p.write(std::string_view(bytes).substr(at, chunk));
            (void)p.finish();
            const auto shown = rebuild(lines);
            const auto& recorded = p.sink().first();
            std::map<std::string, std::string> bodies;
            for (const auto& e : recorded.events)
                if (e.type == segment_event_type::SEGMENT_CONTENT && e.segment_kind != segment_type::tool_call)
                    bodies[e.segment_id] += e.delta;
            for (const auto& [id, body] : bodies)
                CHECK(shown.at(id).body == body);
            for (const auto& inv : recorded.invocations) {
                const auto& s = shown.at(inv.id);
                CHECK(s.status == std::string(boost::describe::enum_to_string(inv.status, "")));
                CHECK(s.name == inv.name);
                if (s.kind == "tool_call") {
                    CHECK(s.json == inv.arguments_raw);
                    if (inv.is_complete())
                        CHECK(s.arguments == inv.arguments);
                }
            }
            for (const auto& [id, s] : shown)
                if (s.kind == "tool_call")
                    CHECK(s.body.empty());   // its text is in the args lines
            CHECK(shown.size() == [&] {
                std::size_t starts = 0;
                for (const auto& e : recorded.events)
                    starts += e.type == segment_event_type::SEGMENT_START;
                return starts;
            }());
        }
    }
}

TEST_CASE("viewer feed: previews of a large call cost amortised O(1) per byte", "[viewer]")
{
    std::vector<std::string> lines;
    feed sink{feed_lines{&lines}};
    segment_event start;
    start.segment_id = "call_1";
    start.segment_kind = segment_type::tool_call;
    sink(start);
    const std::string value(200'000, 'x');
    const std::string json = "{\"notes\":\"" + value + "\"}";
    std::size_t previews = 0;
    std::size_t preview_bytes = 0;
    std::string last_preview;
    for (std::size_t at = 0; at < json.size(); at += 16) {
        const auto before = lines.size();
        sink(argument_fragment{"call_1", segment_type::tool_call, std::string_view(json).substr(at, 16)});
        REQUIRE(lines.size() == before + 1);
        const auto o = boost::json::parse(lines.back()).as_object();
        if (o.contains("preview")) {
            ++previews;
            preview_bytes += boost::json::serialize(o.at("preview")).size();
            if (const auto* notes = o.at("preview").as_object().if_contains("notes"))
                last_preview = notes->as_string();
        }
        if (at < 200)
            CHECK(o.contains("preview"));   // small previews come with every fragment
    }
    CHECK(preview_bytes < 4 * json.size());
    CHECK(previews > 20);   // geometric: about log1.5 of the size, past the small ones
    CHECK(last_preview.size() > value.size() / 2);   // the last one is not far behind
}

} // namespace test_viewer_feed
