// provider_converter<openai_chat>: hand-built Chat Completions events for each rule, then the
// recorded streams of OpenAI and the OpenAI-compatible vendors.
// The tool calls' own rules are in test_openai_chat_tool_calls.cpp.
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/transport/sse.hpp>

#include "catch_compat.hpp"
#include "providers/openai_chat_support.hpp"
#include "support/chunk_summary.hpp"
#include "support/fixtures.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace test_openai_chat {

using namespace toolstream::test::openai_chat_support;

TEST_CASE("openai_chat: satisfies the converter contract", "[openai_chat]")
{
    STATIC_REQUIRE(toolstream::provider_traits<toolstream::openai_chat>);
    STATIC_REQUIRE(converter::name == "openai_chat");
    STATIC_REQUIRE(converter::wire_framing == toolstream::framing::sse);
}

TEST_CASE("openai_chat: delta.content as a string, null, empty or missing", "[openai_chat]")
{
    const auto out = convert_all({
        R"({"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"finish_reason":null}]})",
        R"({"choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]})",
        R"({"choices":[{"index":0,"delta":{"content":null},"finish_reason":null}]})",
        R"({"choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]})",
        R"({"choices":[{"index":0,"delta":{"content":", w\u00f6rld"}}]})",
    });
    // Chunks that carry nothing (role only, "" or null content) are not emitted.
    REQUIRE(out.size() == 2);
    CHECK(out[0].choice == 0);
    CHECK(out[0].chunk.content == "Hello");
    CHECK(out[1].chunk.content == ", w\xc3\xb6rld");
    CHECK(out[1].chunk.finish_reason.empty());
    CHECK_FALSE(out[1].chunk.is_complete);
}

TEST_CASE("openai_chat: n > 1 choices are emitted per choice index", "[openai_chat]")
{
    const auto out = convert_all({
        R"({"choices":[{"index":0,"delta":{"content":"a"}}]})",
        R"({"choices":[{"index":2,"delta":{"content":"c"}}]})",
        R"({"choices":[{"index":1,"delta":{"content":"b"}},{"index":0,"delta":{"content":"A"}}]})",
        R"({"choices":[{"index":1,"delta":{},"finish_reason":"length"}]})",
    });
    REQUIRE(out.size() == 5);
    CHECK((out[0].choice == 0 && out[0].chunk.content == "a"));
    CHECK((out[1].choice == 2 && out[1].chunk.content == "c"));
    CHECK((out[2].choice == 1 && out[2].chunk.content == "b"));
    CHECK((out[3].choice == 0 && out[3].chunk.content == "A"));
    CHECK(out[4].choice == 1);
    CHECK(out[4].chunk.finish_reason == "length");
    CHECK(out[4].chunk.is_complete);
}

TEST_CASE("openai_chat: reasoning_content and reasoning become reasoning", "[openai_chat]")
{
    const auto out = convert_all({
        R"({"choices":[{"index":0,"delta":{"content":null,"reasoning_content":"Deep"}}]})",
        R"({"choices":[{"index":0,"delta":{"reasoning":"Groq"}}]})",
        R"({"choices":[{"index":0,"delta":{"reasoning_content":"same","reasoning":"same"}}]})",
        R"({"choices":[{"index":0,"delta":{"reasoning_content":"","reasoning":"vllm"}}]})",
    });
    REQUIRE(out.size() == 4);
    CHECK(out[0].chunk.reasoning == "Deep");
    CHECK(out[0].chunk.content.empty());
    CHECK(out[1].chunk.reasoning == "Groq");
    CHECK(out[2].chunk.reasoning == "same");   // a server sending both is not doubled
    CHECK(out[3].chunk.reasoning == "vllm");
}

TEST_CASE("openai_chat: refusal is kept apart from content", "[openai_chat]")
{
    const auto out = convert_all({
        R"({"choices":[{"index":0,"delta":{"content":null,"refusal":"I'm sorry"}}]})",
        R"({"choices":[{"index":0,"delta":{"refusal":", no."},"finish_reason":"stop"}]})",
    });
    REQUIRE(out.size() == 2);
    CHECK(out[0].chunk.refusal == "I'm sorry");
    CHECK(out[0].chunk.content.empty());
    CHECK(out[1].chunk.refusal == ", no.");
    CHECK(out[1].chunk.finish_reason == "stop");
}

