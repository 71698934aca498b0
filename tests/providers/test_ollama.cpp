#include "catch_compat.hpp"
#include "support/chunk_recorder.hpp"
#include "support/chunk_summary.hpp"

#include <toolstream/providers/ollama.hpp>
#include <toolstream/transport/ndjson.hpp>

#include <boost/json/parse.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace test_ollama {

namespace {

using toolstream::chunk_response;
using toolstream::error;
using toolstream::error_code;
using toolstream::ollama;
using toolstream::wire_event;
using converter = toolstream::provider_converter<ollama>;

using recorder = toolstream::test::chunk_recorder;

error_code feed(converter& conv, recorder& out, std::string_view line)
{
    return conv.convert(wire_event{{}, line}, out);
}

// Written from ollama's docs/api (streaming /api/chat, qwen3 with think:true and tools): thinking
// lines, content lines, a line with two calls, a call without `index` and one with an `id`, and
// the final line with done_reason and counts.
constexpr std::string_view chat_stream =
    R"({"model":"qwen3:14b","created_at":"2025-06-09T17:58:50.1Z","message":{"role":"assistant","content":"","thinking":"The user wants"},"done":false})"
    "\n"
    R"({"model":"qwen3:14b","created_at":"2025-06-09T17:58:50.2Z","message":{"role":"assistant","content":"","thinking":" the weather."},"done":false})"
    "\n"
    R"({"model":"qwen3:14b","created_at":"2025-06-09T17:58:51.0Z","message":{"role":"assistant","content":"Checking "},"done":false})"
    "\r\n"
    R"({"model":"qwen3:14b","created_at":"2025-06-09T17:58:51.1Z","message":{"role":"assistant","content":"Detroit… \u003cb\u003enow\u003c/b\u003e"},"done":false})"
    "\n\n"
    R"({"model":"qwen3:14b","created_at":"2025-06-09T17:58:55.3Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"weather","arguments":{"city":"Detroit","units":"metric"}}},{"function":{"index":1,"name":"search","arguments":{"query":"Detroit Tigers game time today","limit":3}}}]},"done":false})"
    "\n"
    R"({"model":"qwen3:14b","created_at":"2025-06-09T17:58:57.0Z","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_x1","function":{"index":2,"name":"noop","arguments":{}}}]},"done":false})"
    "\n"
    R"({"model":"qwen3:14b","created_at":"2025-06-09T17:58:57.1Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":23595672042,"load_duration":21701084,"prompt_eval_count":167,"prompt_eval_duration":340959667,"eval_count":306,"eval_duration":23230435042})"
    "\n";

constexpr std::string_view chat_expected = R"({
  "choices": [{"index": 0, "text": "Checking Detroit… <b>now</b>", "reasoning": "The user wants the weather.",
    "tool_calls": [
      {"id": null, "name": "weather", "arguments": {"city": "Detroit", "units": "metric"}, "arguments_raw": "{\"city\":\"Detroit\",\"units\":\"metric\"}"},
      {"id": null, "name": "search", "arguments": {"query": "Detroit Tigers game time today", "limit": 3}, "arguments_raw": "{\"query\":\"Detroit Tigers game time today\",\"limit\":3}"},
      {"id": "call_x1", "name": "noop", "arguments": {}, "arguments_raw": "{}"}],
    "finish_reason": "stop"}],
  "usage": {"input_tokens": 167, "output_tokens": 306},
  "error": null})";

} // namespace

TEST_CASE("ollama converter satisfies the provider contract", "[ollama]")
{
    STATIC_REQUIRE(toolstream::provider_traits<ollama>);
    STATIC_REQUIRE(converter::wire_framing == toolstream::framing::ndjson);
    STATIC_REQUIRE(converter::name == "ollama");
}

