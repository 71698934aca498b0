#include "catch_compat.hpp"
#include "support/converter_replay.hpp"
#include "support/fixtures.hpp"

#include <toolstream/providers/openai_responses.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace test_openai_responses {

namespace {

using toolstream::chunk_response;
using toolstream::error;
using toolstream::openai_responses;
using toolstream::wire_event;
using toolstream::tool_call_delta;
using converter = toolstream::provider_converter<openai_responses>;

// The tests feed() each payload under its type as the SSE event name, as the API sends it.
using recorder = toolstream::test::chunk_recorder;
using toolstream::test::feed;

constexpr std::string_view fc_added =
    R"({"type":"response.output_item.added","output_index":1,"item":{"id":"fc_1","type":"function_call",)"
    R"("status":"in_progress","arguments":"","call_id":"call_A","name":"get_weather"}})";
constexpr std::string_view fc_done_item =
    R"({"type":"response.output_item.done","output_index":1,"item":{"id":"fc_1","type":"function_call",)"
    R"("status":"completed","arguments":"{\"city\":\"Paris\"}","call_id":"call_A","name":"get_weather"}})";
constexpr std::string_view fc_args_done =
    R"({"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":1,"arguments":"{\"city\":\"Paris\"}"})";

std::string args_delta(std::string_view item_id, int output_index, std::string_view delta)
{
    return R"({"type":"response.function_call_arguments.delta","item_id":")" + std::string(item_id)
        + R"(","output_index":)" + std::to_string(output_index) + R"(,"delta":")" + std::string(delta) + "\"}";
}

} // namespace

TEST_CASE("openai_responses converter satisfies the provider contract", "[openai_responses]")
{
    STATIC_REQUIRE(toolstream::provider_traits<openai_responses>);
    STATIC_REQUIRE(converter::wire_framing == toolstream::framing::sse);
    STATIC_REQUIRE(converter::name == "openai_responses");
}

TEST_CASE("openai_responses function calls: call_id from the added item, raw deltas, .done completes", "[openai_responses]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "response.output_item.added", fc_added));
    CHECK(!feed(conv, out, "response.function_call_arguments.delta", args_delta("fc_1", 1, R"({\"city\")")));
    CHECK(!feed(conv, out, "response.function_call_arguments.delta", args_delta("fc_1", 1, R"(:\"Paris\"})")));
    CHECK(!feed(conv, out, "response.function_call_arguments.done", fc_args_done));
    CHECK(!feed(conv, out, "response.output_item.done", fc_done_item));
    REQUIRE(out.chunks.size() == 4);
    for (const auto& c : out.chunks)
        REQUIRE(c.tool_calls.size() == 1);
    CHECK(out.chunks[0].tool_calls[0] == tool_call_delta{1, "call_A", "get_weather", "", false});
    CHECK(out.chunks[1].tool_calls[0] == tool_call_delta{1, "", "", R"({"city")", false});
    CHECK(out.chunks[2].tool_calls[0] == tool_call_delta{1, "", "", R"(:"Paris"})", false});
    // The .done text repeats the deltas, so it is not appended again.
    CHECK(out.chunks[3].tool_calls[0] == tool_call_delta{1, "", "", "", true});
}

TEST_CASE("openai_responses .done supplies the arguments when no delta came", "[openai_responses]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "response.output_item.added", fc_added));
    CHECK(!feed(conv, out, "response.function_call_arguments.done", fc_args_done));
    CHECK(!feed(conv, out, "response.output_item.done", fc_done_item));
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[1].tool_calls.at(0) == tool_call_delta{1, "", "", R"({"city":"Paris"})", true});
}

