// provider_converter<openai_chat>: hand-built Chat Completions events for each rule, then the
// recorded streams of OpenAI and the OpenAI-compatible vendors.
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/transport/sse.hpp>

#include "catch_compat.hpp"
#include "support/chunk_summary.hpp"
#include "support/fixtures.hpp"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace {

using toolstream::chunk_response;
using toolstream::tool_call_delta;
using converter = toolstream::provider_converter<toolstream::openai_chat>;

struct emitted {
    std::size_t choice;
    chunk_response chunk;
};

struct recorder {
    std::vector<emitted> out;
    void operator()(std::size_t choice, const chunk_response& c) { out.push_back({choice, c}); }
};

/// Converts each payload as one SSE event and returns every chunk emitted.
std::vector<emitted> convert_all(converter& conv, std::initializer_list<std::string_view> payloads)
{
    recorder rec;
    for (const std::string_view data : payloads)
        REQUIRE_FALSE(conv.convert(toolstream::wire_event{{}, data}, rec));
    conv.finish(rec);
    return rec.out;
}

std::vector<emitted> convert_all(std::initializer_list<std::string_view> payloads)
{
    converter conv;
    return convert_all(conv, payloads);
}

tool_call_delta fragment(std::size_t index, std::string id, std::string name, std::string args)
{
    return {index, std::move(id), std::move(name), std::move(args), false};
}

tool_call_delta completion(std::size_t index)
{
    return {index, {}, {}, {}, true};
}

} // namespace

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

TEST_CASE("openai_chat: tool-call fragments are assembled by index", "[openai_chat]")
{
    // OpenAI's shape: id, type and name in the first fragment, then arguments only.
    const auto out = convert_all({
        R"({"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_A","type":"function","function":{"name":"get_weather","arguments":""}}]}}]})",
        R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"ci"}}]}}]})",
        R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ty\": \"Paris\"}"}}]}}]})",
    });
    REQUIRE(out.size() == 3);
    CHECK(out[0].chunk.tool_calls == std::vector{fragment(0, "call_A", "get_weather", "")});
    CHECK(out[1].chunk.tool_calls == std::vector{fragment(0, "", "", "{\"ci")});
    CHECK(out[2].chunk.tool_calls == std::vector{fragment(0, "", "", "ty\": \"Paris\"}")});
}

TEST_CASE("openai_chat: the first non-empty id and name win and are emitted once", "[openai_chat]")
{
    SECTION("name resent with every fragment (MiniMax)")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"read_file","arguments":"{\"p"}}]}}]})",
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"read_file","arguments":"\":1}"}}]}}]})",
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"other","arguments":""}}]}}]})",
        });
        REQUIRE(out.size() == 2);
        CHECK(out[0].chunk.tool_calls == std::vector{fragment(0, "c1", "read_file", "{\"p")});
        CHECK(out[1].chunk.tool_calls == std::vector{fragment(0, "", "", "\":1}")});
    }
    SECTION("empty id and name on continuations (Qwen, GLM), id arriving late")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"","type":"function","function":{"name":"","arguments":"{"}}]}}]})",
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_late","function":{"name":"f","arguments":"}"}}]}}]})",
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"","function":{"name":"","arguments":" "}}]}}]})",
        });
        REQUIRE(out.size() == 3);
        CHECK(out[0].chunk.tool_calls == std::vector{fragment(0, "", "", "{")});
        CHECK(out[1].chunk.tool_calls == std::vector{fragment(0, "call_late", "f", "}")});
        CHECK(out[2].chunk.tool_calls == std::vector{fragment(0, "", "", " ")});
    }
}

TEST_CASE("openai_chat: several calls in one chunk, a missing index is the array position", "[openai_chat]")
{
    const auto out = convert_all({
        R"({"choices":[{"index":0,"delta":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}},{"id":"b","function":{"name":"g","arguments":"{\"x\":1}"}}]}}]})",
    });
    REQUIRE(out.size() == 1);
    CHECK(out[0].chunk.tool_calls == std::vector{fragment(0, "a", "f", "{}"), fragment(1, "b", "g", "{\"x\":1}")});
}

TEST_CASE("openai_chat: calls are numbered by first appearance, not by the wire index", "[openai_chat]")
{
    const auto out = convert_all({
        R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":5,"id":"a","function":{"name":"f","arguments":"["}}]}}]})",
        R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"id":"b","function":{"name":"g","arguments":"{"}}]}}]})",
        R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":5,"function":{"arguments":"]"}}]}}]})",
    });
    REQUIRE(out.size() == 3);
    CHECK(out[0].chunk.tool_calls == std::vector{fragment(0, "a", "f", "[")});
    CHECK(out[1].chunk.tool_calls == std::vector{fragment(1, "b", "g", "{")});
    CHECK(out[2].chunk.tool_calls == std::vector{fragment(0, "", "", "]")});
}

