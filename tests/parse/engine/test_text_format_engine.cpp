// The text-format engine (text_format_policy) proven on formats written as trait sets right here,
// one file per family of formats. This one: Hermes (a JSON call object between markers). JSON
// arrays of call objects, sequences and keyed calls are in test_text_format_engine_arrays.cpp;
// header-named and key/value formats in test_text_format_engine_headers.cpp. Every input goes
// through chunk invariance (every split position, 1-byte chunks, random chunkings), byte
// conservation and the argument-fragment contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"
#include "parse/engine/text_format_engine_support.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <string>
#include <string_view>

namespace test_text_format_engine {

using namespace toolstream;
using namespace toolstream::test::engine_support;

// ---- the trait sets ----

// Hermes 2 Pro / Qwen2.5 / Qwen3: <tool_call>{"name": …, "arguments": {…}}</tool_call>.
struct hermes_like_format : marker_format {
    static constexpr std::string_view name = "hermes";
    static constexpr std::string_view call_open = "<tool_call>";
    static constexpr std::string_view call_close = "</tool_call>";
    static constexpr text_arguments arguments = text_arguments::json_call;
};
using hermes_like = text_format_policy<hermes_like_format>;

static_assert(text_format_traits<hermes_like_format>);
static_assert(parser_policy<hermes_like> && hermes_like::decodes_file_bodies);

// ---- Hermes ----

TEST_CASE("engine/hermes: calls between text, \"arguments\" or \"parameters\"", "[engine][hermes]")
{
    const auto r = run<hermes_like>(
        "Let me check. <tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n"
        "</tool_call> and <tool_call>{\"name\":\"search\",\"parameters\":{\"q\":\"a b\"}}</tool_call> done.");
    CHECK(segments(r)
          == "text \"Let me check. \"\n"
             "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"name\\\": \\\"get_weather\\\", \\\"arguments\\\": "
             "{\\\"city\\\": \\\"Paris\\\", \\\"days\\\": 3}}\"\n"
             "text \" and \"\n"
             "tool_call {\"tool_name\":\"search\"} \"{\\\"name\\\":\\\"search\\\",\\\"parameters\\\":{\\\"q\\\":\\\"a b\\\"}}\"\n"
             "text \" done.\"\n");
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Paris\",\"days\":3}\nseg_4 search {\"q\":\"a b\"}\n");
    CHECK(r.invocations[0].arguments_raw == R"({"city": "Paris", "days": 3})");   // the raw fragments
}