TEST_CASE("openai_responses output_item.done is the last fallback for arguments and completion", "[openai_responses]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "response.output_item.added", fc_added));
    CHECK(!feed(conv, out, "response.output_item.done", fc_done_item));
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[1].tool_calls.at(0) == tool_call_delta{1, "", "", R"({"city":"Paris"})", true});

    SECTION("a server that skipped output_item.added still gets call_id and name")
    {
        converter bare;
        recorder got;
        CHECK(!feed(bare, got, "response.output_item.done", fc_done_item));
        REQUIRE(got.chunks.size() == 1);
        CHECK(got.chunks[0].tool_calls.at(0) == tool_call_delta{1, "call_A", "get_weather", R"({"city":"Paris"})", true});
    }
}

TEST_CASE("openai_responses an item done with status incomplete leaves its call open", "[openai_responses]")
{
    std::string cut_item(fc_done_item);
    cut_item.replace(cut_item.find("completed"), 9, "incomplete");
    cut_item.replace(cut_item.find(R"(\"Paris\"})"), 10, R"(\"Par)");
    for (const bool deltas : {false, true}) {
        converter conv;
        recorder out;
        CHECK(!feed(conv, out, "response.output_item.added", fc_added));
        if (deltas)
            CHECK(!feed(conv, out, "response.function_call_arguments.delta", args_delta("fc_1", 1, R"({\"city\":\"Par)")));
        CHECK(!feed(conv, out, "response.output_item.done", cut_item));
        std::string arguments;
        for (const auto& c : out.chunks)
            for (const auto& d : c.tool_calls) {
                arguments += d.arguments_delta;
                CHECK(!d.is_complete);
            }
        CHECK(arguments == R"({"city":"Par)");   // the text it holds, once
    }
}

TEST_CASE("openai_responses custom tool calls stream their free-form input", "[openai_responses]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "response.output_item.added",
                R"({"type":"response.output_item.added","output_index":0,"item":{"type":"custom_tool_call","id":"ct_1","call_id":"call_sql","name":"write_sql","input":""}})"));
    CHECK(!feed(conv, out, "response.custom_tool_call_input.delta",
                R"({"type":"response.custom_tool_call_input.delta","item_id":"ct_1","output_index":0,"delta":"SELECT * "})"));
    CHECK(!feed(conv, out, "response.custom_tool_call_input.delta",
                R"({"type":"response.custom_tool_call_input.delta","item_id":"ct_1","output_index":0,"delta":"FROM t"})"));
    CHECK(!feed(conv, out, "response.output_item.done",
                R"({"type":"response.output_item.done","output_index":0,"item":{"type":"custom_tool_call","id":"ct_1","call_id":"call_sql","name":"write_sql","input":"SELECT * FROM t","status":"completed"}})"));
    REQUIRE(out.chunks.size() == 4);
    // Every delta of a custom tool says its input is free-form (no JSON to parse).
    CHECK(out.chunks[0].tool_calls.at(0) == tool_call_delta{0, "call_sql", "write_sql", "", false, true});
    CHECK(out.chunks[1].tool_calls.at(0).arguments_delta == "SELECT * ");
    CHECK(out.chunks[1].tool_calls.at(0).free_form);
    CHECK(out.chunks[2].tool_calls.at(0).arguments_delta == "FROM t");
    CHECK(out.chunks[3].tool_calls.at(0) == tool_call_delta{0, "", "", "", true, true});

    SECTION("custom_tool_call_input.done supplies the input when no delta came")
    {
        converter lone;
        recorder got;
        CHECK(!feed(lone, got, "response.custom_tool_call_input.done",
                    R"({"type":"response.custom_tool_call_input.done","item_id":"ct_9","output_index":2,"input":"SELECT 1"})"));
        REQUIRE(got.chunks.size() == 1);
        CHECK(got.chunks[0].tool_calls.at(0) == tool_call_delta{2, "", "", "SELECT 1", true, true});
    }
}