TEST_CASE("openai_chat: a new id at a used index", "[openai_chat]")
{
    SECTION("without a name it continues the call (LM Studio sends a new id per fragment)")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"id1","function":{"name":"f","arguments":"{\"a\""}}]}}]})",
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"id2","function":{"arguments":":1}"}}]}}]})",
        });
        REQUIRE(out.size() == 2);
        CHECK(out[1].chunk.tool_calls == std::vector{fragment(0, "", "", ":1}")});
    }
    SECTION("with a name it is a new call (Ollama sends every parallel call at index 0)")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"id1","function":{"name":"write","arguments":"{\"p\":\"a\"}"}}]}}]})",
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"id2","function":{"name":"write","arguments":"{\"p\":"}}]}}]})",
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"b\"}"}}]},"finish_reason":"tool_calls"}]})",
        });
        REQUIRE(out.size() == 3);
        CHECK(out[0].chunk.tool_calls == std::vector{fragment(0, "id1", "write", "{\"p\":\"a\"}")});
        CHECK(out[1].chunk.tool_calls == std::vector{fragment(1, "id2", "write", "{\"p\":")});
        // Continuations go to the newest call at that index; both calls complete at the finish.
        CHECK(out[2].chunk.tool_calls
              == std::vector{fragment(1, "", "", "\"b\"}"), completion(0), completion(1)});
    }
}

TEST_CASE("openai_chat: empty argument fragments after the call add nothing", "[openai_chat]")
{
    // Qwen's trailing fragment, and vLLM's arguments:"" on the finish chunk.
    const auto out = convert_all({
        R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}}]})",
        R"({"choices":[{"delta":{"tool_calls":[{"function":{"arguments":""},"index":0,"id":"","type":"function"}]},"index":0}]})",
        R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":""}}]},"finish_reason":"tool_calls","stop_reason":128008}]})",
    });
    REQUIRE(out.size() == 2);
    CHECK(out[0].chunk.tool_calls == std::vector{fragment(0, "c", "f", "{}")});
    CHECK(out[1].chunk.tool_calls == std::vector{completion(0)});
}

TEST_CASE("openai_chat: arguments are passed on exactly as received", "[openai_chat]")
{
    SECTION("whitespace, escapes and pretty-printing are kept")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":" {\n  \"s\": \"caf\u00e9 \\u00e9\\\\\""}}]}}]})",
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":", \"b\" : 2 }"}}]}}]})",
        });
        REQUIRE(out.size() == 2);
        // The JSON string is decoded once (it is the wire's encoding of the text); the text
        // itself, including its own escapes, is not touched.
        CHECK(out[0].chunk.tool_calls[0].arguments_delta == " {\n  \"s\": \"caf\xc3\xa9 \\u00e9\\\\\"");
        CHECK(out[1].chunk.tool_calls[0].arguments_delta == ", \"b\" : 2 }");
    }
    SECTION("arguments sent as an object are serialized once, key order kept")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":{"z":1,"a":[true,null]}}}]}}]})",
        });
        REQUIRE(out.size() == 1);
        CHECK(out[0].chunk.tool_calls == std::vector{fragment(0, "c", "f", R"({"z":1,"a":[true,null]})")});
    }
}

