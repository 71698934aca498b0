#include "catch_compat.hpp"
#include "support/chunk_summary.hpp"
#include "support/fixtures.hpp"

#include <toolstream/providers/anthropic.hpp>
#include <toolstream/transport/sse.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace {

using toolstream::anthropic;
using toolstream::chunk_response;
using toolstream::error;
using toolstream::error_code;
using toolstream::wire_event;
using converter = toolstream::provider_converter<anthropic>;

// Keeps a copy of every chunk the converter emits; those that only announce a response (its
// id and model) apart.
struct recorder {
    std::vector<chunk_response> chunks;
    std::vector<chunk_response> starts;
    void operator()(std::size_t choice, const chunk_response& c)
    {
        CHECK(choice == 0);
        chunk_response rest = c;
        rest.response_id.clear();
        rest.model.clear();
        (rest == chunk_response{} ? starts : chunks).push_back(c);
    }
};

error_code feed(converter& conv, recorder& out, std::string_view name, std::string_view data)
{
    return conv.convert(wire_event{name, data}, out);
}

constexpr std::string_view message_start =
    R"({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],)"
    R"("usage":{"input_tokens":25,"output_tokens":1}}})";

// Decodes a recording and folds the converter's output; every event must convert without error.
toolstream::test::chunk_summary replay(std::string_view body)
{
    converter conv;
    toolstream::test::chunk_summary summary;
    std::size_t rejected = 0;
    auto visit = [&](const wire_event& ev) {
        if (conv.convert(ev, summary))
            ++rejected;
    };
    toolstream::sse_decoder sse;
    CHECK(!sse.write(body, visit));
    CHECK(!sse.finish(visit));
    conv.finish(summary);
    CHECK(rejected == 0);
    return summary;
}

} // namespace

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

TEST_CASE("anthropic message_delta carries the raw stop reason and cumulative usage", "[anthropic]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "message_start", message_start));
    CHECK(!feed(conv, out, "message_delta", R"({"type":"message_delta","delta":{"stop_reason":null},"usage":{"output_tokens":10}})"));
    CHECK(!feed(conv, out, "message_delta",
                R"({"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":65}})"));
    CHECK(!feed(conv, out, "message_stop", R"({"type":"message_stop"})"));
    REQUIRE(out.chunks.size() == 3);
    CHECK(out.chunks[0].finish_reason.empty());
    CHECK(out.chunks[0].usage == toolstream::token_usage{25, 10});
    CHECK(out.chunks[1].finish_reason == "tool_use");
    CHECK(out.chunks[1].usage == toolstream::token_usage{25, 65});
    CHECK(!out.chunks[1].is_complete);
    CHECK(out.chunks[2].is_complete);
    CHECK(!out.chunks[2].usage);
}

TEST_CASE("anthropic message_delta input_tokens replace those of message_start", "[anthropic]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "message_start", message_start));
    CHECK(!feed(conv, out, "message_delta",
                R"({"type":"message_delta","delta":{"stop_reason":"refusal"},"usage":{"input_tokens":61,"output_tokens":2}})"));
    REQUIRE(out.chunks.size() == 1);
    CHECK(out.chunks[0].finish_reason == "refusal");
    CHECK(out.chunks[0].usage == toolstream::token_usage{61, 2});
}

TEST_CASE("anthropic error events carry the provider's message", "[anthropic]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "error", R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"));
    CHECK(!feed(conv, out, "", R"({"type":"error","message":"flat message"})"));
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[0].error == "Overloaded");
    CHECK(out.chunks[1].error == "flat message");
}

TEST_CASE("anthropic duplicate message_start with the same id is ignored", "[anthropic]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "message_start", message_start));
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}})"));
    CHECK(!feed(conv, out, "message_start", message_start));
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"b"}})"));
    CHECK(!feed(conv, out, "message_delta", R"({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}})"));
    REQUIRE(out.chunks.size() == 3);
    CHECK(out.chunks[0].content == "a");
    CHECK(out.chunks[1].content == "b");
    CHECK(out.chunks[1].error.empty());
    CHECK(out.chunks[2].usage == toolstream::token_usage{25, 3});
}

TEST_CASE("anthropic spliced message_start is an error and the rest of the stream is ignored", "[anthropic]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "message_start", message_start));
    CHECK(!feed(conv, out, "content_block_start",
                R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_a","name":"f","input":{}}})"));
    CHECK(!feed(conv, out, "message_start",
                R"({"type":"message_start","message":{"id":"msg_2","usage":{"input_tokens":9,"output_tokens":1}}})"));
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[1].error == R"(message_start for message "msg_2" while message "msg_1" is still open)");
    CHECK(out.chunks[1].tool_calls.empty());
    CHECK(!feed(conv, out, "content_block_delta",
                R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"late"}})"));
    CHECK(!feed(conv, out, "content_block_stop", R"({"type":"content_block_stop","index":0})"));
    CHECK(!feed(conv, out, "message_delta", R"({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}})"));
    CHECK(!feed(conv, out, "message_stop", R"({"type":"message_stop"})"));
    CHECK(out.chunks.size() == 2);
    // The provider's own errors still get through.
    CHECK(!feed(conv, out, "error", R"({"type":"error","error":{"type":"api_error","message":"boom"}})"));
    REQUIRE(out.chunks.size() == 3);
    CHECK(out.chunks[2].error == "boom");
}

