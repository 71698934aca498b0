// provider_converter<openai_chat>, tool calls: fragments assembled by index, ids and names, call
// numbering, arguments passed on as received, completion at a finish_reason, and the reuse of the
// emitted chunk's strings.
#include <toolstream/providers/openai_chat.hpp>

#include "catch_compat.hpp"
#include "providers/openai_chat_support.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace test_openai_chat_tool_calls {

using namespace toolstream::test::openai_chat_support;

namespace {

using toolstream::tool_call_delta;

tool_call_delta fragment(std::size_t index, std::string id, std::string name, std::string args)
{
    return {index, std::move(id), std::move(name), std::move(args), false};
}

tool_call_delta completion(std::size_t index)
{
    return {index, {}, {}, {}, true};
}

} // namespace

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

} // namespace test_openai_chat_tool_calls
