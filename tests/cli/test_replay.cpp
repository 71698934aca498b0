// toolstream-replay run as a process: the contract other programs drive.
#include "catch_compat.hpp"
#include "support/chunk_summary.hpp"
#include "support/fixtures.hpp"
#include "support/valid_output.hpp"

#include <boost/json.hpp>

#include <cstdio>
#include <string>
#include <utility>
#include <sys/wait.h>
#include <unistd.h>

namespace test_replay {

namespace {

struct process_result {
    int exit_code = -1;
    std::string out;
};

#ifdef TOOLSTREAM_REPLAY_PATH
process_result run(const std::string& args, const std::string& stdin_text = {})
{
    std::string command = std::string(TOOLSTREAM_REPLAY_PATH) + " " + args + " 2>/dev/null";
    if (!stdin_text.empty()) {
        char input[] = "/tmp/toolstream-replay-XXXXXX";
        const int fd = ::mkstemp(input);
        REQUIRE(fd >= 0);
        REQUIRE(::write(fd, stdin_text.data(), stdin_text.size()) == static_cast<ssize_t>(stdin_text.size()));
        ::close(fd);
        command += std::string(" < ") + input;
    }
    process_result r;
    std::FILE* p = ::popen(command.c_str(), "r");
    REQUIRE(p != nullptr);
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
        r.out.append(buf, n);
    const int status = ::pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::string provider_for(const std::string& dir)
{
    if (dir == "deepseek" || dir == "groq" || dir == "xai" || dir == "alibaba")
        return "openai_chat";
    return dir;
}
#endif

} // namespace

#ifdef TOOLSTREAM_REPLAY_PATH

TEST_CASE("replay: --emit summary equals every fixture's expected result", "[cli]")
{
    const auto fixtures = toolstream::test::load_fixtures();
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: replay fixtures skipped");
        return;
    }
    for (const auto& f : fixtures) {
        const std::string provider = provider_for(f.provider_dir);
        for (const char* chunk : {"", " --chunk 1", " --chunk 7"}) {
            auto r = run("--provider " + provider + chunk + " " + f.stream_path.string());
            INFO(f.name << chunk << "\n" << r.out);
            REQUIRE(r.exit_code == 0);
            const auto got = boost::json::parse(r.out).as_object();
            CHECK(got.at("provider") == boost::json::value(provider));
            CHECK(got.at("framing") == "sse");
            CHECK(toolstream::test::compare_with_expected(got, f.expected, provider != "gemini") == "");
        }
    }
}

TEST_CASE("replay: --emit anthropic-sse and openai-responses-sse write every fixture as its dialect's events",
          "[cli]")
{
    const auto fixtures = toolstream::test::load_fixtures();
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: replay fixtures skipped");
        return;
    }
    // Each dialect's stream, read back by toolstream's reader of that dialect.
    const std::pair<const char*, const char*> dialects[] = {{"anthropic-sse", "anthropic"},
                                                            {"openai-responses-sse", "openai_responses"}};
    for (const auto& f : fixtures) {
        const auto& want = f.expected.as_object();
        for (const auto& [emit, reader] : dialects) {
            std::string first_text;
            for (const char* chunk : {"", " --chunk 1"}) {
                const auto r = run("--provider " + provider_for(f.provider_dir) + " --emit " + emit + chunk + " " +
                                   f.stream_path.string());
                INFO(f.name << " --emit " << emit << chunk << "\n" << r.out.substr(0, 3000));
                REQUIRE(r.exit_code == 0);
                toolstream::test::named_sse_check events;
                events(r.out);
                CHECK(events.problem() == "");
                const auto back = run(std::string("--provider ") + reader + " -", r.out);
                REQUIRE(back.exit_code == 0);
                const auto summary = boost::json::parse(back.out).as_object();
                if (!want.at("error").is_null()) {
                    CHECK(!summary.at("error").is_null());   // the dialect's error event
                    continue;
                }
                const auto& text = summary.at("choices").as_array().at(0).at("text").as_string();
                CHECK(text == want.at("choices").as_array().at(0).at("text").as_string());
                if (*chunk == '\0')
                    first_text = text;
                else
                    CHECK(text == first_text);
            }
        }
    }
}

