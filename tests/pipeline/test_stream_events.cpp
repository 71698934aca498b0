// Response-level events: start, finish per choice, usage, provider errors, in stream order.
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/openai_chat.hpp>

#include "catch_compat.hpp"
#include "support/event_log.hpp"

#include <string>
#include <vector>

namespace test_stream_events {

using namespace toolstream;

namespace {

std::vector<std::string> response_lines(std::string_view sse)
{
    pipeline<openai_chat, api_tool_call, test::event_log> p;
    for (std::size_t at = 0; at < sse.size(); at += 5)
        (void)p.write(sse.substr(at, 5));
    (void)p.finish();
    std::vector<std::string> out;
    for (const auto& line : p.sink().lines)
        if (line.rfind("RESPONSE", 0) == 0 || line.rfind("FINISH", 0) == 0 || line.rfind("USAGE", 0) == 0
            || line.rfind("FAILED", 0) == 0)
            out.push_back(line);
    return out;
}

std::string chunk(std::string_view delta, std::string_view finish = "null", int index = 0)
{
    return R"(data: {"id":"chatcmpl-9","model":"gpt-x","choices":[{"index":)" + std::to_string(index)
        + R"(,"delta":)" + std::string(delta) + R"(,"finish_reason":)" + std::string(finish) + "}]}\n\n";
}

} // namespace

TEST_CASE("stream events: start first, one finish per choice, usage last", "[stream-events]")
{
    const std::string sse = chunk(R"({"role":"assistant","content":"Hi"})") + chunk(R"({"content":"!"})", "\"stop\"")
        + R"(data: {"id":"chatcmpl-9","model":"gpt-x","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2}})"
          "\n\ndata: [DONE]\n\n";
    pipeline<openai_chat, api_tool_call, test::event_log> p;
    REQUIRE(!p.write(sse));
    REQUIRE(!p.finish());
    const auto& lines = p.sink().lines;
    REQUIRE(lines.size() >= 4);
    CHECK(lines.front() == "RESPONSE chatcmpl-9 gpt-x");
    CHECK(lines[lines.size() - 2] == "FINISH 0 stop \"stop\"");
    CHECK(lines.back() == "USAGE 3 2");
}

TEST_CASE("stream events: a choice that made calls finishes with tool_calls, one cut short with length",
          "[stream-events]")
{
    const std::string call = chunk(
        R"({"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]})");
    CHECK(response_lines(call + chunk("{}", "\"tool_calls\"")) ==
          std::vector<std::string>{"RESPONSE chatcmpl-9 gpt-x", "FINISH 0 tool_calls \"tool_calls\""});
    // No finish reason at all: the stream was cut, never a `stop`.
    CHECK(response_lines(chunk(R"({"content":"Hel"})")) ==
          std::vector<std::string>{"RESPONSE chatcmpl-9 gpt-x", "FINISH 0  \"length\""});
    CHECK(response_lines(chunk(R"({"content":"Hel"})", "\"length\"")) ==
          std::vector<std::string>{"RESPONSE chatcmpl-9 gpt-x", "FINISH 0 length \"length\""});
}

TEST_CASE("stream events: n > 1 finishes every choice in index order", "[stream-events]")
{
    const std::string sse = chunk(R"({"content":"a"})", "null", 1) + chunk(R"({"content":"b"})", "\"stop\"", 0)
        + chunk("{}", "\"length\"", 1);
    CHECK(response_lines(sse) == std::vector<std::string>{"RESPONSE chatcmpl-9 gpt-x", "FINISH 0 stop \"stop\"",
                                                          "FINISH 1 length \"length\""});
}

TEST_CASE("stream events: a provider error is delivered where it happened, and the finish says error",
          "[stream-events]")
{
    const std::string sse = chunk(R"({"content":"partial"})")
        + "data: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n";
    const auto lines = response_lines(sse);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "RESPONSE chatcmpl-9 gpt-x");
    CHECK(lines[1].rfind("FAILED ", 0) == 0);
    CHECK(lines[1].find("overloaded") != std::string::npos);
    CHECK(lines[2] == "FINISH 0  \"error\"");
}

TEST_CASE("stream events: a broken stream reports why, once", "[stream-events]")
{
    const auto lines = response_lines(chunk(R"({"content":"a"})") + "data: {not json\n\n" + "data: [1,2\n\n");
    REQUIRE(lines.size() == 3);
    CHECK(lines[1] == "FAILED " + make_error_code(error::invalid_payload).message());
    CHECK(lines[2] == "FINISH 0  \"error\"");
}

TEST_CASE("stream events: an empty stream still starts and finishes its one choice, as an error", "[stream-events]")
{
    CHECK(response_lines("") == std::vector<std::string>{"RESPONSE  ", "FAILED the openai_chat stream is empty: no event",
                                                         "FINISH 0  \"error\""});
}

} // namespace test_stream_events
