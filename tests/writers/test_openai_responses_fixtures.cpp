// openai_responses_writer and openai_response_builder on every recorded provider stream: what the
// writer wrote, read back by the library's own Responses reader, is what the provider said.
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/mistral.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/providers/openai_responses.hpp>

#include "catch_compat.hpp"
#include "support/fixtures.hpp"
#include "writers/responses_sse_reader.hpp"

#include <optional>
#include <string>

namespace test_openai_responses_fixtures {

using namespace toolstream;
using test::responses_run, test::run_responses;

namespace {

std::optional<responses_run> run_provider(std::string_view provider, std::string_view bytes, std::size_t chunk)
{
    if (provider == "openai_chat")
        return run_responses<openai_chat>(bytes, chunk);
    if (provider == "anthropic")
        return run_responses<anthropic>(bytes, chunk);
    if (provider == "gemini")
        return run_responses<gemini>(bytes, chunk);
    if (provider == "mistral")
        return run_responses<mistral>(bytes, chunk);
    if (provider == "openai_responses")
        return run_responses<openai_responses>(bytes, chunk);
    return std::nullopt;   // no fixture of another provider yet
}

/// The finish choice 0 must come back with: the original's, except that a call that did not END
/// complete fails the response, unless a length finish says why.
finish_kind expected_finish(const responses_run& r)
{
    const finish_kind kind = r.sink.finish.value_or(finish_kind::length);
    for (const auto& inv : r.summary.choices.at(0).tool_calls)
        if (!inv.is_complete() && kind != finish_kind::length)
            return finish_kind::error;
    return kind;
}

/// The stream `original` wrote, read back by the library's own Responses pipeline, gives choice
/// 0's text, reasoning, calls, finish, usage and error; the builder's object is the streamed one.
void check_round_trip(responses_run& original, std::size_t chunk)
{
    const std::string& sse = original.sink.w.output().bytes;
    const auto read = test::read_responses_sse(sse);
    for (const auto& v : read.violations)
        FAIL_CHECK(v);
    auto back = run_responses<openai_responses>(sse, chunk);
    const auto &o = original.summary.choices.at(0), &b = back.summary.choices.at(0);
    CHECK(b.text == o.text);
    CHECK(b.reasoning == o.reasoning);
    const finish_kind expected = expected_finish(original);
    CHECK(back.sink.finish == expected);
    CHECK(original.sink.w.failed() == (expected == finish_kind::error));
    CHECK(original.sink.builder.failed() == (expected == finish_kind::error));
    if (expected == finish_kind::error) {
        REQUIRE(back.summary.error);
        CHECK(back.summary.error->find(original.summary.error.value_or("")) != std::string::npos);
        CHECK(read.terminal == "response.failed");
        return;
    }
    REQUIRE(b.tool_calls.size() == o.tool_calls.size());
    for (std::size_t i = 0; i < o.tool_calls.size(); ++i) {
        const auto &got = b.tool_calls[i], &want = o.tool_calls[i];
        CHECK((got.id == want.id && got.name == want.name && got.free_form == want.free_form));
        // A complete function call without arguments is written `{}`, which clients parse.
        const bool no_arguments = want.is_complete() && !want.free_form
                                  && want.arguments_raw.find_first_not_of(" \t\r\n") == std::string::npos;
        CHECK(got.arguments_raw == (no_arguments ? want.arguments_raw + "{}" : want.arguments_raw));
        if (want.is_complete())
            CHECK((got.is_complete() && got.arguments == want.arguments));
        for (const auto& item : read.items)   // the reader completes a call at output_item.done, whatever it says
            if (item.call_id == want.id)
                CHECK(item.done.at("status") == (want.is_complete() ? "completed" : "incomplete"));
    }
    CHECK(back.summary.usage == original.summary.usage);
    CHECK(boost::json::value(original.sink.builder.response()) == read.response);
}

} // namespace

TEST_CASE("openai responses: every recorded stream reads back through the library's Responses reader",
          "[openai-responses][conformance]")
{
    const auto fixtures = test::load_fixtures();
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: recorded streams skipped");
        return;
    }
    std::size_t custom_tools = 0, cut_calls = 0;
    for (const auto& f : fixtures) {
        const std::string bytes = test::read_file(f.stream_path);
        for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{7}}) {
            INFO(f.name << " in pieces of " << chunk);
            auto original = run_provider(test::provider_of(f), bytes, chunk);
            REQUIRE(original);
            check_round_trip(*original, chunk);
            for (const auto& inv : original->summary.choices.at(0).tool_calls) {
                custom_tools += inv.free_form ? 1 : 0;
                cut_calls += inv.is_complete() ? 0 : 1;
            }
        }
    }
    CHECK(custom_tools > 0);   // the custom tool fixture's call went through as one
    CHECK(cut_calls > 0);      // and calls cut by max_tokens as well
}

} // namespace test_openai_responses_fixtures
