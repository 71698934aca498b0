// The Agent TARS events of the prompt-engineering engine (hermes, Doubao-style streams) and of
// structured outputs, read from generated OpenAI Chat streams: per call the events join to the
// raw argument text, one completion last, names and ids, the same joins at every chunking.
#include <toolstream/runtime/runtime_pipeline.hpp>

#include "catch_compat.hpp"
#include "writers/tarko_checks.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

namespace test_tarko_engines {

using namespace toolstream;

namespace {

/// An OpenAI Chat stream as Doubao sends it: every chunk repeats the role and `usage: null`, the
/// content comes in the given tokens, the last chunk says `stop`; no `[DONE]` (optional).
std::string doubao_stream(const std::vector<std::string_view>& tokens, bool done = false)
{
    std::string out;
    auto chunk = [&](const boost::json::object& delta, const boost::json::value& finish) {
        const boost::json::object c{{"id", "021-doubao"},
                                    {"object", "chat.completion.chunk"},
                                    {"model", "doubao-seed-1-6-vision-250815"},
                                    {"choices", boost::json::array{boost::json::object{
                                                    {"index", 0}, {"delta", delta}, {"finish_reason", finish}}}},
                                    {"usage", nullptr}};
        out += "data: " + boost::json::serialize(c) + "\n\n";
    };
    for (auto t : tokens)
        chunk({{"content", t}, {"role", "assistant"}}, nullptr);
    chunk({{"content", ""}, {"role", "assistant"}}, "stop");
    if (done)
        out += "data: [DONE]\n\n";
    return out;
}

struct stream_run {
    std::vector<std::string> lines;
    std::vector<tool_invocation> invocations;
    std::map<std::string, test::tarko_call> calls;
};

stream_run replay(std::string_view parser, std::string_view bytes, std::size_t piece)
{
    stream_run run;
    auto made = runtime_pipeline<test::tarko_recording>::create("openai_chat", parser,
                                                                test::make_tarko_recording(run.lines));
    REQUIRE(made);
    auto& p = **made;
    for (std::size_t at = 0; at < bytes.size(); at += piece)
        (void)p.write(bytes.substr(at, piece));
    (void)p.finish();
    run.invocations = p.sink().first().first().invocations;
    CHECK(p.sink().second().message_id() == "021-doubao");   // the provider's id
    run.calls = test::group_by_call(run.lines, "021-doubao");
    test::check_against_invocations(run.calls, run.invocations, p.sink().first().second());
    return run;
}

/// Per call id: the events' joined arguments, at every chunking of the stream's bytes.
void check_every_chunking(std::string_view parser, std::string_view bytes, const stream_run& whole)
{
    for (std::size_t piece : {1, 2, 3, 5, 8, 13, 64}) {
        INFO("pieces of " << piece);
        const auto got = replay(parser, bytes, piece);
        REQUIRE(got.calls.size() == whole.calls.size());
        for (const auto& [id, call] : whole.calls) {
            REQUIRE(got.calls.count(id) == 1);
            CHECK(got.calls.at(id).arguments == call.arguments);
            CHECK(got.calls.at(id).name == call.name);
            CHECK(got.calls.at(id).completes == call.completes);
        }
    }
}

} // namespace

TEST_CASE("tarko: prompt engineering, Doubao's tokens, the closing tag cut by the stop sequence", "[tarko]")
{
    // The tokenization of the recorded Doubao prompt-engineering turn (formats.md 1.8).
    const auto bytes = doubao_stream({"<tool", "_call", ">", "{\"", "name", "\":", " \"", "getCurrent", "Location",
                                      "\",", " \"", "parameters", "\":", " {}}"});
    const auto whole = replay("hermes", bytes, bytes.size());
    REQUIRE(whole.invocations.size() == 1);
    const auto& inv = whole.invocations[0];
    CHECK(inv.name == "getCurrentLocation");
    CHECK(inv.is_complete());   // Agent TARS sends no isComplete here
    CHECK(inv.arguments.empty());
    const auto& call = whole.calls.at(inv.id);
    CHECK(call.completes == 1);
    CHECK(call.name == "getCurrentLocation");
    CHECK(call.arguments == inv.arguments_raw);
    check_every_chunking("hermes", bytes, whole);
}

TEST_CASE("tarko: prompt engineering does better than Agent TARS's weak spots", "[tarko]")
{
    // Braces and a closing tag inside strings; a "name" inside the parameters, and before the
    // call's own name; two calls, the first closed, the second cut by the stop sequence.
    const auto bytes = doubao_stream(
        {"Let me write it.\n<tool_call>\n{\"parameters\": {\"name\": \"notes.txt\", \"text\": \"a}b{ ",
         "</tool_call> \\\"q\\\" é\"}, \"name\": \"save\"}\n</tool_call>\n<tool_call>{\"name\": \"read\", ",
         "\"parameters\": {\"name\": \"notes.txt\"}}"},
        true);
    const auto whole = replay("hermes", bytes, bytes.size());
    REQUIRE(whole.invocations.size() == 2);
    CHECK(whole.invocations[0].name == "save");
    CHECK(whole.invocations[0].arguments
          == boost::json::object{{"name", "notes.txt"}, {"text", "a}b{ </tool_call> \"q\" \xC3\xA9"}});
    CHECK(whole.invocations[1].name == "read");
    CHECK(whole.invocations[1].arguments == boost::json::object{{"name", "notes.txt"}});
    for (const auto& inv : whole.invocations) {
        CHECK(inv.is_complete());
        CHECK(whole.calls.at(inv.id).completes == 1);
        CHECK(whole.calls.at(inv.id).name == inv.name);
        CHECK(whole.calls.at(inv.id).arguments == inv.arguments_raw);
    }
    check_every_chunking("hermes", bytes, whole);
}

TEST_CASE("tarko: prompt engineering, a call whose arguments the stream cut gets no completion", "[tarko]")
{
    const auto bytes = doubao_stream({"<tool_call>{\"name\": \"save\", \"parameters\": {\"text\": \"ab"});
    const auto whole = replay("hermes", bytes, bytes.size());
    REQUIRE(whole.invocations.size() == 1);
    CHECK(whole.invocations[0].status == invocation_status::incomplete);
    REQUIRE(whole.calls.size() == 1);
    CHECK(whole.calls.begin()->second.completes == 0);
    check_every_chunking("hermes", bytes, whole);
}

TEST_CASE("tarko: structured outputs in the content channel", "[tarko][structured]")
{
    SECTION("Agent TARS's schema, name after args: reported on the completion")
    {
        const auto bytes = doubao_stream({"{\"content\": \"Chec", "king.\", \"toolCall\": {\"args\": {\"location\"",
                                          ": \"Bos", "ton\", \"units\": [\"c\"]}, \"name\": \"getWeather\"}}"});
        const auto whole = replay("structured", bytes, bytes.size());
        REQUIRE(whole.invocations.size() == 1);
        const auto& inv = whole.invocations[0];
        CHECK(inv.name == "getWeather");
        CHECK(inv.arguments_raw == R"({"location": "Boston", "units": ["c"]})");
        const auto& call = whole.calls.at(inv.id);
        CHECK(call.arguments == inv.arguments_raw);
        CHECK(call.name == "getWeather");
        CHECK(call.completes == 1);
        CHECK(boost::json::parse(whole.lines.front()).at("toolName") == "");   // not known at START
        check_every_chunking("structured", bytes, whole);
    }
    SECTION("a 256 KiB argument, the response's closing braces cut")
    {
        std::string body;
        while (body.size() < (256u << 10))
            body += R"(x = \"}\" + '{' \\ )";
        const std::string args = R"({"path": "a.py", "content": ")" + body + "\"}";
        std::vector<std::string> tokens;
        tokens.push_back(R"({"toolCall": {"name": "write_file", "args": )");
        for (std::size_t at = 0; at < args.size(); at += 4)
            tokens.push_back(args.substr(at, 4));
        std::vector<std::string_view> views(tokens.begin(), tokens.end());
        const auto bytes = doubao_stream(views);
        for (std::size_t piece : {bytes.size(), std::size_t{4096}, std::size_t{61}}) {
            const auto run = replay("structured", bytes, piece);
            REQUIRE(run.invocations.size() == 1);
            CHECK(run.invocations[0].is_complete());
            CHECK(run.calls.at(run.invocations[0].id).arguments == args);
            CHECK(run.calls.at(run.invocations[0].id).completes == 1);
        }
    }
}

} // namespace test_tarko_engines
