// toolstream-replay's output is valid UTF-8 JSON in every --emit mode, and a stream that is not
// the provider's makes it exit 1 (issue 18 §3, §4).
#include "catch_compat.hpp"
#include "support/fixtures.hpp"
#include "support/valid_output.hpp"

#include <boost/json/parse.hpp>

#include <cstdio>
#include <random>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace test_replay_output {

#ifdef TOOLSTREAM_REPLAY_PATH

namespace {

struct replay_run {
    int exit_code = -1;
    std::string out;
};

// Runs toolstream-replay with `args` on `input` (written to a temporary file).
replay_run replay(const std::string& args, const std::string& input)
{
    char path[] = "/tmp/toolstream-output-XXXXXX";
    const int fd = ::mkstemp(path);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, input.data(), input.size()) == static_cast<ssize_t>(input.size()));
    ::close(fd);
    const std::string command = std::string(TOOLSTREAM_REPLAY_PATH) + " " + args + " " + path + " 2>/dev/null";
    replay_run r;
    std::FILE* p = ::popen(command.c_str(), "r");
    REQUIRE(p != nullptr);
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
        r.out.append(buf, n);
    const int status = ::pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    ::unlink(path);
    return r;
}

std::string output_problem(const std::string& emit, const std::string& out)
{
    return emit == "openai-sse" ? toolstream::test::sse_body_problem(out) : toolstream::test::json_lines_problem(out);
}

} // namespace

TEST_CASE("replay: every --emit mode writes valid UTF-8 JSON for split and invalid bytes", "[cli][utf8]")
{
    const std::string euro = "Hello \xE2\x82\xAC world <tool_call>\n<function=get>\n<parameter=x>\xE2\x82\xAC\xE2\x82\xAC"
                             "</parameter>\n</function>\n</tool_call>";
    std::mt19937 rng(10);
    std::string noise(200000, '\0');
    for (char& c : noise)
        c = static_cast<char>(rng());
    for (const std::string emit : {"events", "summary", "invocations", "tarko", "openai-sse"}) {
        for (const std::string chunk : {"1", "3", "4096"}) {
            CAPTURE(emit, chunk);
            const auto split = replay("--provider text --parser qwen3_coder --emit " + emit + " --chunk " + chunk, euro);
            CHECK(split.exit_code == 0);
            CHECK(output_problem(emit, split.out) == "");
            CHECK(split.out.find("\xEF\xBF\xBD") == std::string::npos);   // nothing was invalid
            const auto binary = replay("--provider text --parser hermes --emit " + emit + " --chunk " + chunk, noise);
            CHECK(binary.exit_code == 0);
            CHECK(output_problem(emit, binary.out) == "");
        }
    }
}

TEST_CASE("replay: a stream of another provider, binary or empty exits 1", "[cli][mismatch]")
{
    const auto dir = toolstream::test::fixtures_dir();
    if (!dir) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: skipped");
        return;
    }
    const std::string anthropic = toolstream::test::read_file(*dir / "anthropic" / "text.sse");
    for (const std::string provider : {"openai_chat", "gemini", "openai_responses", "ollama"}) {
        CAPTURE(provider);
        const auto r = replay("--provider " + provider, anthropic);
        CHECK(r.exit_code == 1);
        const auto summary = boost::json::parse(r.out);
        CHECK(summary.at("error").as_string().find(provider) != std::string::npos);
        const auto sse = replay("--provider " + provider + " --emit openai-sse", anthropic);
        CHECK(sse.exit_code == 1);
        CHECK(sse.out.find("\"finish_reason\":\"length\"") == std::string::npos);
        CHECK(sse.out.find("data: {\"error\"") != std::string::npos);
    }
    CHECK(replay("--provider anthropic", std::string("\x00\xFF\x13garbage\n\n", 12)).exit_code == 1);
    CHECK(replay("--provider anthropic", "").exit_code == 1);
    CHECK(replay("--provider anthropic", anthropic).exit_code == 0);
    CHECK(replay("--provider text", "").exit_code == 0);   // empty text is an empty answer
}

#endif

} // namespace test_replay_output
