// Every recorded stream through the full pipeline must equal its SDK-produced .expected.json,
// fed whole, at 1, 7 and 64 bytes, and at a random chunking.
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/mistral.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/providers/openai_responses.hpp>

#include "catch_compat.hpp"
#include "support/chunk_summary.hpp"
#include "support/fixtures.hpp"

#include <random>

namespace test_fixtures {

using namespace toolstream;

namespace {

template<class Provider>
boost::json::object replay(std::string_view bytes, std::vector<std::size_t> sizes)
{
    pipeline_options options;
    options.collect_text = true;
    pipeline<Provider, api_tool_call, null_sink> p(null_sink{}, options);
    std::size_t at = 0;
    for (std::size_t i = 0; at < bytes.size(); ++i) {
        const std::size_t n = std::min(sizes[i % sizes.size()], bytes.size() - at);
        (void)p.write(bytes.substr(at, n));
        at += n;
    }
    (void)p.finish();
    return to_json(p.summary(), provider_converter<Provider>::name, "sse");
}

template<class Provider>
void check_fixture(const test::fixture& f, bool compare_raw)
{
    const std::string bytes = test::read_file(f.stream_path);
    std::mt19937 rng(static_cast<unsigned>(bytes.size()));
    std::vector<std::size_t> random_sizes;
    for (int i = 0; i < 64; ++i)
        random_sizes.push_back(1 + rng() % 97);
    const std::vector<std::pair<const char*, std::vector<std::size_t>>> chunkings{
        {"whole", {bytes.size() + 1}}, {"1-byte", {1}}, {"7-byte", {7}}, {"64-byte", {64}}, {"random", random_sizes}};
    for (const auto& [label, sizes] : chunkings) {
        const auto got = replay<Provider>(bytes, sizes);
        INFO(f.name << " fed " << label << "\n got: " << boost::json::serialize(got));
        CHECK(test::compare_with_expected(got, f.expected, compare_raw) == "");
    }
}

} // namespace

TEST_CASE("conformance: every recorded stream equals its expected result at every chunking", "[conformance]")
{
    const auto fixtures = test::load_fixtures();
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set or holds no fixtures: conformance skipped");
        return;
    }
    std::size_t checked = 0;
    for (const auto& f : fixtures) {
        const auto& d = f.provider_dir;
        if (d == "openai_chat" || d == "deepseek" || d == "groq" || d == "xai" || d == "alibaba")
            check_fixture<openai_chat>(f, true);
        else if (d == "mistral")
            check_fixture<mistral>(f, true);
        else if (d == "anthropic")
            check_fixture<anthropic>(f, true);
        else if (d == "openai_responses")
            check_fixture<openai_responses>(f, true);
        else if (d == "gemini")
            check_fixture<gemini>(f, false);
        else
            FAIL("no provider for fixture folder " << d);
        ++checked;
    }
    CHECK(checked == fixtures.size());
    CHECK(checked >= 58);
}

} // namespace test_fixtures
