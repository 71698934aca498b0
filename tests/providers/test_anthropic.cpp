// provider_converter<anthropic>, content blocks: text, tool_use (streamed or whole), thinking and
// server tools, and payloads that are not the dialect's. The message life cycle (message_start,
// message_delta, errors, splices) and the recorded streams are in test_anthropic_messages.cpp.
#include "catch_compat.hpp"
#include "providers/anthropic_support.hpp"

#include <toolstream/providers/anthropic.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace test_anthropic {

using namespace toolstream::test::anthropic_support;

TEST_CASE("anthropic converter satisfies the provider contract", "[anthropic]")
{
    STATIC_REQUIRE(toolstream::provider_traits<anthropic>);
    STATIC_REQUIRE(converter::wire_framing == toolstream::framing::sse);
    STATIC_REQUIRE(converter::name == "anthropic");
}

TEST_CASE("anthropic text deltas become content; starts, stops and pings emit nothing", "[anthropic]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "message_start", message_start));
    CHECK(!feed(conv, out, "content_block_start",
                R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})"));
    CHECK(!feed(conv, out, "ping", R"({"type": "ping"})"));
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}})"));
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo"}})"));
    CHECK(!feed(conv, out, "content_block_stop", R"({"type":"content_block_stop","index":0})"));
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[0].content == "Hel");
    CHECK(out.chunks[1].content == "lo");
    CHECK(out.chunks[1].tool_calls.empty());
    CHECK(!out.chunks[1].is_complete);
}

TEST_CASE("anthropic event type falls back to the JSON type when the SSE name is empty", "[anthropic]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}})"));
    CHECK(!feed(conv, out, "", R"({"type":"message_stop"})"));
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[0].content == "x");
    CHECK(out.chunks[1].is_complete);
    // The SSE name wins over the payload's type.
    CHECK(!feed(conv, out, "ping", R"({"type":"message_stop"})"));
    CHECK(out.chunks.size() == 2);
}

TEST_CASE("anthropic tool_use blocks stream as tool-call deltas keyed by block index", "[anthropic]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "message_start", message_start));
    CHECK(!feed(conv, out, "content_block_start",
                R"({"type":"content_block_start","index":1,"content_block":{"type":"tool_use",)"
                R"("id":"toolu_01","name":"get_weather","caller":{"type":"direct"},"input":{}}})"));
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}})"));
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": "}})"));
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"Paris\"}"}})"));
    CHECK(!feed(conv, out, "content_block_stop", R"({"type":"content_block_stop","index":1})"));
    REQUIRE(out.chunks.size() == 5);
    for (const auto& c : out.chunks)
        REQUIRE(c.tool_calls.size() == 1);
    using toolstream::tool_call_delta;
    CHECK(out.chunks[0].tool_calls[0] == tool_call_delta{1, "toolu_01", "get_weather", "", false});
    CHECK(out.chunks[1].tool_calls[0] == tool_call_delta{1, "", "", "", false});
    CHECK(out.chunks[2].tool_calls[0] == tool_call_delta{1, "", "", "{\"city\": ", false});
    CHECK(out.chunks[3].tool_calls[0] == tool_call_delta{1, "", "", "\"Paris\"}", false});
    CHECK(out.chunks[4].tool_calls[0] == tool_call_delta{1, "", "", "", true});
    CHECK(out.chunks[4].content.empty());
    // A second stop for the same block completes nothing more.
    CHECK(!feed(conv, out, "content_block_stop", R"({"type":"content_block_stop","index":1})"));
    CHECK(out.chunks.size() == 5);
}

TEST_CASE("anthropic argument deltas reuse the chunk's string capacity", "[anthropic]")
{
    converter conv;
    std::vector<const char*> buffers;
    auto watch = [&](std::size_t, const chunk_response& c) {
        if (!c.tool_calls.empty() && c.tool_calls[0].arguments_delta.size() > 40)
            buffers.push_back(c.tool_calls[0].arguments_delta.data());
    };
    const std::string long_piece(60, 'a');
    const std::string delta = R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":")"
        + long_piece + "\"}}";
    CHECK(!conv.convert(wire_event{"content_block_start",
                                     R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}})"},
                        watch));
    for (int i = 0; i < 3; ++i)
        CHECK(!conv.convert(wire_event{"content_block_delta", delta}, watch));
    REQUIRE(buffers.size() == 3);
    CHECK(buffers[1] == buffers[0]);
    CHECK(buffers[2] == buffers[0]);
}

TEST_CASE("anthropic thinking deltas are reasoning; signatures and redacted thinking are not", "[anthropic]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "content_block_start",
                R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}})"));
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think."}})"));
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EvQBCkYI"}})"));
    CHECK(!feed(conv, out, "content_block_stop", R"({"type":"content_block_stop","index":0})"));
    CHECK(!feed(conv, out, "content_block_start",
                R"({"type":"content_block_start","index":1,"content_block":{"type":"redacted_thinking","data":"EmwKAhgBEgy3"}})"));
    CHECK(!feed(conv, out, "content_block_stop", R"({"type":"content_block_stop","index":1})"));
    REQUIRE(out.chunks.size() == 1);
    CHECK(out.chunks[0].reasoning == "Let me think.");
    CHECK(out.chunks[0].content.empty());
}

TEST_CASE("anthropic server_tool_use blocks are not client calls", "[anthropic]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "content_block_start",
                R"({"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}})"));
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"x\"}"}})"));
    CHECK(!feed(conv, out, "content_block_stop", R"({"type":"content_block_stop","index":0})"));
    CHECK(!feed(conv, out, "content_block_start",
                R"({"type":"content_block_start","index":1,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}})"));
    CHECK(!feed(conv, out, "content_block_stop", R"({"type":"content_block_stop","index":1})"));
    CHECK(out.chunks.empty());
}

TEST_CASE("anthropic tool_use with its whole input at the start (programmatic call)", "[anthropic]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "content_block_start",
                R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_p","name":"calc","input":{"b":2,"a":1}}})"));
    // Deltas are not expected for such a block; were one to come it would duplicate the input.
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}})"));
    CHECK(!feed(conv, out, "content_block_stop", R"({"type":"content_block_stop","index":0})"));
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[0].tool_calls.at(0) == toolstream::tool_call_delta{0, "toolu_p", "calc", R"({"b":2,"a":1})", false});
    CHECK(out.chunks[1].tool_calls.at(0).is_complete);
}

TEST_CASE("anthropic payloads that are not the dialect's JSON are rejected and skipped", "[anthropic]")
{
    converter conv;
    recorder out;
    CHECK(feed(conv, out, "content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":)")
          == error::invalid_payload);
    CHECK(feed(conv, out, "content_block_delta", "[1,2]") == error::invalid_payload);
    CHECK(feed(conv, out, "", R"({"index":0})") == error::invalid_payload);
    CHECK(feed(conv, out, "content_block_delta", R"({"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}})")
          == error::invalid_payload);
    CHECK(feed(conv, out, "content_block_start",
               R"({"type":"content_block_start","index":99999999999,"content_block":{"type":"tool_use","id":"t","name":"n"}})")
          == error::invalid_payload);
    CHECK(feed(conv, out, "message_start", R"({"type":"message_start"})") == error::invalid_payload);
    CHECK(out.chunks.empty());
    // Later events still convert.
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}})"));
    REQUIRE(out.chunks.size() == 1);
    CHECK(out.chunks[0].content == "ok");
}

} // namespace test_anthropic
