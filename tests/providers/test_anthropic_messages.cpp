// provider_converter<anthropic>, the message life cycle: stop reasons and usage of message_delta,
// error events, repeated and spliced message_start, messages after message_stop; then the recorded
// streams.
#include "catch_compat.hpp"
#include "providers/anthropic_support.hpp"
#include "support/chunk_summary.hpp"
#include "support/converter_replay.hpp"
#include "support/fixtures.hpp"

#include <toolstream/providers/anthropic.hpp>

#include <string>
#include <string_view>

namespace test_anthropic_messages {

using namespace toolstream::test::anthropic_support;

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
        const auto summary = toolstream::test::replay_sse<anthropic>(body);

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

} // namespace test_anthropic_messages
