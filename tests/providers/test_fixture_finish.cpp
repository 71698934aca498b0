// Every recorded stream, through its dialect's decoder and converter: each raw finish reason
// comes with its normalised `finish`, an error the stream reports finishes with `error`, and the
// response's id and model are announced.
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/mistral.hpp>
#include <toolstream/providers/ollama.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/providers/openai_responses.hpp>
#include <toolstream/transport/ndjson.hpp>
#include <toolstream/transport/sse.hpp>

#include "catch_compat.hpp"
#include "support/chunk_recorder.hpp"
#include "support/fixtures.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace test_fixture_finish {

namespace {

using namespace toolstream;

/// The raw reasons the recordings hold, normalised by hand (the converters' tables are not used).
const std::map<std::string, finish_kind, std::less<>> expected_finish = {
    {"stop", finish_kind::stop},           {"length", finish_kind::length},
    {"tool_calls", finish_kind::tool_calls}, {"end_turn", finish_kind::stop},
    {"tool_use", finish_kind::tool_calls}, {"max_tokens", finish_kind::length},
    {"refusal", finish_kind::content_filter}, {"STOP", finish_kind::stop},
    {"completed", finish_kind::stop},      {"failed", finish_kind::error},
};

struct replayed {
    test::chunk_recorder recorder{.last_choice = std::nullopt};
    std::size_t rejected = 0;
};

template<class Provider>
replayed replay(const std::string& body)
{
    using converter_type = provider_converter<Provider>;
    std::conditional_t<converter_type::wire_framing == framing::sse, sse_decoder, ndjson_decoder> decoder;
    converter_type converter;
    replayed out;
    auto visit = [&](const wire_event& ev) { out.rejected += converter.convert(ev, out.recorder) ? 1 : 0; };
    CHECK(!decoder.write(body, visit));
    CHECK(!decoder.finish(visit));
    converter.finish(out.recorder);
    return out;
}

replayed replay_fixture(const test::fixture& f)
{
    const std::string body = test::read_file(f.stream_path);
    const auto dialect = f.expected.at("provider").as_string();
    if (dialect == "anthropic")
        return replay<anthropic>(body);
    if (dialect == "openai_responses")
        return replay<openai_responses>(body);
    if (dialect == "gemini")
        return replay<gemini>(body);
    if (dialect == "mistral")
        return replay<mistral>(body);
    if (dialect == "ollama")
        return replay<ollama>(body);
    return replay<openai_chat>(body);   // OpenAI and the vendors that speak its dialect
}

} // namespace

TEST_CASE("fixtures: every finish reason is normalised, errors finish with error, responses are announced",
          "[providers][finish][fixtures]")
{
    const auto fixtures = test::load_fixtures();
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: fixtures skipped");
        return;
    }
    std::size_t finishes = 0;
    for (const auto& f : fixtures) {
        INFO(f.name);
        const replayed out = replay_fixture(f);
        std::size_t announced_models = 0;
        std::size_t announced_ids = 0;
        bool error_finish = false;
        for (const auto& [choice, c] : out.recorder.emitted) {
            announced_models += !c.model.empty();
            announced_ids += !c.response_id.empty();
            error_finish = error_finish || c.finish == finish_kind::error;
            if (c.finish_reason.empty())
                continue;
            INFO("choice " << choice << " finish_reason " << c.finish_reason);
            const auto want = expected_finish.find(c.finish_reason);
            REQUIRE(want != expected_finish.end());   // a reason this table lacks: add it
            CHECK(c.finish == want->second);
            ++finishes;
        }
        // Each choice the oracle saw finish ends with a normalised finish here too.
        for (const auto& choice : f.expected.at("choices").as_array()) {
            const auto& reason = choice.at("finish_reason");
            if (reason.is_null())
                continue;
            const std::size_t index = choice.at("index").to_number<std::size_t>();
            const chunk_response* last = nullptr;
            for (const auto& [at, c] : out.recorder.emitted)
                if (at == index && c.finish)
                    last = &c;
            REQUIRE(last != nullptr);
            CHECK(last->finish_reason == reason.as_string());
        }
        if (!f.expected.at("error").is_null())
            CHECK(error_finish);
        // Every recording names its model; Anthropic and Responses announce each message or
        // response of the stream, the other dialects the first one only.
        CHECK(announced_models >= 1);
        CHECK(announced_ids >= 1);
        const auto dialect = f.expected.at("provider").as_string();
        if (dialect != "anthropic" && dialect != "openai_responses") {
            CHECK(announced_models <= 1);
            CHECK(announced_ids <= 1);
        }
    }
    CHECK(finishes >= fixtures.size() - 2);   // two recordings end in an error without a reason
}

} // namespace test_fixture_finish