TEST_CASE("openai_chat: chunks without a delta and Azure filter chunks", "[openai_chat]")
{
    const auto out = convert_all({
        R"({"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0}]})",
        R"({"choices":[{"index":0,"delta":{"content":"Hi"},"content_filter_results":{}}],"object":"chat.completion.chunk"})",
        R"({"choices":[{"index":0,"content_filter_results":{"hate":{"filtered":false}},"finish_reason":null}]})",
        R"({"choices":[{"index":0,"finish_reason":"stop"}]})",
    });
    REQUIRE(out.size() == 2);
    CHECK(out[0].chunk.content == "Hi");
    CHECK(out[1].chunk.finish_reason == "stop");
    CHECK(out[1].chunk.is_complete);
    CHECK(out[1].chunk.content.empty());
}

TEST_CASE("openai_chat: usage", "[openai_chat]")
{
    SECTION("the usage chunk with choices: [] goes to choice 0")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"content":"x"}}],"usage":null})",
            R"({"choices":[],"usage":{"prompt_tokens":149,"completion_tokens":60,"total_tokens":209}})",
        });
        REQUIRE(out.size() == 2);
        CHECK_FALSE(out[0].chunk.usage);
        CHECK(out[1].choice == 0);
        CHECK(out[1].chunk.usage == toolstream::token_usage{149, 60});
        CHECK(out[1].chunk.content.empty());
    }
    SECTION("usage on the finish chunk rides on that chunk")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":46}})",
        });
        REQUIRE(out.size() == 1);
        CHECK(out[0].chunk.finish_reason == "stop");
        CHECK(out[0].chunk.usage == toolstream::token_usage{10, 46});
    }
    SECTION("x_groq.usage, when there is no usage field")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"x_groq":{"id":"req","usage":{"prompt_tokens":210,"completion_tokens":15}}})",
        });
        REQUIRE(out.size() == 1);
        CHECK(out[0].chunk.usage == toolstream::token_usage{210, 15});
    }
    SECTION("usage of a choice other than 0 is emitted on choice 0")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":2,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2}})",
        });
        REQUIRE(out.size() == 2);
        CHECK((out[0].choice == 2 && !out[0].chunk.usage));
        CHECK((out[1].choice == 0 && out[1].chunk.usage == toolstream::token_usage{1, 2}));
    }
    SECTION("usage on every chunk: each is reported, the last wins downstream")
    {
        toolstream::test::chunk_summary summary;
        converter conv;
        for (const std::string_view data : {
                 R"({"choices":[{"index":0,"delta":{"content":"a"}}],"usage":{"prompt_tokens":5,"completion_tokens":1}})",
                 R"({"choices":[{"index":0,"delta":{"content":"b"}}],"usage":{"prompt_tokens":5,"completion_tokens":2}})",
                 R"({"choices":[],"usage":{}})",
             })
            REQUIRE_FALSE(conv.convert({{}, data}, summary));
        CHECK(summary.usage() == toolstream::token_usage{5, 2});
    }
}