TEST_CASE("openai_responses calls the provider runs itself are not emitted", "[openai_responses]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "response.output_item.added",
                R"({"type":"response.output_item.added","output_index":0,"item":{"type":"web_search_call","id":"ws_1","status":"in_progress"}})"));
    CHECK(!feed(conv, out, "response.web_search_call.searching",
                R"({"type":"response.web_search_call.searching","output_index":0,"item_id":"ws_1"})"));
    CHECK(!feed(conv, out, "response.output_item.done",
                R"({"type":"response.output_item.done","output_index":0,"item":{"type":"web_search_call","id":"ws_1","status":"completed","action":{"type":"search","query":"x"}}})"));
    CHECK(!feed(conv, out, "response.output_item.added",
                R"({"type":"response.output_item.added","output_index":1,"item":{"type":"message","id":"msg_1","content":[],"role":"assistant"}})"));
    CHECK(out.chunks.empty());
}

TEST_CASE("openai_responses text, refusal and both reasoning kinds", "[openai_responses]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "response.reasoning_summary_text.delta",
                R"({"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"**Plan**","obfuscation":"x1"})"));
    CHECK(!feed(conv, out, "response.reasoning_text.delta",
                R"({"type":"response.reasoning_text.delta","item_id":"rs_1","output_index":0,"content_index":0,"delta":" think"})"));
    CHECK(!feed(conv, out, "response.output_text.delta",
                R"({"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"Hi","logprobs":[]})"));
    CHECK(!feed(conv, out, "response.refusal.delta",
                R"({"type":"response.refusal.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"No."})"));
    CHECK(!feed(conv, out, "response.output_text.done",
                R"({"type":"response.output_text.done","item_id":"msg_1","output_index":1,"content_index":0,"text":"Hi"})"));
    REQUIRE(out.chunks.size() == 4);
    CHECK(out.chunks[0].reasoning == "**Plan**");
    CHECK(out.chunks[1].reasoning == " think");
    CHECK(out.chunks[2].content == "Hi");
    CHECK(out.chunks[2].tool_calls.empty());
    CHECK(out.chunks[3].refusal == "No.");
    CHECK(out.chunks[3].content.empty());
}

TEST_CASE("openai_responses event type falls back to the JSON type when the SSE name is empty", "[openai_responses]")
{
    converter conv;
    recorder out;
    CHECK(!conv.convert(wire_event{"", R"({"type":"response.output_text.delta","output_index":0,"delta":"x"})"}, out));
    REQUIRE(out.chunks.size() == 1);
    CHECK(out.chunks[0].content == "x");
}

TEST_CASE("openai_responses terminal events give status, usage and completion", "[openai_responses]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "response.completed",
                R"({"type":"response.completed","response":{"id":"resp_1","status":"completed","error":null,)"
                R"("usage":{"input_tokens":92,"input_tokens_details":{"cached_tokens":0},"output_tokens":52,"total_tokens":144}}})"));
    CHECK(!feed(conv, out, "response.incomplete",
                R"({"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":5,"output_tokens":7}}})"));
    CHECK(!feed(conv, out, "response.failed",
                R"({"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"The server had an error."},"usage":null}})"));
    REQUIRE(out.chunks.size() == 3);
    CHECK(out.chunks[0].finish_reason == "completed");
    CHECK(out.chunks[0].usage == toolstream::token_usage{92, 52});
    CHECK(out.chunks[0].is_complete);
    CHECK(out.chunks[0].error.empty());
    CHECK(out.chunks[1].finish_reason == "incomplete");
    CHECK(out.chunks[1].usage == toolstream::token_usage{5, 7});
    CHECK(out.chunks[2].finish_reason == "failed");
    CHECK(!out.chunks[2].usage);
    CHECK(out.chunks[2].error == "The server had an error.");
    CHECK(out.chunks[2].is_complete);

    SECTION("without a status the event name says how the response ended")
    {
        recorder got;
        CHECK(!feed(conv, got, "response.incomplete", R"({"type":"response.incomplete","response":{}})"));
        REQUIRE(got.chunks.size() == 1);
        CHECK(got.chunks[0].finish_reason == "incomplete");
    }
}

