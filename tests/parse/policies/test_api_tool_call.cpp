#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"

#include <boost/json/parse.hpp>

namespace test_api_tool_call {

using namespace toolstream;
using toolstream::test::coalesce;
using toolstream::test::dump;

namespace {

tool_call_delta call(std::size_t index, std::string id, std::string name, std::string args, bool complete = false)
{
    return {index, std::move(id), std::move(name), std::move(args), complete};
}

chunk_response with_calls(std::vector<tool_call_delta> calls)
{
    chunk_response c;
    c.tool_calls = std::move(calls);
    return c;
}

struct run_result {
    std::vector<owned_segment_event> events;
    std::vector<tool_invocation> invocations;
};

// Feeds one call whose argument text is cut into `pieces`, then completes it.
run_result run_call(std::string name, const std::vector<std::string_view>& pieces, bool complete = true)
{
    handler<api_tool_call> h;
    bool first = true;
    for (auto piece : pieces) {
        REQUIRE(!h.feed(with_calls({call(0, first ? "call_1" : "", first ? name : "", std::string(piece))})));
        first = false;
    }
    if (complete)
        REQUIRE(!h.feed(with_calls({call(0, "", "", "", true)})));
    REQUIRE(!h.finalize());
    return {coalesce(h.events()), h.invocations()};
}

} // namespace

TEST_CASE("api_tool_call: write_file streams decoded content after a START carrying the path", "[api]")
{
    handler<api_tool_call> h;
    REQUIRE(!h.feed(with_calls({call(0, "call_123", "write_file", R"({"path":"test.txt","content":"h)")})));
    REQUIRE(h.events().size() == 2);
    CHECK(to_json_string(h.events()[0].view())
          == R"({"type":"SEGMENT_START","segment_id":"call_123","segment_type":"write_file","payload":{"metadata":{"tool_name":"write_file","path":"test.txt"}}})");
    CHECK(h.events()[1].delta == "h");
    REQUIRE(!h.feed(with_calls({call(0, "", "", R"(i"})", true)})));
    REQUIRE(h.events().size() == 4);
    CHECK(h.events()[2].delta == "i");
    CHECK(to_json_string(h.events()[3].view())
          == R"({"type":"SEGMENT_END","segment_id":"call_123","payload":{"metadata":{"tool_name":"write_file","path":"test.txt"}}})");
    REQUIRE(h.invocations().size() == 1);
    const auto& inv = h.invocations()[0];
    CHECK(inv.id == "call_123");
    CHECK(inv.name == "write_file");
    CHECK(inv.status == invocation_status::complete);
    CHECK(inv.arguments == boost::json::parse(R"({"path":"test.txt","content":"hi"})").as_object());
    CHECK(inv.arguments_raw == R"({"path":"test.txt","content":"hi"})");
}

TEST_CASE("api_tool_call: content before path is held until START", "[api]")
{
    handler<api_tool_call> h;
    REQUIRE(!h.feed(with_calls({call(0, "call_9", "write_file", R"({"content":"Hello)")})));
    CHECK(h.events().empty());
    REQUIRE(!h.feed(with_calls({call(0, "", "", R"( world","path":"deferred.txt"})", true)})));
    const auto events = coalesce(h.events());
    REQUIRE(events.size() == 3);
    CHECK(events[0].type == segment_event_type::SEGMENT_START);
    CHECK(events[0].metadata.at("path") == "deferred.txt");
    CHECK(events[1].delta == "Hello world");
    CHECK(h.invocations().at(0).arguments.at("content") == "Hello world");
}

TEST_CASE("api_tool_call: patch_file streams the decoded patch", "[api]")
{
    auto r = run_call("patch_file", {R"({"path":"a.txt","patch":"@@ -1 +1 @@)", R"(\n-foo"})"});
    CHECK(test::content_of_type(r.events, segment_type::patch_file) == "@@ -1 +1 @@\n-foo");
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].arguments == boost::json::parse(R"({"path":"a.txt","patch":"@@ -1 +1 @@\n-foo"})").as_object());
}

TEST_CASE("api_tool_call: escaped backslash before n stays a literal backslash-n", "[api]")
{
    auto r = run_call("write_file", {R"({"path":"p","content":"hi\\)", R"(nthere"})"});
    CHECK(r.invocations.at(0).arguments.at("content") == "hi\\nthere");
}

TEST_CASE("api_tool_call: every JSON escape decodes, including split surrogate pairs", "[api]")
{
    const std::string args = R"({"path":"e.txt","content":"q\" b\\ s\/ \b\f\n\r\t A\u00e9B \ud83d\ude00 end"})";
    const std::string expected = "q\" b\\ s/ \b\f\n\r\t A\xc3\xa9" "B \xf0\x9f\x98\x80 end";
    for (const auto& pieces : test::chunkings(args)) {
        auto r = run_call("write_file", pieces);
        REQUIRE(r.invocations.size() == 1);
        REQUIRE(r.invocations[0].status == invocation_status::complete);
        REQUIRE(test::content_of_type(r.events, segment_type::write_file) == expected);
    }
}

TEST_CASE("api_tool_call: a file call's arguments are its text parsed whole, at every split", "[api]")
{
    // END decodes the body apart from the rest (segment_emitter::locate_body): keys in any order,
    // other keys before and after it, every escape, an empty body, blanks around the members.
    const std::string cases[] = {
        R"({"path":"e.txt","content":"q\" b\\ s\/ \b\f\n\r\t A\u00e9B \ud83d\ude00 end"})",
        R"({"content":"body first \u0041","mode":[1,{"x":null}],"path":"late.txt"})",
        R"( { "path" : "s.txt" , "content" : "" , "n" : -1.5e3 } )",
        R"({"a":"\u00e9","path":"p","content":"caf\u00e9 \"x\"\n","z":true})",
    };
    for (const auto& args : cases) {
        const auto whole = boost::json::parse(args).as_object();
        for (const auto& pieces : test::chunkings(args, 4)) {
            auto r = run_call("write_file", pieces);
            INFO(args << " in " << pieces.size() << " pieces");
            REQUIRE(r.invocations.size() == 1);
            REQUIRE(r.invocations[0].status == invocation_status::complete);
            REQUIRE(r.invocations[0].arguments == whole);
        }
    }
}

TEST_CASE("api_tool_call: generic tools stream raw fragments and END carries arguments", "[api]")
{
    handler<api_tool_call> h;
    REQUIRE(!h.feed(with_calls({call(0, "call_w", "get_weather", R"({"city":)")})));
    REQUIRE(!h.feed(with_calls({call(0, "", "", R"("Paris"})")})));
    REQUIRE(!h.feed(with_calls({call(0, "", "", "", true)})));
    const auto events = coalesce(h.events());
    REQUIRE(events.size() == 3);
    CHECK(events[0].segment_kind == segment_type::tool_call);
    CHECK(events[0].metadata == boost::json::object{{"tool_name", "get_weather"}});
    CHECK(events[1].delta == R"({"city":"Paris"})");
    CHECK(to_json_string(events[2].view())
          == R"({"type":"SEGMENT_END","segment_id":"call_w","payload":{"metadata":{"tool_name":"get_weather","arguments":{"city":"Paris"}}}})");
    CHECK(h.invocations().at(0).arguments == boost::json::object{{"city", "Paris"}});
}

TEST_CASE("api_tool_call: parallel calls interleave by index", "[api]")
{
    handler<api_tool_call> h;
    REQUIRE(!h.feed(with_calls({call(0, "c0", "write_file", R"({"path":"test.py",)"),
                                call(1, "c1", "run_bash", R"({"command":)")})));
    REQUIRE(!h.feed(with_calls({call(1, "", "", R"("python test.py"})"), call(0, "", "", R"("content":""})")})));
    REQUIRE(!h.feed(with_calls({call(0, "", "", "", true), call(1, "", "", "", true)})));
    REQUIRE(h.invocations().size() == 2);
    CHECK(h.invocations()[0].id == "c0");
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"test.py","content":""})").as_object());
    CHECK(h.invocations()[1].id == "c1");
    CHECK(h.invocations()[1].arguments == boost::json::object{{"command", "python test.py"}});
}

} // namespace test_api_tool_call
