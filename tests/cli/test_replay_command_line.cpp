// toolstream-replay's command line: --help, usage errors that name the argument and why, range
// checks, unreadable files, and output that cannot be written (docs/replay.md).
#include "catch_compat.hpp"
#include "cli/replay_process.hpp"

#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/registry.hpp>

#include <string>
#include <vector>

namespace test_replay_command_line {

#ifdef TOOLSTREAM_REPLAY_PATH

namespace {

using toolstream::test::replay_run;
using toolstream::test::replay_stdout;

replay_run replay(const std::vector<std::string>& args, const std::string& stdin_text = {},
                  replay_stdout where = replay_stdout::captured)
{
    return toolstream::test::run_process(TOOLSTREAM_REPLAY_PATH, args, stdin_text, where);
}

// A usage error: exit 2, nothing on stdout, and `why` on stderr, before the usage text.
void check_usage_error(const std::vector<std::string>& args, const std::string& why)
{
    std::string shown;
    for (const auto& a : args)
        shown += a + " ";
    INFO(shown);
    const auto r = replay(args);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.starts_with("toolstream-replay: " + why + "\n"));
    CHECK(r.err.find("usage: toolstream-replay --provider") != std::string::npos);
}

std::string model_text_with_calls(std::size_t calls)
{
    std::string text;
    for (std::size_t i = 0; i < calls; ++i)
        text += "Step " + std::to_string(i) + ". <tool_call>{\"name\": \"f\", \"arguments\": {\"i\": " +
                std::to_string(i) + "}}</tool_call>\n";
    return text;
}

} // namespace

TEST_CASE("replay --help prints the usage and every registered name on stdout, exit 0", "[cli]")
{
    for (const char* flag : {"--help", "-h"}) {
        const auto r = replay({"--provider", "nobody", flag});   // help wins over other arguments
        INFO(r.err);
        CHECK(r.exit_code == 0);
        CHECK(r.err.empty());
        CHECK(r.out.starts_with("usage: toolstream-replay --provider "));
        for (auto name : toolstream::provider_names)
            CHECK(r.out.find(name) != std::string::npos);
        for (auto name : toolstream::policy_names)
            CHECK(r.out.find(name) != std::string::npos);
        for (const auto& reasoning : toolstream::reasoning_parsers)
            CHECK(r.out.find(reasoning.name) != std::string::npos);
        CHECK(r.out.find("Exit status") != std::string::npos);
    }
    const auto version = replay({"--version"});
    CHECK(version.exit_code == 0);
    CHECK(version.out.starts_with("toolstream-replay "));
}

TEST_CASE("replay: every usage error names the argument and why", "[cli]")
{
    std::string parsers;
    for (auto name : toolstream::policy_names)
        parsers += (parsers.empty() ? "" : ", ") + std::string(name);
    for (const auto& [alias, target] : toolstream::policy_aliases)
        parsers += ", " + std::string(alias) + " (= " + std::string(target) + ")";
    check_usage_error({"--provider", "text", "--parser", "qwen9", "-"}, "unknown parser 'qwen9'; known: " + parsers);
    std::string providers;
    for (auto name : toolstream::provider_names)
        providers += std::string(name) + ", ";
    check_usage_error({"--provider", "openai", "-"}, "unknown provider 'openai'; known: " + providers + "text");
    check_usage_error({"-"}, "--provider is required; known: " + providers + "text");
    std::string reasoning_names;
    for (const auto& reasoning : toolstream::reasoning_parsers)
        reasoning_names += (reasoning_names.empty() ? "" : ", ") + std::string(reasoning.name);
    check_usage_error({"--provider", "text", "--reasoning-parser", "r1", "-"},
                      "unknown reasoning parser 'r1'; known: " + reasoning_names);
    check_usage_error({"--provider", "openai_chat", "--emit", "xml"},
                      "unknown --emit 'xml'; known: summary, events, invocations, openai-sse, anthropic-sse, "
                      "openai-responses-sse, tarko");
    check_usage_error({"--provider", "openai_chat", "--emit", "openai-sse", "--extensions", "header"},
                      "unknown --extensions 'header'; known: chunk, comment");
    check_usage_error({"--provider", "openai_chat", "--bogus"}, "unknown option '--bogus'");
    check_usage_error({"--provider", "openai_chat", "--parser"}, "--parser needs a value");
    check_usage_error({"--provider", "openai_chat", "--tool-events"},
                      "--tool-events and --extensions apply to --emit openai-sse only");
}