TEST_CASE("openai_responses error events carry the provider's message, nested or flat", "[openai_responses]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "error",
                R"({"type":"error","sequence_number":2,"error":{"type":"insufficient_quota","code":"insufficient_quota","message":"You exceeded your current quota.","param":null}})"));
    CHECK(!feed(conv, out, "error", R"({"type":"error","code":"rate_limit_exceeded","message":"Slow down.","param":null})"));
    CHECK(!feed(conv, out, "error", R"({"type":"error","code":"server_error"})"));
    REQUIRE(out.chunks.size() == 3);
    CHECK(out.chunks[0].error == "You exceeded your current quota.");
    CHECK(out.chunks[1].error == "Slow down.");
    CHECK(out.chunks[2].error == "server_error");
    CHECK(!out.chunks[0].is_complete);
}

TEST_CASE("openai_responses argument events without output_index are matched by item id", "[openai_responses]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "response.output_item.added", fc_added));
    CHECK(!feed(conv, out, "response.function_call_arguments.delta",
                R"({"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":"{}"})"));
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[1].tool_calls.at(0) == tool_call_delta{1, "", "", "{}", false});
    CHECK(feed(conv, out, "response.function_call_arguments.delta",
               R"({"type":"response.function_call_arguments.delta","item_id":"fc_unknown","delta":"{}"})")
          == error::invalid_payload);
}

TEST_CASE("openai_responses several responses in one stream keep their calls apart", "[openai_responses]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "response.created", R"({"type":"response.created","response":{"id":"resp_1","status":"in_progress"}})"));
    CHECK(!feed(conv, out, "response.output_item.added", fc_added));
    CHECK(!feed(conv, out, "response.created", R"({"type":"response.created","response":{"id":"resp_2","status":"in_progress"}})"));
    CHECK(!feed(conv, out, "response.output_item.added", fc_added));
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[0].tool_calls.at(0).index == 1);
    CHECK(out.chunks[1].tool_calls.at(0).index == 3);   // after the two output slots of resp_1
}

TEST_CASE("openai_responses argument deltas reuse string capacity across other chunks", "[openai_responses]")
{
    converter conv;
    std::vector<const char*> buffers;
    auto watch = [&](std::size_t, const chunk_response& c) {
        if (!c.tool_calls.empty() && c.tool_calls[0].arguments_delta.size() > 40)
            buffers.push_back(c.tool_calls[0].arguments_delta.data());
    };
    const std::string delta = args_delta("fc_1", 1, std::string(60, 'a'));
    const std::string_view text = R"({"type":"response.output_text.delta","output_index":0,"delta":"t"})";
    CHECK(!conv.convert(wire_event{"response.output_item.added", fc_added}, watch));
    for (int i = 0; i < 3; ++i) {
        CHECK(!conv.convert(wire_event{"response.function_call_arguments.delta", delta}, watch));
        CHECK(!conv.convert(wire_event{"response.output_text.delta", text}, watch));
    }
    REQUIRE(buffers.size() == 3);
    CHECK(buffers[1] == buffers[0]);
    CHECK(buffers[2] == buffers[0]);
}

TEST_CASE("openai_responses payloads that are not the dialect's JSON are rejected and skipped", "[openai_responses]")
{
    converter conv;
    recorder out;
    CHECK(feed(conv, out, "response.output_text.delta", R"({"type":"response.output_text.delta","delta":)")
          == error::invalid_payload);
    CHECK(feed(conv, out, "response.output_text.delta", R"("text")") == error::invalid_payload);
    CHECK(feed(conv, out, "", R"({"delta":"x"})") == error::invalid_payload);
    CHECK(feed(conv, out, "response.output_item.added", R"({"type":"response.output_item.added","output_index":0})")
          == error::invalid_payload);
    CHECK(feed(conv, out, "response.output_item.added",
               R"({"type":"response.output_item.added","output_index":123456789012,"item":{"type":"function_call"}})")
          == error::invalid_payload);
    CHECK(out.chunks.empty());
    CHECK(!feed(conv, out, "response.output_text.delta", R"({"type":"response.output_text.delta","delta":"ok"})"));
    REQUIRE(out.chunks.size() == 1);
    CHECK(out.chunks[0].content == "ok");
}