TEST_CASE("replay: --emit events and --emit invocations print one JSON object per line", "[cli]")
{
    const std::string input = R"(data: {"choices":[{"index":0,"delta":{"content":"ok","tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{\"a\":1}"}}]},"finish_reason":"tool_calls"}]})"
                              "\n\ndata: [DONE]\n\n";
    auto events = run("--provider openai_chat --emit events -", input);
    REQUIRE(events.exit_code == 0);
    std::vector<boost::json::value> lines;
    for (std::size_t at = 0, nl; (nl = events.out.find('\n', at)) != std::string::npos; at = nl + 1)
        lines.push_back(boost::json::parse(events.out.substr(at, nl - at)));
    REQUIRE(lines.size() == 6);
    CHECK(lines[0].at("type") == "SEGMENT_START");
    CHECK(lines[3].at("segment_id") == "call_1");
    CHECK(lines[5].at("payload").at("metadata").at("arguments") == boost::json::parse(R"({"a":1})"));

    auto invocations = run("--provider openai_chat --emit invocations --chunk 5 -", input);
    REQUIRE(invocations.exit_code == 0);
    CHECK(boost::json::parse(invocations.out)
          == boost::json::parse(R"({"id":"call_1","name":"f","arguments":{"a":1},"status":"complete"})"));
}

TEST_CASE("replay: --provider text feeds plain model output to the chosen parser", "[cli]")
{
    auto r = run("--provider text --parser xml", R"(Reading. <tool name="read_file"><arg name="path">/a</arg></tool> Done.)");
    REQUIRE(r.exit_code == 0);
    const auto got = boost::json::parse(r.out);
    CHECK(got.at("choices").at(0).at("text") == "Reading.  Done.");
    CHECK(got.at("choices").at(0).at("tool_calls").at(0).at("arguments") == boost::json::parse(R"({"path":"/a"})"));
    CHECK(got.at("usage").is_null());
}

TEST_CASE("replay: --tools types qwen3_coder's raw values by the tools' schemas", "[cli]")
{
    char path[] = "/tmp/toolstream-tools-XXXXXX";
    const int fd = ::mkstemp(path);
    REQUIRE(fd >= 0);
    const std::string tools = R"([{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}}}])";
    REQUIRE(::write(fd, tools.data(), tools.size()) == static_cast<ssize_t>(tools.size()));
    ::close(fd);
    const std::string input = "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
                              "<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>";
    const std::string command = "--provider text --parser qwen3_coder --emit invocations";
    const auto typed = run(command + " --tools " + path + " -", input);
    const auto untyped = run(command + " -", input);
    REQUIRE(typed.exit_code == 0);
    REQUIRE(untyped.exit_code == 0);
    CHECK(boost::json::parse(typed.out).at("arguments") == boost::json::parse(R"({"city":"Paris","days":2})"));
    CHECK(boost::json::parse(untyped.out).at("arguments") == boost::json::parse(R"({"city":"Paris","days":"2"})"));
    CHECK(run(command + " --tools /no/such/tools.json -", input).exit_code == 2);
    ::unlink(path);
}

TEST_CASE("replay: a provider error is reported in the summary with exit code 0", "[cli]")
{
    auto r = run("--provider openai_chat -", "data: {\"error\":{\"message\":\"quota exceeded\"}}\n\n");
    REQUIRE(r.exit_code == 0);
    CHECK(boost::json::parse(r.out).at("error") == "quota exceeded");
}

