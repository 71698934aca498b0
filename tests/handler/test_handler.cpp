#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>

#include "catch_compat.hpp"

namespace test_handler {

using namespace toolstream;

TEST_CASE("feeding after finalize is an error and a second finalize does nothing", "[handler]")
{
    handler<api_tool_call> h;
    REQUIRE(!h.feed("hello"));
    REQUIRE(!h.finalize());
    CHECK(h.finalized());
    const auto count = h.events().size();
    CHECK(h.feed("more") == error::feed_after_finalize);
    CHECK(h.feed(chunk_response{}) == error::feed_after_finalize);
    CHECK(!h.finalize());
    CHECK(h.events().size() == count);
    CHECK(make_error_code(error::feed_after_finalize).category().name() == std::string("toolstream"));
}

TEST_CASE("api_tool_call: one text segment across feeds, tags stay text", "[handler]")
{
    handler<api_tool_call> h;
    REQUIRE(!h.feed("Hello"));
    REQUIRE(h.events().size() == 2);
    CHECK(h.events()[0].type == segment_event_type::SEGMENT_START);
    CHECK(h.events()[1].delta == "Hello");
    REQUIRE(!h.feed(R"(<tool name="foo"></tool>)"));
    REQUIRE(h.events().size() == 3);
    CHECK(h.events()[2].delta == R"(<tool name="foo"></tool>)");
    REQUIRE(!h.finalize());
    CHECK(h.events().back().type == segment_event_type::SEGMENT_END);
    CHECK(h.invocations().empty());
}

TEST_CASE("empty input makes no events", "[handler]")
{
    handler<api_tool_call> h;
    REQUIRE(!h.feed(""));
    REQUIRE(!h.feed(chunk_response{}));
    REQUIRE(!h.finalize());
    CHECK(h.events().empty());
}

TEST_CASE("reasoning and text alternate as separate segments", "[handler]")
{
    handler<api_tool_call> h;
    chunk_response c;
    c.reasoning = "let me think";
    REQUIRE(!h.feed(c));
    c.reasoning = " more";
    REQUIRE(!h.feed(c));
    c.reasoning.clear();
    c.content = "answer";
    REQUIRE(!h.feed(c));
    REQUIRE(!h.finalize());
    const auto& e = h.events();
    REQUIRE(e.size() == 7);
    CHECK(e[0].segment_kind == segment_type::reasoning);
    CHECK(e[1].delta == "let me think");
    CHECK(e[2].delta == " more");
    CHECK(e[3].type == segment_event_type::SEGMENT_END);
    CHECK(e[4].segment_kind == segment_type::text);
    CHECK(e[6].type == segment_event_type::SEGMENT_END);
}

TEST_CASE("a tool call ends the open text segment; text after it opens a new one", "[handler]")
{
    handler<api_tool_call> h;
    chunk_response c;
    c.content = "before ";
    REQUIRE(!h.feed(c));
    c.content.clear();
    c.tool_calls.push_back({0, "call_1", "f", "{}", true});
    REQUIRE(!h.feed(c));
    c.tool_calls.clear();
    c.content = "after";
    REQUIRE(!h.feed(c));
    REQUIRE(!h.finalize());
    std::vector<std::string> shape;
    for (const auto& e : h.events())
        shape.push_back(std::string(boost::describe::enum_to_string(e.type, "?")) + ":" + e.segment_id);
    CHECK(shape == std::vector<std::string>{"SEGMENT_START:seg_1", "SEGMENT_CONTENT:seg_1", "SEGMENT_END:seg_1",
                                            "SEGMENT_START:call_1", "SEGMENT_CONTENT:call_1", "SEGMENT_END:call_1",
                                            "SEGMENT_START:seg_2", "SEGMENT_CONTENT:seg_2", "SEGMENT_END:seg_2"});
}

TEST_CASE("reset starts a fresh stream with fresh ids", "[handler]")
{
    handler<api_tool_call> h;
    chunk_response c;
    c.tool_calls.push_back({0, "", "f", "{}", false});
    REQUIRE(!h.feed(c));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].status == invocation_status::incomplete);
    h.reset();
    CHECK(!h.finalized());
    CHECK(h.events().empty());
    CHECK(h.invocations().empty());
    c.tool_calls[0].is_complete = true;
    REQUIRE(!h.feed(c));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].id == "seg_1");
    CHECK(h.invocations()[0].is_complete());
}

} // namespace test_handler