TEST_CASE("openai_chat: in-stream errors", "[openai_chat]")
{
    SECTION("an OpenAI error object as the first event")
    {
        const auto out = convert_all({
            R"({"error":{"message":"The server had an error.","type":"server_error","param":null,"code":null}})",
        });
        REQUIRE(out.size() == 1);
        CHECK(out[0].choice == 0);
        CHECK(out[0].chunk.error == "The server had an error.");
    }
    SECTION("an error after output started")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"content":"Hel"}}]})",
            R"({"error":{"message":"overloaded"}})",
        });
        REQUIRE(out.size() == 2);
        CHECK(out[0].chunk.error.empty());
        CHECK(out[1].chunk.error == "overloaded");
    }
    SECTION("vLLM: object error with a top-level message")
    {
        const auto out = convert_all({R"({"object":"error","message":"maximum context length exceeded","type":"BadRequestError","code":400})"});
        REQUIRE(out.size() == 1);
        CHECK(out[0].chunk.error == "maximum context length exceeded");
    }
    SECTION("OpenRouter: finish_reason error with an error field")
    {
        const auto out = convert_all({
            R"({"id":"gen-1","provider":"openai","error":{"code":"server_error","message":"Provider disconnected unexpectedly"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error","native_finish_reason":"error"}]})",
        });
        REQUIRE(out.size() == 1);
        CHECK(out[0].chunk.error == "Provider disconnected unexpectedly");
        CHECK(out[0].chunk.finish_reason == "error");
        CHECK(out[0].chunk.is_complete);
    }
    SECTION("an error without a message is reported as its JSON; a null error is none")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"content":"ok"}}],"error":null})",
            R"({"error":{"code":503}})",
            R"({"error":"quota exceeded"})",
        });
        REQUIRE(out.size() == 3);
        CHECK(out[0].chunk.error.empty());
        CHECK(out[1].chunk.error == R"({"code":503})");
        CHECK(out[2].chunk.error == "quota exceeded");
    }
}

TEST_CASE("openai_chat: invalid payloads are rejected and the stream goes on", "[openai_chat]")
{
    converter conv;
    recorder rec;
    CHECK(conv.convert({{}, R"({"choices":[{"index":0,"delta":{"content":"a"}})"}, rec) == toolstream::error::invalid_payload);
    CHECK(conv.convert({{}, "not json"}, rec) == toolstream::error::invalid_payload);
    CHECK(conv.convert({{}, "[1,2]"}, rec) == toolstream::error::invalid_payload);
    CHECK(conv.convert({{}, R"({"choices":{"index":0}})"}, rec) == toolstream::error::invalid_payload);
    CHECK(rec.emitted.empty());
    CHECK_FALSE(conv.convert({{}, R"({"choices":[{"index":0,"delta":{"content":"b"}}]})"}, rec));
    REQUIRE(rec.emitted.size() == 1);
    CHECK(rec.emitted[0].chunk.content == "b");
}

TEST_CASE("openai_chat: the DONE sentinel and blank data are not chunks", "[openai_chat]")
{
    converter conv;
    recorder rec;
    for (const std::string_view data : {"[DONE]", " [DONE]\r\n", "", "  \n"})
        CHECK_FALSE(conv.convert({{}, data}, rec));
    CHECK(rec.emitted.empty());
}

TEST_CASE("openai_chat: SSE event names are ignored, but an error event without choices is the response's error", "[openai_chat]")
{
    converter conv;
    recorder rec;
    REQUIRE_FALSE(conv.convert({"error", R"({"choices":[{"index":0,"delta":{"content":"a"}}]})"}, rec));
    REQUIRE_FALSE(conv.convert({"message", R"({"choices":[{"index":0,"delta":{"content":"b"}}]})"}, rec));
    REQUIRE(rec.emitted.size() == 2);
    CHECK(rec.emitted[0].chunk.content == "a");
    CHECK(rec.emitted[0].chunk.error.empty());
    CHECK(rec.emitted[1].chunk.content == "b");
    // llama.cpp's `error: {...}` line, and the other shapes of an error event.
    REQUIRE_FALSE(conv.convert({"error", R"({"code":500,"message":"boom","type":"server_error"})"}, rec));
    REQUIRE_FALSE(conv.convert({"error", R"({"error":{"message":"bang"}})"}, rec));
    REQUIRE_FALSE(conv.convert({"error", "not JSON"}, rec));
    REQUIRE(rec.emitted.size() == 5);
    CHECK(rec.emitted[2].chunk.error == "boom");
    CHECK(rec.emitted[3].chunk.error == "bang");
    CHECK(rec.emitted[4].chunk.error == "not JSON");
    CHECK(rec.emitted[4].chunk.finish == toolstream::finish_kind::error);
}