TEST_CASE("engine/hermes: a write_file call streams its decoded body as a file segment", "[engine][hermes]")
{
    const std::string input = "Writing.\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"src/a.py\", "
                              "\"content\": \"def f():\\n    return \\\"</tool_call>\\\" \\u00e9\\n\"}}\n</tool_call>\nDone.";
    const auto r = run<hermes_like>(input);
    CHECK(segments(r) == "text \"Writing.\\n\"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"src/a.py\"} "
                         "\"def f():\\n    return \\\"</tool_call>\\\" \xc3\xa9\\n\"\n"
                         "text \"\\nDone.\"\n");
    CHECK(calls(r) == "seg_2 write_file {\"path\":\"src/a.py\",\"content\":\"def f():\\n    return \\\"</tool_call>\\\" "
                      "\xc3\xa9\\n\"}\n");

    // The body streams: it is out before the call ends, and START waited for the path only (the
    // body comes first: the tools' schema gives patch_file its shape).
    handler<hermes_like> h(recording_sink{}, {}, hermes_like(file_tools()));
    REQUIRE(!h.feed(R"(<tool_call>{"name": "patch_file", "arguments": {"patch": "@@ -1 +1 @@\n-a)"));
    CHECK(h.events().empty());   // START waits for the path
    REQUIRE(!h.feed(R"(\n+b\n", "path": "p.txt")"));
    CHECK(test::content_of_type(h.events(), segment_type::patch_file) == "@@ -1 +1 @@\n-a\n+b\n");
    CHECK(h.invocations().empty());
    REQUIRE(!h.feed("}}</tool_call>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"patch":"@@ -1 +1 @@\n-a\n+b\n","path":"p.txt"})"));
}

TEST_CASE("engine/hermes: markers inside JSON strings end nothing", "[engine][hermes]")
{
    const auto r = run<hermes_like>(R"(<tool_call>{"name": "note", "arguments": {"text": "use <tool_call> and </tool_call> or </think>", "n": "}"}}</tool_call>tail)");
    CHECK(calls(r) == "seg_1 note {\"text\":\"use <tool_call> and </tool_call> or </think>\",\"n\":\"}\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "tail");
}

TEST_CASE("engine/hermes: what is not a call stays text byte for byte", "[engine][hermes]")
{
    for (std::string_view input : {"<tool_call> is how I call tools", "<tool_call", "a <tool_cal b", "<tool_call>\n\n",
                                   "<tool_call>[1]</tool_call>", "<think", "{\"name\": \"x\"}"}) {
        const auto r = run<hermes_like>(input);
        INFO(input);
        CHECK(segments(r) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("engine/hermes: bad calls END invalid_arguments, with the reason", "[engine][hermes]")
{
    const auto r = run<hermes_like>("<tool_call>{\"arguments\": {}}</tool_call><tool_call>{\"name\": \"x\", \"arguments\": 5}</tool_call>"
                               "<tool_call>{\"name\": \"y\", \"arguments\": {\"a\": 1,}}</tool_call>"
                               "<tool_call>{\"name\": \"z\", \"arguments\": \"{\\\"k\\\": [1]}\"}</tool_call>"
                               "<tool_call>{\"name\": \"write_file\", \"arguments\": {\"path\": \"a\", \"content\": 7}}</tool_call>");
    CHECK(calls(r) == "seg_1  {} invalid_arguments\nseg_2 x {} invalid_arguments\nseg_3 y {} invalid_arguments\n"
                      "seg_4 z {\"k\":[1]}\nseg_5 write_file {} invalid_arguments\n");
    CHECK(r.invocations[0].error == "tool call has no name");
}

TEST_CASE("engine/hermes §7: what a cut stream held is content or text, never lost", "[engine][hermes][finalize]")
{
    // Complete arguments whose </tool_call> was stripped: the call is complete, the partial
    // closing marker is text.
    CHECK(segments(run<hermes_like>("<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_c"))
          == "tool_call {\"tool_name\":\"a\"} \"{\\\"name\\\":\\\"a\\\",\\\"arguments\\\":{}}\"\ntext \"</tool_c\"\n");
    // Cut inside the arguments: incomplete, every byte in the call's content.
    const auto cut = run<hermes_like>("<tool_call>{\"name\":\"a\",\"arguments\":{\"q\":\"</tool");
    CHECK(segments(cut) == "tool_call {\"tool_name\":\"a\"} \"{\\\"name\\\":\\\"a\\\",\\\"arguments\\\":{\\\"q\\\":\\\"</tool\" incomplete\n");
    CHECK(calls(cut) == "seg_1 a {} incomplete\n");
    // Cut before the name: the call STARTs at the end, without one.
    CHECK(segments(run<hermes_like>("x <tool_call>{\"arguments\":{\"a\":1},\"na"))
          == "text \"x \"\ntool_call \"{\\\"arguments\\\":{\\\"a\\\":1},\\\"na\" incomplete\n");
}

TEST_CASE("engine/hermes: generated inputs at every chunking", "[engine][hermes][generated]")
{
    constexpr std::string_view pieces[] = {
        "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": [1, {\"y\": \"}]\"}]}}</tool_call>",
        "<tool_call>\n{\"name\":\"write_file\",\"arguments\":{\"path\":\"p\",\"content\":\"l1\\nl2 \\\"q\\\" \\ud83d\\ude00\"}}\n</tool_call>",
        "<tool_call>{\"arguments\":{\"k\":\"v\"},\"name\":\"late\"}</tool_call>",
        "<think>maybe <tool_call>{\"name\":\"no\"}</tool_call></think>",
        "<tool_call>{\"name\":\"run_bash\",\"parameters\":{\"command\":\"ls -la\",\"background\":true}}</tool_call>",
        "<tool_call> not json </tool_call>",
        "</think>", "<tool_call>", "</tool_call>", "{\"name\":", "plain words ", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 60))
        run<hermes_like>(input);
    for (const auto& input : test::mixed_inputs(pieces, 20, 5))
        run<hermes_like>(input, text_format_options{.max_held = 16, .max_held_body = 24, .schemas = {}});
}

TEST_CASE("engine/hermes: a 1 MiB body streams in pieces and holds nothing back", "[engine][hermes][large]")
{
    std::string body;
    while (body.size() < (std::size_t{1} << 20))
        body += "line " + std::to_string(body.size()) + " \\\"quoted\\\" \\u00e9\\n";
    const std::string input = "<tool_call>{\"name\":\"write_file\",\"arguments\":{\"path\":\"big.txt\",\"content\":\"" + body
        + "\"}}</tool_call>";
    handler<hermes_like, test::contract_recording_sink> h(test::quiet_sink());
    std::size_t most = 0;
    for (std::size_t at = 0; at < input.size(); at += 4096) {
        REQUIRE(!h.feed(std::string_view(input).substr(at, 4096)));
        most = std::max(most, h.policy().held_bytes());
    }
    REQUIRE(!h.finalize());
    CHECK(most < 64);
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].is_complete());
    const auto decoded = boost::json::parse("\"" + body + "\"");
    CHECK(h.invocations()[0].arguments.at("content") == decoded);
    test::check_byte_conservation<hermes_like>(input.substr(0, 70000));
}

} // namespace test_text_format_engine
