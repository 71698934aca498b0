// Every recorded provider stream, written as Anthropic Messages SSE and read back by the library's
// own anthropic pipeline, gives the recording's text, reasoning, tool calls (name, parsed
// arguments), stop reason, usage and error, at every chunking; a strict client (the reader)
// finds no broken invariant, and the non-streaming builder assembles the same message.
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/writers/anthropic_message_builder.hpp>
#include <toolstream/writers/anthropic_messages.hpp>

#include "catch_compat.hpp"
#include "support/fixtures.hpp"
#include "writers/anthropic_sse_reader.hpp"
#include "writers/anthropic_writer_support.hpp"

#include <boost/json/parse.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace test_anthropic_fixtures {

using namespace toolstream;

namespace {

/// What the library's anthropic pipeline reads from the writer's output (choice 0).
struct read_back {
    struct call {
        std::string id, name, arguments;
    };
    std::string text, reasoning;
    std::vector<call> calls;
    std::map<std::string, std::size_t, std::less<>> by_id;
    std::string finish_reason;
    std::optional<std::string> error;
    std::optional<token_usage> usage;

    void operator()(const segment_event& e)
    {
        if (e.type == segment_event_type::SEGMENT_CONTENT && e.segment_kind == segment_type::text)
            text += e.delta;
        else if (e.type == segment_event_type::SEGMENT_CONTENT && e.segment_kind == segment_type::reasoning)
            reasoning += e.delta;
        else if (e.type == segment_event_type::SEGMENT_START && is_tool_segment(e.segment_kind)) {
            by_id[std::string(e.segment_id)] = calls.size();
            calls.push_back({std::string(e.segment_id), std::string(tool_name_of(e)), {}});
        }
    }
    void operator()(const argument_fragment& f)
    {
        if (const auto it = by_id.find(f.segment_id); it != by_id.end())
            calls[it->second].arguments += f.json;
        else
            FAIL_CHECK("a fragment of a call never started");
    }
    void operator()(const choice_finished& c) { finish_reason = c.reason; }
    void operator()(const usage_reported& u) { usage = u.usage; }
    void operator()(const provider_failed& p) { error = std::string(p.message); }
};

read_back read_with_library(const std::string& sse)
{
    pipeline<anthropic, api_tool_call, read_back> p;
    (void)p.write(sse);
    (void)p.finish();
    return std::move(p.sink());
}

/// A recording through its provider's pipeline into both writers, in pieces of `chunk` bytes
/// (0: whole).
template<class Provider>
test::anthropic_both write_as_anthropic(const std::string& bytes, std::size_t chunk)
{
    pipeline<Provider, api_tool_call, test::anthropic_both> p;
    const std::size_t step = chunk == 0 ? bytes.size() + 1 : chunk;
    for (std::size_t at = 0; at < bytes.size(); at += step)
        (void)p.write(std::string_view(bytes).substr(at, step));
    (void)p.finish();
    p.sink().done();
    return std::move(p.sink());
}

test::anthropic_both write_as_anthropic(std::string_view provider, const std::string& bytes, std::size_t chunk)
{
    if (provider == "anthropic")
        return write_as_anthropic<anthropic>(bytes, chunk);
    if (provider == "openai_responses")
        return write_as_anthropic<openai_responses>(bytes, chunk);
    if (provider == "gemini")
        return write_as_anthropic<gemini>(bytes, chunk);
    if (provider == "mistral")
        return write_as_anthropic<mistral>(bytes, chunk);
    if (provider == "ollama")
        return write_as_anthropic<ollama>(bytes, chunk);
    return write_as_anthropic<openai_chat>(bytes, chunk);
}

/// The stop_reason a recording's choice must end with: its provider's raw reason normalised (as
/// each converter documents it; `tool_calls` for a choice that stopped after complete calls,
/// `length` for a stream that never said it was done), in Anthropic's words.
std::string expected_stop_reason(const test::fixture& f, const boost::json::object& choice)
{
    const std::string provider = test::provider_of(f);
    const auto& raw_value = choice.at("finish_reason");
    const std::string raw = raw_value.is_null() ? "" : std::string(raw_value.as_string());
    std::string kind;
    if (raw_value.is_null())
        kind = "length";
    else if (provider == "anthropic")
        kind = raw == "max_tokens" ? "length" : raw == "tool_use" ? "tool_calls" : raw == "refusal" ? "content_filter" : "stop";
    else if (provider == "gemini")
        kind = raw == "STOP" ? "stop" : raw == "MAX_TOKENS" ? "length" : raw == "SAFETY" ? "content_filter" : "error";
    else if (provider == "openai_responses")
        kind = raw == "incomplete" ? "length" : raw == "failed" ? "error" : "stop";
    else
        kind = raw == "length" ? "length" : raw == "tool_calls" ? "tool_calls" : raw == "content_filter" ? "content_filter" : "stop";
    if (kind == "stop" && !choice.at("tool_calls").as_array().empty())
        kind = "tool_calls";
    return kind == "length" ? "max_tokens" : kind == "tool_calls" ? "tool_use" : kind == "content_filter" ? "refusal" : "end_turn";
}

boost::json::value parsed_arguments(const std::string& text)
{
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        return boost::json::object();
    boost::json::error_code ec;
    auto v = boost::json::parse(text, ec);
    return ec ? boost::json::value(nullptr) : v;
}

void check_against_fixture(const test::fixture& f, test::anthropic_both& out)
{
    const std::string& sse = out.sse.output().bytes;
    const auto read = test::read_anthropic_sse(sse);
    INFO(sse.substr(0, 4000));
    for (const auto& v : read.violations)
        FAIL_CHECK(v);
    const auto back = read_with_library(sse);
    const auto& expected = f.expected.as_object();
    if (!expected.at("error").is_null()) {
        // The core words some stream errors itself: the message is the provider's, or within it.
        REQUIRE(read.error);
        REQUIRE(back.error);
        CHECK(*back.error == *read.error);
        const std::string_view want = expected.at("error").as_string();
        CHECK((want.find(*read.error) != std::string_view::npos || read.error->find(want) != std::string::npos));
        CHECK(!read.message_stopped);
        CHECK(out.builder.failed());
        CHECK(out.builder.error_message() == *read.error);
        return;
    }
    CHECK(!read.error);
    CHECK(!back.error);
    CHECK(read.message_stopped);
    const auto& choice = expected.at("choices").at(0).as_object();
    CHECK(back.text == choice.at("text").as_string());
    CHECK(back.reasoning == choice.at("reasoning").as_string());
    const std::string stop = expected_stop_reason(f, choice);
    CHECK(read.stop_reason() == stop);
    CHECK(back.finish_reason == stop);
    const auto& want = choice.at("tool_calls").as_array();
    REQUIRE(back.calls.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        const auto& w = want[i].as_object();
        const auto& got = back.calls[i];
        INFO("call " << i << ": " << got.arguments);
        CHECK(got.name == w.at("name").as_string());
        if (!w.at("id").is_null())
            CHECK(got.id == w.at("id").as_string());
        else
            CHECK(!got.id.empty());
        if (!w.at("arguments").is_null())
            CHECK(parsed_arguments(got.arguments) == w.at("arguments"));
        else if (stop == "max_tokens")   // cut: the text as far as it came
            CHECK(got.arguments == w.at("arguments_raw").as_string());
        else   // free-form input (a custom tool): the text as the member `input`
            CHECK(parsed_arguments(got.arguments) == boost::json::object{{"input", w.at("arguments_raw")}});
    }
    if (!expected.at("usage").is_null()) {
        REQUIRE(back.usage);
        CHECK(back.usage->input_tokens == expected.at("usage").at("input_tokens").to_number<std::uint64_t>());
        CHECK(back.usage->output_tokens == expected.at("usage").at("output_tokens").to_number<std::uint64_t>());
    }
    CHECK(!out.builder.failed());
    CHECK(out.builder.message() == read.message);
}

} // namespace

TEST_CASE("anthropic sse: every recorded stream reads back as its SDK read it, at every chunking",
          "[anthropic-sse][conformance]")
{
    const auto fixtures = test::load_fixtures();
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: recorded streams skipped");
        return;
    }
    for (const auto& f : fixtures) {
        INFO(f.name);
        const std::string bytes = test::read_file(f.stream_path);
        std::optional<boost::json::object> whole;
        for (std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{64}}) {
            INFO("chunk " << chunk);
            auto out = write_as_anthropic(test::provider_of(f), bytes, chunk);
            check_against_fixture(f, out);
            if (out.sse.failed())
                continue;
            // What a client assembles does not depend on the chunking (the deltas may split otherwise).
            const auto message = test::read_anthropic_sse(out.sse.output().bytes).message;
            if (!whole)
                whole = message;
            else
                CHECK(message == *whole);
        }
    }
}

} // namespace test_anthropic_fixtures