namespace {

/// Replays a recorded stream through the SSE decoder and the converter, in the expected.json shape.
std::string replay(const toolstream::test::fixture& f)
{
    const std::string body = toolstream::test::read_file(f.stream_path);
    toolstream::sse_decoder sse;
    converter conv;
    toolstream::test::chunk_summary summary;
    std::size_t rejected = 0;
    const auto on_event = [&](const toolstream::wire_event& ev) {
        if (conv.convert(ev, summary))
            ++rejected;
    };
    REQUIRE_FALSE(sse.write(body, on_event));
    REQUIRE_FALSE(sse.finish(on_event));
    conv.finish(summary);
    CHECK(rejected == 0);
    return toolstream::test::compare_with_expected(summary.to_json(), f.expected, /*compare_raw=*/true);
}

} // namespace

TEST_CASE("openai_chat: recorded streams of OpenAI and OpenAI-compatible vendors", "[openai_chat][fixtures]")
{
    const auto fixtures = toolstream::test::load_fixtures({"openai_chat", "deepseek", "groq", "xai", "alibaba"});
    if (!toolstream::test::fixtures_dir()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: recorded streams skipped");
        return;
    }
    CHECK(fixtures.size() >= 25);   // every folder was found
    for (const auto& f : fixtures) {
        INFO(f.name);
        CHECK(replay(f) == "");
    }
}

TEST_CASE("openai_chat: the response's id and model come once; finish reasons are normalised", "[openai_chat][finish]")
{
    using toolstream::finish_kind;
    STATIC_REQUIRE(converter::normalise_finish("stop") == finish_kind::stop);
    STATIC_REQUIRE(converter::normalise_finish("length") == finish_kind::length);
    STATIC_REQUIRE(converter::normalise_finish("tool_calls") == finish_kind::tool_calls);
    STATIC_REQUIRE(converter::normalise_finish("function_call") == finish_kind::tool_calls);
    STATIC_REQUIRE(converter::normalise_finish("content_filter") == finish_kind::content_filter);
    STATIC_REQUIRE(converter::normalise_finish("error") == finish_kind::error);
    // Unknown ends (vLLM's and SGLang's `abort`) never read as a clean stop.
    STATIC_REQUIRE(converter::normalise_finish("abort") == finish_kind::error);
    STATIC_REQUIRE(converter::normalise_finish("eos") == finish_kind::error);
    STATIC_REQUIRE(converter::normalise_finish("") == finish_kind::error);

    const auto out = convert_all({
        R"({"id":"chatcmpl-1","model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]})",
        R"({"id":"chatcmpl-1","model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]})",
        R"({"id":"chatcmpl-1","model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"length"}]})",
    });
    REQUIRE(out.size() == 3);
    // The role-only first chunk carries nothing else, and is emitted for the id and model.
    CHECK(out[0].chunk.response_id == "chatcmpl-1");
    CHECK(out[0].chunk.model == "gpt-4o");
    CHECK(out[0].chunk.content.empty());
    for (std::size_t i = 1; i < out.size(); ++i) {
        CHECK(out[i].chunk.response_id.empty());
        CHECK(out[i].chunk.model.empty());
    }
    CHECK(!out[1].chunk.finish);
    CHECK(out[2].chunk.finish_reason == "length");
    CHECK(out[2].chunk.finish == finish_kind::length);

    SECTION("with n > 1, the first chunk of the stream has them, whatever its choice")
    {
        const auto two = convert_all({
            R"({"id":"c2","model":"m","choices":[{"index":1,"delta":{"content":"b"}},{"index":0,"delta":{"content":"a"}}]})",
            R"({"id":"c2","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"},{"index":1,"delta":{},"finish_reason":"content_filter"}]})",
        });
        REQUIRE(two.size() == 4);
        CHECK(two[0].choice == 1);
        CHECK(two[0].chunk.response_id == "c2");
        CHECK(two[1].chunk.response_id.empty());
        CHECK(two[2].chunk.finish == finish_kind::tool_calls);
        CHECK(two[3].chunk.finish == finish_kind::content_filter);
    }
    SECTION("an in-stream error finishes choice 0 with error")
    {
        const auto failed = convert_all({R"({"error":{"message":"overloaded","code":529}})"});
        REQUIRE(failed.size() == 1);
        CHECK(failed[0].chunk.error == "overloaded");
        CHECK(failed[0].chunk.finish == finish_kind::error);
        CHECK(failed[0].chunk.finish_reason.empty());
    }
}

} // namespace test_openai_chat