TEST_CASE("anthropic messages after message_stop get their own call indices", "[anthropic]")
{
    converter conv;
    recorder out;
    const std::string_view tool_start =
        R"({"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_x","name":"f","input":{}}})";
    CHECK(!feed(conv, out, "message_start", message_start));
    CHECK(!feed(conv, out, "content_block_start", R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})"));
    CHECK(!feed(conv, out, "content_block_start", tool_start));
    CHECK(!feed(conv, out, "message_stop", R"({"type":"message_stop"})"));
    CHECK(!feed(conv, out, "message_start",
                R"({"type":"message_start","message":{"id":"msg_2","usage":{"input_tokens":9,"output_tokens":1}}})"));
    CHECK(!feed(conv, out, "content_block_start", tool_start));
    REQUIRE(out.chunks.size() == 3);
    CHECK(out.chunks[0].tool_calls.at(0).index == 1);
    CHECK(out.chunks[2].tool_calls.at(0).index == 3);   // after the two blocks of the first message
    CHECK(out.chunks[2].error.empty());
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

TEST_CASE("anthropic recorded streams match their expected results", "[anthropic][fixtures]")
{
    const auto fixtures = toolstream::test::load_fixtures({"anthropic"});
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: anthropic fixtures skipped");
        return;
    }
    for (const auto& fx : fixtures) {
        INFO(fx.name);
        const std::string body = toolstream::test::read_file(fx.stream_path);
        const auto summary = replay(body);

        const std::string diff = toolstream::test::compare_with_expected(summary.to_json(), fx.expected, true);
        if (fx.name != "anthropic/spliced-message-start") {
            CHECK(diff == "");
            continue;
        }
        // Known divergence, reported upstream: the expected file (Vercel's oracle) drops the call
        // that was open at the splice, but a streaming converter has already emitted its start and
        // first argument delta by then and cannot take them back. It stays an incomplete call
        // (never is_complete), which downstream never executes. Everything else must match.
        CHECK(diff == "choice 0 tool call count 1 != 0");
        const auto& choice = summary.choices().at(0);
        REQUIRE(choice.calls.size() == 1);
        CHECK(choice.calls[0].id == "toolu_first");
        CHECK(choice.calls[0].raw == R"({"value":"Spark)");
        CHECK(!choice.calls[0].complete);
        CHECK(choice.reasoning == "I will call the tool.");
        CHECK(!choice.finish_reason);
        CHECK(!summary.usage());
        CHECK(summary.error());
    }
}

TEST_CASE("anthropic message_start gives the id and model; stop reasons are normalised", "[anthropic][finish]")
{
    using toolstream::finish_kind;
    STATIC_REQUIRE(converter::normalise_finish("end_turn") == finish_kind::stop);
    STATIC_REQUIRE(converter::normalise_finish("stop_sequence") == finish_kind::stop);
    STATIC_REQUIRE(converter::normalise_finish("pause_turn") == finish_kind::stop);
    STATIC_REQUIRE(converter::normalise_finish("max_tokens") == finish_kind::length);
    STATIC_REQUIRE(converter::normalise_finish("model_context_window_exceeded") == finish_kind::length);
    STATIC_REQUIRE(converter::normalise_finish("tool_use") == finish_kind::tool_calls);
    STATIC_REQUIRE(converter::normalise_finish("refusal") == finish_kind::content_filter);

    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "message_start",
                R"({"type":"message_start","message":{"id":"msg_019Q","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[],"usage":{"input_tokens":3}}})"));
    CHECK(!feed(conv, out, "message_delta", R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":5}})"));
    REQUIRE(out.starts.size() == 1);
    CHECK(out.starts[0].response_id == "msg_019Q");
    CHECK(out.starts[0].model == "claude-sonnet-4-20250514");
    REQUIRE(out.chunks.size() == 1);
    CHECK(out.chunks[0].finish_reason == "tool_use");
    CHECK(out.chunks[0].finish == finish_kind::tool_calls);
    CHECK(out.chunks[0].response_id.empty());

    SECTION("a replayed message_start announces nothing; a later message announces itself")
    {
        CHECK(!feed(conv, out, "message_start", R"({"type":"message_start","message":{"id":"msg_019Q","model":"claude-sonnet-4-20250514"}})"));
        CHECK(out.starts.size() == 1);
        CHECK(!feed(conv, out, "message_stop", R"({"type":"message_stop"})"));
        CHECK(!feed(conv, out, "message_start", R"({"type":"message_start","message":{"id":"msg_2","model":"claude-haiku"}})"));
        REQUIRE(out.starts.size() == 2);
        CHECK(out.starts[1].response_id == "msg_2");
        CHECK(out.starts[1].model == "claude-haiku");
    }
    SECTION("an error event and a splice finish with error")
    {
        CHECK(!feed(conv, out, "error", R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"));
        CHECK(!feed(conv, out, "message_start", R"({"type":"message_start","message":{"id":"msg_other"}})"));
        REQUIRE(out.chunks.size() == 3);
        CHECK(out.chunks[1].error == "Overloaded");
        CHECK(out.chunks[1].finish == finish_kind::error);
        CHECK(!out.chunks[2].error.empty());
        CHECK(out.chunks[2].finish == finish_kind::error);
        CHECK(out.starts.size() == 1);   // the spliced message is not announced
    }
}
