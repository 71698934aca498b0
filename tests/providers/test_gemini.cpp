// provider_converter<gemini>: text and thought parts, finish reasons and usage, whole function
// calls, candidates as choices, errors, and the recorded streams. Streamed arguments (partialArgs)
// are in test_gemini_partial_args.cpp.
#include "catch_compat.hpp"
#include "providers/gemini_support.hpp"
#include "support/chunk_summary.hpp"
#include "support/fixtures.hpp"

#include <toolstream/providers/gemini.hpp>
#include <toolstream/transport/sse.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace test_gemini {

using namespace toolstream::test::gemini_support;

TEST_CASE("gemini converter satisfies the provider contract", "[gemini]")
{
    STATIC_REQUIRE(toolstream::provider_traits<gemini>);
    STATIC_REQUIRE(converter::wire_framing == toolstream::framing::sse);
    STATIC_REQUIRE(converter::name == "gemini");
}

TEST_CASE("gemini text parts are content, thought parts reasoning", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, response(R"({"text":"Let me think.","thought":true},{"text":"Hel"},{"text":"lo"})")));
    CHECK(!feed(conv, out, response(R"({"text":"","thoughtSignature":"c2ln"})")));   // nothing to say
    CHECK(!feed(conv, out, response(R"({"text":" world","thought":false})")));
    REQUIRE(out.emitted.size() == 2);
    CHECK(out.emitted[0].chunk.reasoning == "Let me think.");
    CHECK(out.emitted[0].chunk.content == "Hello");
    CHECK(out.emitted[1].chunk.content == " world");
    CHECK(out.emitted[1].chunk.reasoning.empty());
    CHECK(!out.emitted[1].chunk.is_complete);
}

TEST_CASE("gemini finishReason is kept raw and completes the chunk; usage adds thoughts to output", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, R"({"candidates":[{"content":{"parts":[{"text":"a"}]}}],"usageMetadata":{"trafficType":"ON_DEMAND"}})"));
    CHECK(!feed(conv, out, R"({"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":23,"thoughtsTokenCount":185,)"
                           R"("totalTokenCount":217},"candidates":[{"content":{"parts":[{"text":""}]},"finishReason":"MAX_TOKENS"}]})"));
    REQUIRE(out.emitted.size() == 2);
    CHECK(!out.emitted[0].chunk.usage);   // count-less Vertex metadata is no usage report
    const auto& last = out.emitted[1].chunk;
    CHECK(last.finish_reason == "MAX_TOKENS");
    CHECK(last.is_complete);
    REQUIRE(last.usage);
    CHECK(last.usage->input_tokens == 9);
    CHECK(last.usage->output_tokens == 208);
}

TEST_CASE("gemini usage without candidates is reported on choice 0", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, R"({"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2}})"));
    REQUIRE(out.emitted.size() == 1);
    CHECK(out.emitted[0].choice == 0);
    CHECK(out.emitted[0].chunk.usage == toolstream::token_usage{4, 2});
}

TEST_CASE("gemini whole function calls: compact args, running indexes, optional id", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, response(
        R"({"functionCall":{"name":"weather","args":{ "city" : "Zürich", "b":1, "a":[0.5, 1e21, 1e-7, 2.50, -0.0, true, null, "q\"\n"] }},"thoughtSignature":"x"},)"
        R"({"functionCall":{"name":"search","args":{"q":"x"},"id":"call-7"}})")));
    CHECK(!feed(conv, out, response(R"({"functionCall":{"name":"read_theme"}})", R"(,"finishReason":"STOP")")));
    const auto d = out.deltas();
    REQUIRE(d.size() == 3);
    CHECK(d[0].index == 0);
    CHECK(d[0].name == "weather");
    CHECK(d[0].call_id.empty());
    CHECK(d[0].arguments_delta == R"({"city":"Zürich","b":1,"a":[0.5,1e+21,1e-7,2.5,0,true,null,"q\"\n"]})");
    CHECK(d[0].is_complete);
    CHECK(d[1].index == 1);
    CHECK(d[1].name == "search");
    CHECK(d[1].call_id == "call-7");
    CHECK(d[1].arguments_delta == R"({"q":"x"})");
    CHECK(d[1].is_complete);
    CHECK(d[2].index == 2);   // the counter runs across chunks
    CHECK(d[2].name == "read_theme");
    CHECK(d[2].arguments_delta == "{}");   // no args at all
    CHECK(d[2].is_complete);
    CHECK(out.emitted.back().chunk.finish_reason == "STOP");
}