TEST_CASE("ollama message content and thinking", "[ollama]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, R"({"model":"m","message":{"role":"assistant","content":"","thinking":"Hmm"},"done":false})"));
    CHECK(!feed(conv, out, R"({"model":"m","message":{"role":"assistant","content":"\u003cthink\u003eraw\u003c/think\u003e Hi"},"done":false})"));
    CHECK(!feed(conv, out, R"({"model":"m","message":{"role":"assistant","content":""},"done":false})"));   // nothing
    REQUIRE(out.emitted.size() == 2);
    CHECK(out.emitted[0].chunk.reasoning == "Hmm");
    CHECK(out.emitted[0].chunk.content.empty());
    CHECK(out.emitted[1].chunk.content == "<think>raw</think> Hi");   // inline tags stay text
    CHECK(out.emitted[1].chunk.reasoning.empty());
    CHECK(!out.emitted[1].chunk.is_complete);
    CHECK(!out.emitted[1].chunk.usage);
}

TEST_CASE("ollama tool calls are whole, numbered across lines", "[ollama]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, R"({"message":{"role":"assistant","content":"","tool_calls":[)"
                           R"({"function":{"name":"weather","arguments":{"city":"Zürich","days":2,"rain":0.25,"hourly":false,"tags":[null]}}},)"
                           R"({"id":"call_9","function":{"index":1,"name":"search","arguments":{"b":1,"a":2}}}]},"done":false})"));
    CHECK(!feed(conv, out, R"({"message":{"role":"assistant","content":"","tool_calls":[{"function":{"index":0,"name":"no_args"}},)"
                           R"({"function":{"name":"as_text","arguments":"{\"x\": 1}"}},{"type":"function"}]},"done":false})"));
    REQUIRE(out.emitted.size() == 2);
    const auto& first = out.emitted[0].chunk.tool_calls;
    REQUIRE(first.size() == 2);
    CHECK(first[0].index == 0);
    CHECK(first[0].name == "weather");
    CHECK(first[0].call_id.empty());
    CHECK(first[0].arguments_delta == R"({"city":"Zürich","days":2,"rain":0.25,"hourly":false,"tags":[null]})");
    CHECK(first[0].is_complete);
    CHECK(first[1].index == 1);
    CHECK(first[1].call_id == "call_9");
    CHECK(first[1].arguments_delta == R"({"b":1,"a":2})");   // key order as received
    CHECK(first[1].is_complete);
    const auto& second = out.emitted[1].chunk.tool_calls;
    REQUIRE(second.size() == 2);   // an entry without `function` is not a call
    CHECK(second[0].index == 2);   // the wire's function.index (0) is not trusted
    CHECK(second[0].name == "no_args");
    CHECK(second[0].arguments_delta == "{}");
    CHECK(second[0].is_complete);
    CHECK(second[1].index == 3);
    CHECK(second[1].arguments_delta == R"({"x": 1})");   // already text: kept as sent
}

TEST_CASE("ollama done line: done_reason, completion and usage", "[ollama]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, R"({"model":"m","message":{"role":"assistant","content":""},"done_reason":"length","done":true,)"
                           R"("total_duration":1,"prompt_eval_count":26,"eval_count":290})"));
    REQUIRE(out.emitted.size() == 1);
    CHECK(out.emitted[0].chunk.is_complete);
    CHECK(out.emitted[0].chunk.finish_reason == "length");
    CHECK(out.emitted[0].chunk.usage == toolstream::token_usage{26, 290});
    // done without a reason or counts still completes.
    CHECK(!feed(conv, out, R"({"message":{"role":"assistant","content":"x"},"done":true})"));
    REQUIRE(out.emitted.size() == 2);
    CHECK(out.emitted[1].chunk.is_complete);
    CHECK(out.emitted[1].chunk.finish_reason.empty());
    CHECK(!out.emitted[1].chunk.usage);
}

TEST_CASE("ollama error lines set the error", "[ollama]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, R"({"error":"an error was encountered while running the model"})"));
    CHECK(!feed(conv, out, R"({"error":{"message":"model not found"}})"));
    REQUIRE(out.emitted.size() == 2);
    CHECK(out.emitted[0].chunk.error == "an error was encountered while running the model");
    CHECK(out.emitted[1].chunk.error == "model not found");
}

