// Every recorded provider stream, written as OpenAI SSE and read back, gives the recording's
// text, reasoning, tool calls (id, name, parsed arguments), finish reason and error, at every
// chunking; the non-streaming chat.completion says the same.
#include <toolstream/writers/openai_sse.hpp>

#include "catch_compat.hpp"
#include "support/fixtures.hpp"
#include "writers/openai_sse_reader.hpp"
#include "writers/writer_support.hpp"

#include <random>
#include <string>

namespace test_openai_fixtures {

using namespace toolstream;

namespace {

/// The Chat Completions finish reason a fixture's choice must come out with: its provider's raw
/// reason normalised (as each converter documents it), `tool_calls` for a choice that stopped
/// after complete calls, `length` for a stream that never said it was done.
std::string expected_finish(const test::fixture& f, const boost::json::object& choice)
{
    const auto& raw_value = choice.at("finish_reason");
    if (raw_value.is_null())
        return "length";
    const std::string raw(raw_value.as_string());
    const std::string provider = test::provider_of(f);
    std::string kind = "stop";
    if (provider == "anthropic") {
        kind = raw == "max_tokens" || raw == "model_context_window_exceeded" ? "length"
             : raw == "tool_use"                                              ? "tool_calls"
             : raw == "refusal"                                               ? "content_filter"
                                                                              : "stop";
    } else if (provider == "gemini") {
        kind = raw == "STOP" ? "stop" : raw == "MAX_TOKENS" ? "length" : raw == "SAFETY" ? "content_filter" : "error";
    } else if (provider == "ollama") {
        kind = raw == "length" ? "length" : "stop";
    } else if (provider == "openai_responses") {
        kind = raw == "incomplete" ? "length" : raw == "failed" ? "error" : "stop";
    } else {   // Chat Completions and its dialects (mistral too)
        kind = raw == "length" || raw == "model_length" ? "length"
             : raw == "tool_calls" || raw == "function_call" ? "tool_calls"
             : raw == "content_filter"                       ? "content_filter"
             : raw == "error"                                ? "error"
                                                             : "stop";
    }
    if (kind == "stop")
        for (const auto& call : choice.at("tool_calls").as_array())
            if (!call.at("arguments").is_null())
                return "tool_calls";
    // A completed Responses response completed its calls, free-form custom tools included
    // (their input is no JSON: `arguments` null).
    if (kind == "stop" && provider == "openai_responses" && !choice.at("tool_calls").as_array().empty())
        return "tool_calls";
    return kind;
}

/// True when the converters give the normalised finish (the pipeline's fallback is `length`
/// for every choice otherwise): then each fixture's finish is checked against expected_finish().
bool converters_normalise_finish()
{
    const auto out = test::provider_to_openai(
        "openai_chat", "api_tool_call",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}\n\n");
    return test::read_openai_sse(out.sse.output().bytes).choices.at(0).finish_reason == "stop";
}

std::optional<boost::json::value> parsed_or_null(std::string_view text)
{
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return boost::json::value(boost::json::object());
    boost::json::error_code ec;
    auto v = boost::json::parse(text, ec);
    if (ec)
        return boost::json::value(nullptr);
    return v;
}

void check_against_fixture(const test::fixture& f, const test::read_stream& read, bool check_finish)
{
    for (const auto& v : read.violations)
        FAIL_CHECK(v);
    const auto& expected = f.expected.as_object();
    if (!expected.at("error").is_null()) {
        REQUIRE(read.error);
        // The core words some stream errors itself: the message is the provider's, or within it.
        const std::string_view message = read.error->at("message").as_string();
        const std::string_view want = expected.at("error").as_string();
        CHECK(!message.empty());
        CHECK((want.find(message) != std::string_view::npos || message.find(want) != std::string_view::npos));
        return;   // the SDKs throw: what came before the error is not a result
    }
    CHECK(!read.error);
    CHECK(read.done);
    for (const auto& choice_value : expected.at("choices").as_array()) {
        const auto& choice = choice_value.as_object();
        const auto index = static_cast<std::size_t>(choice.at("index").as_int64());
        INFO("choice " << index);
        REQUIRE(read.choices.contains(index));
        const auto& got = read.choices.at(index);
        CHECK(got.content == choice.at("text").as_string());
        CHECK(got.reasoning == choice.at("reasoning").as_string());
        const auto calls = read.calls_of(index);
        const auto& want = choice.at("tool_calls").as_array();
        REQUIRE(calls.size() == want.size());
        for (std::size_t i = 0; i < calls.size(); ++i) {
            const auto& w = want[i].as_object();
            if (!w.at("id").is_null())
                CHECK(calls[i].id == w.at("id").as_string());
            else
                CHECK(!calls[i].id.empty());
            CHECK(calls[i].name == w.at("name").as_string());
            CHECK(*parsed_or_null(calls[i].arguments) == w.at("arguments"));
        }
        if (check_finish)
            CHECK(got.finish_reason == expected_finish(f, choice));
        else
            CHECK(got.finish_reason.has_value());
    }
    if (!expected.at("usage").is_null()) {
        REQUIRE(read.usage);
        CHECK(read.usage->at("prompt_tokens") == expected.at("usage").at("input_tokens"));
        CHECK(read.usage->at("completion_tokens") == expected.at("usage").at("output_tokens"));
    }
}

/// The non-streaming object agrees with the stream a client read.
void check_completion(openai_completion_builder& builder, const test::read_stream& read)
{
    if (read.error) {
        CHECK(builder.failed());
        return;
    }
    const auto completion = builder.completion();
    CHECK(completion.at("object") == "chat.completion");
    CHECK(completion.at("id") == "chatcmpl-t");
    const auto& choices = completion.at("choices").as_array();
    REQUIRE(choices.size() == read.choices.size());
    for (const auto& c : choices) {
        const auto& got = read.choices.at(c.at("index").to_number<std::size_t>());
        const auto& message = c.at("message").as_object();
        CHECK(message.at("role") == "assistant");
        if (got.content.empty())
            CHECK(message.at("content").is_null());
        else
            CHECK(message.at("content") == got.content.c_str());
        if (!got.reasoning.empty())
            CHECK(message.at("reasoning_content") == got.reasoning.c_str());
        CHECK(c.at("finish_reason") == got.finish_reason.value_or("").c_str());
        std::size_t i = 0;
        if (const auto* calls = message.if_contains("tool_calls"))
            for (const auto& [index, call] : got.calls) {
                const auto& built = calls->as_array().at(i++);
                CHECK(built.at("id") == call.id.c_str());
                CHECK(built.at("function").at("name") == call.name.c_str());
                CHECK(built.at("function").at("arguments") == call.arguments.c_str());
            }
        CHECK(i == got.calls.size());
    }
    CHECK(completion.contains("usage") == read.usage.has_value());
}

} // namespace

TEST_CASE("openai sse: every recorded stream reads back as its SDK read it, at every chunking",
          "[openai-sse][conformance]")
{
    const auto fixtures = test::load_fixtures();
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: recorded streams skipped");
        return;
    }
    const bool check_finish = converters_normalise_finish();
    if (!check_finish)
        WARN("the converters do not normalise finish reasons yet: finish reasons checked for presence only");
    std::mt19937 rng(2024);
    for (const auto& f : fixtures) {
        INFO(f.name);
        const std::string bytes = test::read_file(f.stream_path);
        std::string first;
        for (std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{64},
                                  std::size_t{1 + rng() % 300}}) {
            INFO("chunk " << chunk);
            auto out = test::provider_to_openai(test::provider_of(f), "api_tool_call", bytes, chunk);
            const auto read = test::read_openai_sse(out.sse.output().bytes);
            check_against_fixture(f, read, check_finish);
            if (chunk == 0) {
                check_completion(out.completion, read);
                first = out.sse.output().bytes;
            } else if (read.error.has_value() == false) {
                // Chunk-invariant in what a client assembles (deltas may split differently).
                const auto whole = test::read_openai_sse(first);
                for (const auto& [index, ch] : whole.choices) {
                    CHECK(read.choices.at(index).content == ch.content);
                    CHECK(read.choices.at(index).reasoning == ch.reasoning);
                    CHECK(read.choices.at(index).finish_reason == ch.finish_reason);
                    const auto a = read.calls_of(index), b = whole.calls_of(index);
                    REQUIRE(a.size() == b.size());
                    for (std::size_t i = 0; i < a.size(); ++i)
                        CHECK((a[i].id == b[i].id && a[i].name == b[i].name && a[i].arguments == b[i].arguments));
                }
            }
        }
    }
}

} // namespace test_openai_fixtures