TEST_CASE("replay: --emit tarko prints one assistant_streaming_tool_call event per line", "[cli][tarko]")
{
    const std::string input = R"(data: {"id":"chatcmpl-9","choices":[{"index":0,"delta":{"content":"ok","tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{\"a\":"}}]}}]})"
                              "\n\n"
                              R"(data: {"id":"chatcmpl-9","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]},"finish_reason":"tool_calls"}]})"
                              "\n\ndata: [DONE]\n\n";
    for (const char* chunk : {"", " --chunk 1"}) {
        auto r = run(std::string("--provider openai_chat --emit tarko") + chunk + " -", input);
        REQUIRE(r.exit_code == 0);
        CHECK(r.out == R"({"type":"assistant_streaming_tool_call","toolCallId":"call_1","toolName":"f","arguments":"","isComplete":false,"messageId":"chatcmpl-9"})" "\n"
                       R"({"type":"assistant_streaming_tool_call","toolCallId":"call_1","toolName":"f","arguments":"{\"a\":","isComplete":false,"messageId":"chatcmpl-9"})" "\n"
                       R"({"type":"assistant_streaming_tool_call","toolCallId":"call_1","toolName":"f","arguments":"1}","isComplete":false,"messageId":"chatcmpl-9"})" "\n"
                       R"({"type":"assistant_streaming_tool_call","toolCallId":"call_1","toolName":"f","arguments":"","isComplete":true,"messageId":"chatcmpl-9"})" "\n");
    }
}

TEST_CASE("replay: --parser structured reads a structured-outputs response", "[cli][structured]")
{
    auto r = run("--provider text --parser structured",
                 R"({"content": "Checking.", "toolCall": {"name": "get_weather", "args": {"city": "Paris"}}})");
    REQUIRE(r.exit_code == 0);
    const auto got = boost::json::parse(r.out);
    CHECK(got.at("choices").at(0).at("text") == "Checking.");
    CHECK(got.at("choices").at(0).at("tool_calls").at(0).at("name") == "get_weather");
    CHECK(got.at("choices").at(0).at("tool_calls").at(0).at("arguments") == boost::json::parse(R"({"city":"Paris"})"));

    auto events = run("--provider text --parser structured --emit tarko",
                      R"({"toolCall": {"args": {"city": "Paris"}, "name": "get_weather"}})");
    REQUIRE(events.exit_code == 0);
    std::vector<boost::json::value> lines;
    for (std::size_t at = 0, nl; (nl = events.out.find('\n', at)) != std::string::npos; at = nl + 1)
        lines.push_back(boost::json::parse(events.out.substr(at, nl - at)));
    REQUIRE(lines.size() == 3);
    CHECK(lines[0].at("toolName") == "");
    CHECK(lines[1].at("arguments") == R"({"city": "Paris"})");
    CHECK(lines[2].at("toolName") == "get_weather");
    CHECK(lines[2].at("isComplete") == true);
    CHECK(lines[2].at("messageId").as_string().starts_with("msg_"));
}

TEST_CASE("replay: bad usage exits 2, I/O failure exits 1", "[cli]")
{
    CHECK(run("").exit_code == 2);
    CHECK(run("--provider nobody /dev/null").exit_code == 2);
    CHECK(run("--provider openai_chat --parser nothing /dev/null").exit_code == 2);
    CHECK(run("--provider openai_chat --chunk 0 /dev/null").exit_code == 2);
    CHECK(run("--provider openai_chat --emit everything /dev/null").exit_code == 2);
    CHECK(run("--provider openai_chat --emit tarko /dev/null").exit_code == 1);   // empty_stream
    CHECK(run("--provider openai_chat --bogus /dev/null").exit_code == 2);
    CHECK(run("--provider openai_chat /no/such/file").exit_code == 1);
    CHECK(run("--provider openai_chat /dev/null").exit_code == 1);   // empty_stream
    CHECK(run("--provider text /dev/null").exit_code == 0);          // a valid empty answer
}

#else
TEST_CASE("replay: the CLI was not built, so its process tests are skipped", "[cli]")
{
    WARN("toolstream-replay not built (TOOLSTREAM_BUILD_EXAMPLES=OFF)");
}
#endif

} // namespace test_replay