TEST_CASE("replay: --chunk is a whole number from 1 to 64 MiB", "[cli]")
{
    for (const char* bad : {"abc", "-1", "+5", "5k", "1.5", ""})
        check_usage_error({"--provider", "openai_chat", "--chunk", bad, "-"},
                          "--chunk '" + std::string(bad) + "' is not a whole number of bytes");
    for (const char* big : {"0", "67108865", "99999999999999", "18446744073709551616", "99999999999999999999999"})
        check_usage_error({"--provider", "openai_chat", "--chunk", big, "-"},
                          "--chunk '" + std::string(big) + "' is out of range: 1 to 67108864");
    for (const char* good : {"1", "67108864"}) {
        const auto r = replay({"--provider", "text", "--parser", "hermes", "--chunk", good, "-"},
                              model_text_with_calls(2));
        INFO(r.err);
        CHECK(r.exit_code == 0);
        CHECK(r.out.find("\"arguments\":{\"i\":1}") != std::string::npos);
    }
}

TEST_CASE("replay: a --tools file that cannot be opened, is not JSON or is not an array is named", "[cli]")
{
    check_usage_error({"--provider", "text", "--tools", "/no/such/tools.json", "-"},
                      "cannot open --tools file '/no/such/tools.json': No such file or directory");
    char path[] = "/tmp/toolstream-tools-XXXXXX";
    const int fd = ::mkstemp(path);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, "{\"tools\": [", 11) == 11);
    ::close(fd);
    check_usage_error({"--provider", "text", "--tools", path, "-"},
                      "--tools file '" + std::string(path) + "' is not JSON: incomplete JSON");
    std::FILE* f = std::fopen(path, "w");
    REQUIRE(f != nullptr);
    std::fputs("{\"tools\": []}", f);
    std::fclose(f);
    check_usage_error({"--provider", "text", "--tools", path, "-"},
                      "--tools file '" + std::string(path) + "' is not a JSON array of tools (an OpenAI `tools` array)");
    ::unlink(path);
}

TEST_CASE("replay: two inputs are refused, naming both", "[cli]")
{
    check_usage_error({"--provider", "openai_chat", "/dev/null", "/dev/null"},
                      "two inputs given ('/dev/null' and '/dev/null'): a run replays one stream; join the files first if they are one");
    check_usage_error({"--provider", "text", "a.txt", "-"},
                      "two inputs given ('a.txt' and '-'): a run replays one stream; join the files first if they are one");
}

TEST_CASE("replay: an input that cannot be read is an I/O failure, exit 1", "[cli]")
{
    auto missing = replay({"--provider", "openai_chat", "/no/such/file"});
    CHECK(missing.exit_code == 1);
    CHECK(missing.out.empty());
    CHECK(missing.err == "toolstream-replay: cannot open /no/such/file: No such file or directory\n");
    auto directory = replay({"--provider", "text", "/"});
    CHECK(directory.exit_code == 1);
    CHECK(directory.err == "toolstream-replay: cannot read /: Is a directory\n");
}

TEST_CASE("replay: output that cannot be written is an error, exit 1", "[cli]")
{
    const std::string text = model_text_with_calls(2000);   // about 150 KB of events
    const std::vector<std::vector<std::string>> commands{
        {"--provider", "text", "--parser", "hermes", "-"},
        {"--provider", "text", "--parser", "hermes", "--emit", "events", "--chunk", "7", "-"},
        {"--provider", "text", "--parser", "hermes", "--emit", "invocations", "-"},
        {"--provider", "text", "--parser", "hermes", "--emit", "openai-sse", "--chunk", "1000", "-"},
        {"--provider", "text", "--parser", "hermes", "--emit", "anthropic-sse", "--chunk", "1000", "-"},
        {"--provider", "text", "--parser", "hermes", "--emit", "openai-responses-sse", "-"},
        {"--provider", "text", "--parser", "hermes", "--emit", "tarko", "-"},
        {"--help"},
    };
    for (const auto& args : commands) {
        std::string shown;
        for (const auto& a : args)
            shown += a + " ";
        INFO(shown);
        const auto ok = replay(args, text);
        REQUIRE(ok.exit_code == 0);
        REQUIRE(!ok.out.empty());
        const auto full = replay(args, text, replay_stdout::dev_full);
        CHECK(full.exit_code == 1);
        CHECK(full.err == "toolstream-replay: cannot write the output: No space left on device\n");
        const auto closed = replay(args, text, replay_stdout::closed_pipe);
        CHECK(closed.exit_code == 1);   // not killed by SIGPIPE
        CHECK(closed.err == "toolstream-replay: cannot write the output: Broken pipe\n");
    }
    // A provider stream, as --emit summary writes it.
    const std::string sse = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\n";
    const auto full = replay({"--provider", "openai_chat", "-"}, sse, replay_stdout::dev_full);
    CHECK(full.exit_code == 1);
    CHECK(full.err == "toolstream-replay: cannot write the output: No space left on device\n");
}

#endif

} // namespace test_replay_command_line