TEST_CASE("ollama invalid lines are rejected and later lines still convert", "[ollama]")
{
    converter conv;
    recorder out;
    CHECK(feed(conv, out, R"({"message":{"content":"x")") == error::invalid_payload);
    CHECK(feed(conv, out, R"(["not","an","object"])") == error::invalid_payload);
    CHECK(!feed(conv, out, "  \r"));
    CHECK(out.emitted.empty());
    CHECK(!feed(conv, out, R"({"message":{"content":"ok"}})"));
    REQUIRE(out.emitted.size() == 1);
    CHECK(out.emitted[0].chunk.content == "ok");
}

TEST_CASE("ollama stream through the NDJSON decoder matches the expected summary", "[ollama]")
{
    const auto expected = boost::json::parse(chat_expected);
    const std::string bytes(chat_stream);
    for (const std::size_t piece_size : {bytes.size(), std::size_t{1}, std::size_t{5}, std::size_t{64}}) {
        INFO("pieces of " << piece_size);
        converter conv;
        toolstream::test::chunk_summary summary;
        toolstream::ndjson_decoder ndjson;
        auto visit = [&](const wire_event& ev) { CHECK(!conv.convert(ev, summary)); };
        for (std::size_t at = 0; at < bytes.size(); at += piece_size)
            CHECK(!ndjson.write(std::string_view(bytes).substr(at, piece_size), visit));
        CHECK(!ndjson.finish(visit));
        conv.finish(summary);
        CHECK(toolstream::test::compare_with_expected(summary.to_json(), expected, true) == "");
        // The id the wire carried is kept (compare_with_expected checks ids only when present).
        REQUIRE(summary.choices().at(0).calls.size() == 3);
        CHECK(summary.choices().at(0).calls[2].id == "call_x1");
        CHECK(summary.choices().at(0).calls[0].complete);
    }
}

TEST_CASE("ollama steady state reuses the chunk's argument buffer", "[ollama]")
{
    converter conv;
    const char* buffer = nullptr;
    std::size_t seen = 0;
    std::size_t same = 0;
    auto emit = [&](std::size_t, const chunk_response& c) {
        const char* p = c.tool_calls.at(0).arguments_delta.data();
        same += (seen > 0 && p == buffer) ? 1 : 0;
        buffer = p;
        ++seen;
    };
    const std::string line = R"({"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"write",)"
                             R"("arguments":{"path":"/tmp/a/rather/long/path/name.txt","content":"more than fifteen bytes"}}}]}})";
    for (int i = 0; i < 10; ++i)
        CHECK(!conv.convert(wire_event{{}, line}, emit));
    CHECK(seen == 10);
    CHECK(same == 9);
}

TEST_CASE("ollama: the model comes once; done reasons are normalised", "[ollama][finish]")
{
    using toolstream::finish_kind;
    STATIC_REQUIRE(converter::normalise_finish("stop") == finish_kind::stop);
    STATIC_REQUIRE(converter::normalise_finish("length") == finish_kind::length);
    STATIC_REQUIRE(converter::normalise_finish("load") == finish_kind::error);   // no answer was generated
    STATIC_REQUIRE(converter::normalise_finish("abort") == finish_kind::error);

    converter conv;
    recorder out;
    CHECK(!feed(conv, out, R"({"model":"qwen3:14b","message":{"role":"assistant","content":"Hi"},"done":false})"));
    CHECK(!feed(conv, out, R"({"model":"qwen3:14b","message":{"role":"assistant","content":""},"done_reason":"length","done":true,"eval_count":3})"));
    REQUIRE(out.emitted.size() == 2);
    CHECK(out.emitted[0].chunk.model == "qwen3:14b");
    CHECK(out.emitted[0].chunk.response_id.empty());   // Ollama has no response id
    CHECK(out.emitted[1].chunk.model.empty());
    CHECK(out.emitted[1].chunk.finish_reason == "length");
    CHECK(out.emitted[1].chunk.finish == finish_kind::length);

    CHECK(!feed(conv, out, R"({"error":"an error was encountered while running the model"})"));
    REQUIRE(out.emitted.size() == 3);
    CHECK(out.emitted[2].chunk.finish == finish_kind::error);
}

} // namespace test_ollama