TEST_CASE("gemini compact numbers follow JSON.stringify", "[gemini]")
{
    const std::vector<std::pair<std::string_view, std::string_view>> cases{
        {"0.1", "0.1"}, {"100", "100"}, {"1e2", "100"}, {"1.5e20", "150000000000000000000"},
        {"1e21", "1e+21"}, {"1.25e21", "1.25e+21"}, {"0.000001", "0.000001"}, {"1e-7", "1e-7"},
        {"-2.5e-8", "-2.5e-8"}, {"123.456", "123.456"}, {"-0.5", "-0.5"}, {"18446744073709551615", "18446744073709551615"},
        {"-9223372036854775808", "-9223372036854775808"}, {"1e400", "null"}, {"0e400", "0"}, {"-0.0e887", "0"}, {"5e-324", "5e-324"},
        {"1.7976931348623157e308", "1.7976931348623157e+308"}};
    for (const auto& [in, expected] : cases) {
        std::string out;
        toolstream::detail::append_compact_json(out, json::parse(in));
        CHECK(out == expected);
    }
    std::string out;
    toolstream::detail::append_compact_json(out, json::parse(R"({"s":"\u0001\u001f\u007f\/\\\b\f\r\t é"})"));
    CHECK(out == "{\"s\":\"\\u0001\\u001f\x7f/\\\\\\b\\f\\r\\t \xc3\xa9\"}");
}

TEST_CASE("gemini candidates are choices, each with its own call numbering", "[gemini]")
{
    converter conv;
    recorder out{.last_choice = 1};
    CHECK(!feed(conv, out, R"({"candidates":[)"
        R"({"content":{"parts":[{"text":"zero"},{"functionCall":{"name":"f","args":{}}}]},"index":0},)"
        R"({"content":{"parts":[{"functionCall":{"name":"g","args":{"x":1}}}]},"index":1,"finishReason":"STOP"}],)"
        R"("usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":5}})"));
    REQUIRE(out.emitted.size() == 2);
    CHECK(out.emitted[0].choice == 0);
    CHECK(out.emitted[0].chunk.content == "zero");
    CHECK(out.emitted[0].chunk.usage == toolstream::token_usage{3, 5});
    CHECK(out.emitted[1].choice == 1);
    CHECK(!out.emitted[1].chunk.usage);   // usage is reported once per response
    CHECK(out.emitted[1].chunk.finish_reason == "STOP");
    REQUIRE(out.deltas(1).size() == 1);
    CHECK(out.deltas(0)[0].index == 0);
    CHECK(out.deltas(1)[0].index == 0);
    CHECK(out.deltas(1)[0].arguments_delta == R"({"x":1})");
    // Without `index`, a candidate's position is its choice.
    CHECK(!feed(conv, out, R"({"candidates":[{"content":{"parts":[{"text":"a"}]}},{"content":{"parts":[{"text":"b"}]}}]})"));
    REQUIRE(out.emitted.size() == 4);
    CHECK(out.emitted[2].choice == 0);
    CHECK(out.emitted[3].choice == 1);
    CHECK(out.emitted[3].chunk.content == "b");
}

TEST_CASE("gemini error bodies set the error, framed or raw, object or array", "[gemini]")
{
    const std::string_view bodies[] = {
        R"({"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}})",
        "[{\n  \"error\": {\n    \"code\": 429,\n    \"message\": \"Resource has been exhausted (e.g. check quota).\",\n"
        "    \"status\": \"RESOURCE_EXHAUSTED\"\n  }\n}\n]\n",
    };
    for (const auto body : bodies) {
        converter conv;
        recorder out;
        CHECK(!feed(conv, out, body));
        REQUIRE(out.emitted.size() == 1);
        CHECK(out.emitted[0].choice == 0);
        CHECK(out.emitted[0].chunk.error == "Resource has been exhausted (e.g. check quota).");
    }
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, R"({"error":{"code":500,"status":"INTERNAL"}})"));
    REQUIRE(out.emitted.size() == 1);
    CHECK(out.emitted[0].chunk.error == R"({"code":500,"status":"INTERNAL"})");   // no message: the object
}

TEST_CASE("gemini raw error body through the SSE decoder", "[gemini]")
{
    const std::string body = "[{\r\n  \"error\": {\r\n    \"code\": 400,\r\n    \"message\": \"API key not valid.\",\r\n"
                             "    \"status\": \"INVALID_ARGUMENT\"\r\n  }\r\n}\r\n]";
    converter conv;
    toolstream::test::chunk_summary summary;
    toolstream::sse_decoder sse;
    auto visit = [&](const wire_event& ev) { CHECK(!conv.convert(ev, summary)); };
    CHECK(!sse.write(body, visit));
    CHECK(!sse.finish(visit));
    conv.finish(summary);
    CHECK(summary.error() == std::optional<std::string>("API key not valid."));
}

