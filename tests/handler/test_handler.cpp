#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>

#include "catch_compat.hpp"

#include <cstddef>
#include <string>
#include <utility>

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

// A chunk passed by rvalue lets the handler take a large file call's text instead of copying it
// (so a whole call in one event is not held twice). Nothing else may change: the events and the
// invocation are those of the same chunk passed by reference.
TEST_CASE("a chunk passed by rvalue gives up a large file call's text, and changes nothing else", "[handler]")
{
    const auto chunk_of = [](std::size_t body_bytes) {
        std::string body;
        for (std::size_t i = 0; body.size() < body_bytes; ++i)
            body += "line " + std::to_string(i) + " \"quoted\"\n";
        chunk_response chunk;
        auto& d = chunk.tool_calls.emplace_back();
        d.index = 0;
        d.call_id = "call_1";
        d.name = "write_file";
        d.arguments_delta = R"({"path":"a.txt","content":")";
        for (const char c : body) {
            if (c == '"' || c == '\\')
                d.arguments_delta += '\\';
            d.arguments_delta += c == '\n' ? std::string("\\n") : std::string(1, c);
        }
        d.arguments_delta += "\"}";
        d.is_complete = true;
        return std::pair{chunk, body};
    };
    for (const bool keep_bodies : {true, false}) {
        for (const std::size_t body_bytes : {std::size_t{100}, std::size_t{300} << 10}) {
            INFO("body of " << body_bytes << " bytes, bodies " << (keep_bodies ? "kept" : "streamed"));
            auto [chunk, body] = chunk_of(body_bytes);
            const std::string text = chunk.tool_calls[0].arguments_delta;
            handler_options options;
            options.keep_file_bodies = keep_bodies;
            handler<api_tool_call> by_reference(recording_sink{}, options);
            handler<api_tool_call> by_rvalue(recording_sink{}, options);
            REQUIRE(!by_reference.feed(chunk));
            REQUIRE(!by_rvalue.feed(std::move(chunk)));
            REQUIRE(!by_reference.finalize());
            REQUIRE(!by_rvalue.finalize());
            CHECK(by_rvalue.events() == by_reference.events());
            REQUIRE(by_rvalue.invocations().size() == 1);
            CHECK(by_rvalue.invocations() == by_reference.invocations());
            const tool_invocation& call = by_rvalue.invocations()[0];
            CHECK(call.is_complete());
            if (keep_bodies) {
                CHECK(call.arguments.at("content").as_string() == body);
                CHECK(call.arguments_raw == text);
            }
            // Taken only when large and kept (a streamed body's text is not the writer's to keep).
            const bool taken = keep_bodies && text.size() >= detail::large_buffer;
            CHECK(chunk.tool_calls[0].arguments_delta == (taken ? std::string() : text));
        }
    }
}

} // namespace test_handler
