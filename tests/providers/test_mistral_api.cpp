// provider_converter<mistral>: Mistral's differences from Chat Completions, then its recorded streams.
#include <toolstream/providers/mistral.hpp>
#include <toolstream/transport/sse.hpp>

#include "catch_compat.hpp"
#include "support/chunk_summary.hpp"
#include "support/converter_replay.hpp"
#include "support/fixtures.hpp"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace test_mistral_api {

namespace {

using toolstream::chunk_response;
using toolstream::tool_call_delta;
using converter = toolstream::provider_converter<toolstream::mistral>;

std::vector<toolstream::test::emitted_chunk> convert_all(std::initializer_list<std::string_view> payloads)
{
    return toolstream::test::convert_all<toolstream::mistral>(payloads);
}

} // namespace

TEST_CASE("mistral: satisfies the converter contract", "[mistral]")
{
    STATIC_REQUIRE(toolstream::provider_traits<toolstream::mistral>);
    STATIC_REQUIRE(converter::name == "mistral");
    STATIC_REQUIRE(converter::wire_framing == toolstream::framing::sse);
}

TEST_CASE("mistral: content as a string or as typed parts", "[mistral]")
{
    SECTION("a plain string, as most Mistral models send")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]})",
            R"({"choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]})",
        });
        REQUIRE(out.size() == 1);
        CHECK(out[0].chunk.content == "Hello");
    }
    SECTION("thinking parts are reasoning, text parts are content (Magistral)")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"Let me "},{"type":"text","text":"think."}]}]}}]})",
            R"({"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"4"}]}}]})",
        });
        REQUIRE(out.size() == 2);
        CHECK(out[0].chunk.reasoning == "Let me think.");
        CHECK(out[0].chunk.content.empty());
        CHECK(out[1].chunk.content == "4");
        CHECK(out[1].chunk.reasoning.empty());
    }
    SECTION("several parts in one delta, in order; other part types carry no text")
    {
        const auto out = convert_all({
            R"({"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"a"},{"type":"thinking","thinking":[{"type":"text","text":"r"}]},{"type":"image_url","image_url":"https://x/y.png"},{"type":"text","text":"b"},{"type":"reference","reference_ids":[1]}]}}]})",
        });
        REQUIRE(out.size() == 1);
        CHECK(out[0].chunk.content == "ab");
        CHECK(out[0].chunk.reasoning == "r");
    }
    SECTION("a thinking part given as a plain string")
    {
        const auto out = convert_all({R"({"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":"hmm"}]}}]})"});
        REQUIRE(out.size() == 1);
        CHECK(out[0].chunk.reasoning == "hmm");
    }
}

TEST_CASE("mistral: whole calls in one chunk with finish and usage", "[mistral]")
{
    // Parallel calls in one array, no `index` and no `type`, 9-character ids.
    const auto out = convert_all({
        R"({"choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"id":"yBvJuId6u","function":{"name":"search","arguments":"{\"query\": \"Detroit\"}"}},{"id":"ihQrVBDfy","function":{"name":"weather","arguments":"{\"city\": \"Detroit\"}"}}]},"finish_reason":"tool_calls","logprobs":null}],"usage":{"prompt_tokens":124,"total_tokens":146,"completion_tokens":22}})",
    });
    REQUIRE(out.size() == 1);
    const chunk_response& c = out[0].chunk;
    CHECK(c.tool_calls
          == std::vector<tool_call_delta>{
              {0, "yBvJuId6u", "search", "{\"query\": \"Detroit\"}", false},
              {1, "ihQrVBDfy", "weather", "{\"city\": \"Detroit\"}", false},
              {0, "", "", "", true},
              {1, "", "", "", true},
          });
    CHECK(c.finish_reason == "tool_calls");
    CHECK(c.is_complete);
    CHECK(c.usage == toolstream::token_usage{124, 22});
}