TEST_CASE("gemini invalid payloads are rejected and later events still convert", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(feed(conv, out, R"({"candidates":[{"content":)") == error::invalid_payload);
    CHECK(feed(conv, out, "42") == error::invalid_payload);
    CHECK(feed(conv, out, R"([{"error":{"message":"x"}}, 1])") == error::invalid_payload);
    CHECK(!feed(conv, out, " \r\n"));   // keep-alive: nothing
    CHECK(out.emitted.empty());
    CHECK(!feed(conv, out, response(R"({"text":"ok"})")));
    REQUIRE(out.emitted.size() == 1);
    CHECK(out.emitted[0].chunk.content == "ok");
}

TEST_CASE("gemini fixtures match their expected results", "[gemini][fixtures]")
{
    const auto fixtures = toolstream::test::load_fixtures({"gemini"});
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set (or holds no gemini fixtures): skipped");
        return;
    }
    CHECK(fixtures.size() == 9);
    for (const auto& f : fixtures) {
        const std::string bytes = toolstream::test::read_file(f.stream_path);
        for (const std::size_t piece_size : {bytes.size(), std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
            INFO(f.name << " written in pieces of " << piece_size);
            converter conv;
            toolstream::test::chunk_summary summary;
            toolstream::sse_decoder sse;
            std::size_t events = 0;
            auto visit = [&](const wire_event& ev) {
                ++events;
                CHECK(!conv.convert(ev, summary));
            };
            for (std::size_t at = 0; at < bytes.size(); at += piece_size)
                CHECK(!sse.write(std::string_view(bytes).substr(at, piece_size), visit));
            CHECK(!sse.finish(visit));
            conv.finish(summary);
            CHECK(events > 0);
            CHECK(toolstream::test::compare_with_expected(summary.to_json(), f.expected, false) == "");
            // Stronger than the README asks: the synthesized text is JSON.stringify's, byte for byte.
            CHECK(toolstream::test::compare_with_expected(summary.to_json(), f.expected, true) == "");
            // Every call the provider finished is marked complete.
            for (const auto& [index, choice] : summary.choices())
                for (const auto& call : choice.calls)
                    CHECK(call.complete);
        }
    }
}

TEST_CASE("gemini: responseId and modelVersion come once; finish reasons are normalised", "[gemini][finish]")
{
    using toolstream::finish_kind;
    STATIC_REQUIRE(converter::normalise_finish("STOP") == finish_kind::stop);
    STATIC_REQUIRE(converter::normalise_finish("MAX_TOKENS") == finish_kind::length);
    for (const char* filtered : {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"})
        CHECK(converter::normalise_finish(filtered) == finish_kind::content_filter);
    for (const char* failed : {"MALFORMED_FUNCTION_CALL", "OTHER", "LANGUAGE", "FINISH_REASON_UNSPECIFIED", "NEW_REASON"})
        CHECK(converter::normalise_finish(failed) == finish_kind::error);

    converter conv;
    recorder out;
    const std::string_view tail = R"(,"responseId":"b36LacjwM6","modelVersion":"gemini-2.5-flash"})";
    CHECK(!feed(conv, out, R"({"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"index":0}])" + std::string(tail)));
    CHECK(!feed(conv, out, R"({"candidates":[{"content":{"role":"model","parts":[{"text":"!"}]},"finishReason":"MAX_TOKENS","index":0}])" + std::string(tail)));
    REQUIRE(out.emitted.size() == 2);
    CHECK(out.emitted[0].chunk.response_id == "b36LacjwM6");
    CHECK(out.emitted[0].chunk.model == "gemini-2.5-flash");
    CHECK(!out.emitted[0].chunk.finish);
    CHECK(out.emitted[1].chunk.response_id.empty());
    CHECK(out.emitted[1].chunk.model.empty());
    CHECK(out.emitted[1].chunk.finish_reason == "MAX_TOKENS");
    CHECK(out.emitted[1].chunk.finish == finish_kind::length);

    CHECK(!feed(conv, out, R"({"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}})"));
    REQUIRE(out.emitted.size() == 3);
    CHECK(out.emitted[2].chunk.error == "Resource exhausted");
    CHECK(out.emitted[2].chunk.finish == finish_kind::error);
}

} // namespace test_gemini
