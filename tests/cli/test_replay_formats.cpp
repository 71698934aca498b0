// toolstream-replay's `format` and `warnings` (issue 42 §5): `--parser auto` says which format it
// read, and a named parser that left another format's tool-call markup in the text says so.
#include "catch_compat.hpp"
#include "cli/replay_process.hpp"

#include <boost/json/parse.hpp>

#include <string>

namespace test_replay_formats {

#ifdef TOOLSTREAM_REPLAY_PATH

namespace {

// What Qwen3 (not Coder) writes: Hermes JSON in <tool_call>.
const std::string qwen3_answer = "Let me look.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": "
                                 "{\"city\": \"Paris\"}}\n</tool_call>";

struct summary_run {
    toolstream::test::replay_run run;
    boost::json::object summary;
};

summary_run summary_of(const std::string& parser, const std::string& text)
{
    summary_run r;
    r.run = toolstream::test::run_process(TOOLSTREAM_REPLAY_PATH, {"--provider", "text", "--parser", parser, "-"}, text);
    INFO("stdout: " << r.run.out << "\nstderr: " << r.run.err);
    REQUIRE(r.run.exit_code == 0);
    r.summary = boost::json::parse(r.run.out).as_object();
    return r;
}

} // namespace

TEST_CASE("replay: --parser auto reads the format the text is in, and reports it", "[cli][auto]")
{
    const auto r = summary_of("auto", qwen3_answer);
    CHECK(r.summary.at("format") == "hermes");
    const auto& choice = r.summary.at("choices").as_array().at(0).as_object();
    CHECK(choice.at("format") == "hermes");
    CHECK(choice.at("text") == "Let me look.\n");
    REQUIRE(choice.at("tool_calls").as_array().size() == 1);
    CHECK(choice.at("tool_calls").as_array()[0].at("name") == "get_weather");
    CHECK(r.summary.at("warnings").as_array().empty());

    const auto plain = summary_of("auto", "No tools needed: 2 + 2 = 4 {and} [that] is <b>all</b>.");
    CHECK(plain.summary.at("format").is_null());
    CHECK(plain.summary.at("warnings").as_array().empty());
}

TEST_CASE("replay: another format's call markup left in the text is a warning, exit status 0", "[cli][auto]")
{
    // A Qwen3 model read with --parser qwen3 (vLLM's name of the Qwen3-Coder parser): no calls,
    // the markup stays text, and the summary and stderr say which format it is.
    for (const std::string parser : {"qwen3", "api_tool_call"}) {
        INFO("--parser " << parser);
        const auto r = summary_of(parser, qwen3_answer);
        const auto& choice = r.summary.at("choices").as_array().at(0).as_object();
        CHECK(choice.at("tool_calls").as_array().empty());
        const auto& warnings = r.summary.at("warnings").as_array();
        REQUIRE(warnings.size() == 1);
        CHECK(warnings[0].as_string().find("format hermes") != boost::json::string::npos);
        CHECK(r.run.err.find("warning: choice 0: the text holds tool-call markup of format hermes")
              != std::string::npos);
    }
    // The right parser, or auto, leaves nothing to warn about.
    for (const std::string parser : {"hermes", "auto"}) {
        INFO("--parser " << parser);
        const auto r = summary_of(parser, qwen3_answer);
        CHECK(r.summary.at("warnings").as_array().empty());
        CHECK(r.run.err.empty());
    }
}

#endif

} // namespace test_replay_formats