TEST_CASE("openai_chat: a finish_reason completes the open calls of its choice", "[openai_chat]")
{
    SECTION("a new index does not complete earlier calls; the finish completes all")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]}}]})",
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"g","arguments":"{"}}]}}]})",
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":" "}}]}}]})",
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"}"}}]}}]})",
            R"({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})",
        });
        REQUIRE(out.size() == 5);
        for (std::size_t i = 0; i < 4; ++i) {
            CHECK_FALSE(out[i].chunk.is_complete);
            CHECK_FALSE(out[i].chunk.tool_calls.at(0).is_complete);
        }
        CHECK(out[2].chunk.tool_calls == std::vector{fragment(0, "", "", " ")});
        CHECK(out[4].chunk.tool_calls == std::vector{completion(0), completion(1)});
        CHECK(out[4].chunk.finish_reason == "tool_calls");
        CHECK(out[4].chunk.is_complete);
    }
    SECTION("whole call and finish in one chunk; any reason counts; only once")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"q\":"}}]},"finish_reason":"length"}]})",
            R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})",
        });
        REQUIRE(out.size() == 2);
        CHECK(out[0].chunk.tool_calls == std::vector{fragment(0, "a", "f", "{\"q\":"), completion(0)});
        CHECK(out[0].chunk.finish_reason == "length");
        CHECK(out[1].chunk.tool_calls.empty());
        CHECK(out[1].chunk.finish_reason == "stop");
    }
    SECTION("each choice completes only its own calls")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]}},{"index":1,"delta":{"tool_calls":[{"index":0,"id":"b","function":{"name":"g","arguments":"{}"}}]}}]})",
            R"({"choices":[{"index":1,"delta":{},"finish_reason":"tool_calls"}]})",
            R"({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})",
        });
        REQUIRE(out.size() == 4);
        CHECK((out[0].choice == 0 && out[0].chunk.tool_calls == std::vector{fragment(0, "a", "f", "{}")}));
        CHECK((out[1].choice == 1 && out[1].chunk.tool_calls == std::vector{fragment(0, "b", "g", "{}")}));
        CHECK((out[2].choice == 1 && out[2].chunk.tool_calls == std::vector{completion(0)}));
        CHECK((out[3].choice == 0 && out[3].chunk.tool_calls == std::vector{completion(0)}));
    }
    SECTION("a null finish_reason after the finish changes nothing (OpenRouter usage chunk)")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]})",
            R"({"choices":[{"index":0,"delta":{"content":""},"finish_reason":null}],"usage":{"prompt_tokens":3,"completion_tokens":1}})",
        });
        REQUIRE(out.size() == 2);
        CHECK(out[1].chunk.finish_reason.empty());
        CHECK_FALSE(out[1].chunk.is_complete);
        CHECK(out[1].chunk.usage == toolstream::token_usage{3, 1});
    }
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
    CHECK(rec.out.empty());
    CHECK_FALSE(conv.convert({{}, R"({"choices":[{"index":0,"delta":{"content":"b"}}]})"}, rec));
    REQUIRE(rec.out.size() == 1);
    CHECK(rec.out[0].chunk.content == "b");
}

TEST_CASE("openai_chat: the DONE sentinel and blank data are not chunks", "[openai_chat]")
{
    converter conv;
    recorder rec;
    for (const std::string_view data : {"[DONE]", " [DONE]\r\n", "", "  \n"})
        CHECK_FALSE(conv.convert({{}, data}, rec));
    CHECK(rec.out.empty());
}

TEST_CASE("openai_chat: SSE event names are ignored", "[openai_chat]")
{
    converter conv;
    recorder rec;
    REQUIRE_FALSE(conv.convert({"error", R"({"choices":[{"index":0,"delta":{"content":"a"}}]})"}, rec));
    REQUIRE_FALSE(conv.convert({"message", R"({"choices":[{"index":0,"delta":{"content":"b"}}]})"}, rec));
    REQUIRE(rec.out.size() == 2);
    CHECK(rec.out[0].chunk.content == "a");
    CHECK(rec.out[0].chunk.error.empty());
    CHECK(rec.out[1].chunk.content == "b");
}

TEST_CASE("openai_chat: the emitted chunk and its tool-call strings are reused", "[openai_chat]")
{
    // Steady-state conversion must not allocate: the same chunk object comes back each time,
    // and a fragment no longer than the previous one fits the storage already there.
    converter conv;
    const chunk_response* first = nullptr;
    const char* storage = nullptr;
    std::size_t checked = 0;
    auto emit = [&](std::size_t, const chunk_response& c) {
        REQUIRE(c.tool_calls.size() == 1);
        if (first == nullptr) {
            first = &c;
            return;
        }
        CHECK(&c == first);
        if (storage != nullptr) {
            CHECK(c.tool_calls[0].arguments_delta.data() == storage);
            ++checked;
        }
        storage = c.tool_calls[0].arguments_delta.data();
    };
    REQUIRE_FALSE(conv.convert({{}, R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":""}}]}}]})"}, emit));
    for (const std::string_view data : {
             R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"a fragment longer than the small-string buffer"}}]}}]})",
             R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"another fragment, longer than SSO"}}]}}]})",
             R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"and a third one beyond SSO size"}}]}}]})",
         })
        REQUIRE_FALSE(conv.convert({{}, data}, emit));
    CHECK(checked == 2);
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
    STATIC_REQUIRE(converter::normalise_finish("eos") == finish_kind::stop);   // unknown: a plain stop

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