TEST_CASE("mistral: incremental calls with an empty name on the continuation (GLM)", "[mistral]")
{
    const auto out = convert_all({
        R"({"choices":[{"index":0,"delta":{"tool_calls":[{"id":"chatcmpl-tool-9f","type":"function","function":{"name":"webSearchTool","arguments":""},"index":0}],"index":0,"content":""}}]})",
        R"({"choices":[{"index":0,"delta":{"tool_calls":[{"type":"function","function":{"name":"","arguments":"{\"query\": \"Berlin\"}"},"index":0}],"index":0,"content":""}}]})",
        R"({"choices":[{"index":0,"delta":{"index":0,"content":""},"finish_reason":"tool_calls"}]})",
    });
    REQUIRE(out.size() == 3);
    CHECK(out[0].chunk.tool_calls == std::vector<tool_call_delta>{{0, "chatcmpl-tool-9f", "webSearchTool", "", false}});
    CHECK(out[1].chunk.tool_calls == std::vector<tool_call_delta>{{0, "", "", "{\"query\": \"Berlin\"}", false}});
    CHECK(out[2].chunk.tool_calls == std::vector<tool_call_delta>{{0, "", "", "", true}});
}

TEST_CASE("mistral: invalid payloads are rejected", "[mistral]")
{
    converter conv;
    std::size_t emitted_count = 0;
    auto emit = [&](std::size_t, const chunk_response&) { ++emitted_count; };
    CHECK(conv.convert({{}, R"({"choices":[)"}, emit) == toolstream::error::invalid_payload);
    CHECK_FALSE(conv.convert({{}, "[DONE]"}, emit));
    CHECK(emitted_count == 0);
}

TEST_CASE("mistral: recorded streams", "[mistral][fixtures]")
{
    const auto fixtures = toolstream::test::load_fixtures({"mistral"});
    if (!toolstream::test::fixtures_dir()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: recorded streams skipped");
        return;
    }
    CHECK(fixtures.size() >= 4);
    for (const auto& f : fixtures) {
        INFO(f.name);
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
        CHECK(toolstream::test::compare_with_expected(summary.to_json(), f.expected, /*compare_raw=*/true) == "");
    }
}

TEST_CASE("mistral: the response's id and model come once; finish reasons are normalised", "[mistral][finish]")
{
    using toolstream::finish_kind;
    STATIC_REQUIRE(converter::normalise_finish("stop") == finish_kind::stop);
    STATIC_REQUIRE(converter::normalise_finish("length") == finish_kind::length);
    STATIC_REQUIRE(converter::normalise_finish("model_length") == finish_kind::length);
    STATIC_REQUIRE(converter::normalise_finish("tool_calls") == finish_kind::tool_calls);
    STATIC_REQUIRE(converter::normalise_finish("error") == finish_kind::error);
    STATIC_REQUIRE(converter::normalise_finish("content_filter") == finish_kind::content_filter);
    STATIC_REQUIRE(converter::normalise_finish("other") == finish_kind::error);   // unknown: never a clean stop

    const auto out = convert_all({
        R"({"id":"b399","object":"chat.completion.chunk","model":"mistral-small-latest","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]})",
        R"({"id":"b399","model":"mistral-small-latest","choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"id":"gSIMJiOkT","function":{"name":"weather","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1,"completion_tokens":2}})",
        R"({"id":"b399","model":"mistral-small-latest","choices":[{"index":0,"delta":{},"finish_reason":"model_length"}]})",
    });
    REQUIRE(out.size() == 3);
    CHECK(out[0].chunk.response_id == "b399");
    CHECK(out[0].chunk.model == "mistral-small-latest");
    CHECK(out[1].chunk.response_id.empty());
    CHECK(out[1].chunk.finish == finish_kind::tool_calls);
    CHECK(out[2].chunk.finish_reason == "model_length");
    CHECK(out[2].chunk.finish == finish_kind::length);
}

} // namespace test_mistral_api