TEST_CASE("openai_responses recorded streams match their expected results", "[openai_responses][fixtures]")
{
    const auto fixtures = toolstream::test::load_fixtures({"openai_responses"});
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: openai_responses fixtures skipped");
        return;
    }
    for (const auto& fx : fixtures) {
        INFO(fx.name);
        const std::string body = toolstream::test::read_file(fx.stream_path);
        const auto summary = toolstream::test::replay_sse<openai_responses>(body);
        CHECK(toolstream::test::compare_with_expected(summary.to_json(), fx.expected, true) == "");
    }
}

TEST_CASE("openai_responses announce each response's id and model; statuses are normalised", "[openai_responses][finish]")
{
    using toolstream::finish_kind;
    STATIC_REQUIRE(converter::normalise_finish("completed") == finish_kind::stop);
    STATIC_REQUIRE(converter::normalise_finish("incomplete", "max_output_tokens") == finish_kind::length);
    STATIC_REQUIRE(converter::normalise_finish("incomplete", "content_filter") == finish_kind::content_filter);
    STATIC_REQUIRE(converter::normalise_finish("incomplete") == finish_kind::length);
    STATIC_REQUIRE(converter::normalise_finish("failed") == finish_kind::error);
    STATIC_REQUIRE(converter::normalise_finish("cancelled") == finish_kind::error);

    converter conv;
    recorder out;
    CHECK(!feed(conv, out, "response.created",
                R"({"type":"response.created","response":{"id":"resp_1","model":"gpt-4.1","status":"in_progress"}})"));
    CHECK(!feed(conv, out, "response.in_progress",
                R"({"type":"response.in_progress","response":{"id":"resp_1","model":"gpt-4.1","status":"in_progress"}})"));
    CHECK(!feed(conv, out, "response.incomplete",
                R"({"type":"response.incomplete","response":{"id":"resp_1","model":"gpt-4.1","status":"incomplete","incomplete_details":{"reason":"content_filter"}}})"));
    REQUIRE(out.starts.size() == 1);
    CHECK(out.starts[0].response_id == "resp_1");
    CHECK(out.starts[0].model == "gpt-4.1");
    REQUIRE(out.chunks.size() == 1);
    CHECK(out.chunks[0].finish_reason == "incomplete");
    CHECK(out.chunks[0].finish == finish_kind::content_filter);

    CHECK(!feed(conv, out, "response.completed",
                R"({"type":"response.completed","response":{"id":"resp_2","model":"gpt-4.1","status":"completed"}})"));
    REQUIRE(out.starts.size() == 2);   // a stream without response.created still announces it
    CHECK(out.starts[1].response_id == "resp_2");
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[1].finish == finish_kind::stop);

    CHECK(!feed(conv, out, "response.incomplete",
                R"({"type":"response.incomplete","response":{"id":"resp_2","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}})"));
    CHECK(!feed(conv, out, "response.failed", R"({"type":"response.failed","response":{"id":"resp_2","status":"failed","error":{"message":"boom"}}})"));
    CHECK(!feed(conv, out, "error", R"({"type":"error","message":"Slow down."})"));
    REQUIRE(out.chunks.size() == 5);
    CHECK(out.chunks[2].finish == finish_kind::length);
    CHECK(out.chunks[3].finish == finish_kind::error);
    CHECK(out.chunks[4].finish == finish_kind::error);
    CHECK(out.chunks[4].finish_reason.empty());
    CHECK(out.starts.size() == 2);
}

} // namespace test_openai_responses
