// harmony (gpt-oss; alias openai): examples from llama.cpp's test-chat gpt-oss cases, vLLM's harmony
// tests and the harmony cookbook, at every split position, 1-byte and random chunks, with byte
// conservation; with and without the end tokens servers strip.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/harmony.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace test_harmony {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<harmony> && harmony::decodes_file_bodies);

TEST_CASE("harmony: analysis is reasoning, final is text, with or without end tokens", "[formats][harmony]")
{
    for (std::string_view input :
         {"<|channel|>analysis<|message|>I'm\nthinking<|end|><|start|>assistant<|channel|>final<|message|>Hello, world!\n"
          "What's up?<|return|>",
          "<|channel|>analysis<|message|>I'm\nthinking<|start|>assistant<|channel|>final<|message|>Hello, world!\nWhat's up?"}) {
        INFO(input);
        const auto r = test::run_checked<harmony>(input);
        CHECK(segments(r) == "reasoning \"I'm\\nthinking\"\ntext \"Hello, world!\\nWhat's up?\"\n");
        CHECK(r.invocations.empty());
    }
}

TEST_CASE("harmony: a call, its recipient after the channel or in the role part", "[formats][harmony]")
{
    const auto r = test::run_checked<harmony>(
        "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary "
        "to=functions.get_weather <|constrain|>json<|message|>{\"location\": \"Tokyo\"}<|call|>"
        "<|start|>assistant to=functions.get_time<|channel|>commentary json<|message|>{\"tz\": \"<|call|>\"}<|call|>");
    CHECK(segments(r) == "reasoning \"Need the weather.\"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"location\\\": \\\"Tokyo\\\"}\"\n"
                         "tool_call {\"tool_name\":\"get_time\"} \"{\\\"tz\\\": \\\"<|call|>\\\"}\"\n");
    CHECK(calls(r) == "seg_2 get_weather {\"location\":\"Tokyo\"}\nseg_3 get_time {\"tz\":\"<|call|>\"}\n");
    // SGLang's test: prose before, no blank before <|constrain|>, text after the call.
    const auto s = test::run_checked<harmony>(
        "Let me search for that information.\n<|channel|>commentary to=functions.search<|constrain|>json<|message|>"
        "{\"query\": \"rust programming\", \"limit\": 10}<|call|>\nHere are the results...");
    CHECK(calls(s) == "seg_2 search {\"query\":\"rust programming\",\"limit\":10}\n");
    CHECK(test::content_of_type(s.events, segment_type::text)
          == "Let me search for that information.\n\nHere are the results...");
}

TEST_CASE("harmony: stripped <|call|> and <|end|>: complete arguments make a complete call", "[formats][harmony][finalize]")
{
    CHECK(calls(test::run_checked<harmony>("<|channel|>analysis<|message|>x<|start|>assistant<|channel|>commentary "
                                          "to=functions.f <|constrain|>json<|message|>{\"a\": 1}"))
          == "seg_2 f {\"a\":1}\n");
    CHECK(calls(test::run_checked<harmony>("<|channel|>commentary to=functions.f<|message|>{\"a\": \"<|end|>"))
          == "seg_1 f {} incomplete\n");
    CHECK(calls(test::run_checked<harmony>("<|channel|>commentary to=functions.f<|message|>not json"))
          == "seg_1 f {} invalid_arguments\n");
    // Cut inside reasoning or a header: the held bytes are what they were.
    CHECK(segments(test::run_checked<harmony>("<|channel|>analysis<|message|>abc<|en")) == "reasoning \"abc<|en\"\n");
    CHECK(segments(test::run_checked<harmony>("<|channel|>analy")) == "text \"<|channel|>analy\"\n");
}

TEST_CASE("harmony: write_file streams its decoded body; tokens in strings end nothing", "[formats][harmony]")
{
    const auto r = test::run_checked<harmony>(
        "<|channel|>commentary<|message|>Writing \xc3\xa9t\xc3\xa9.<|end|><|start|>assistant<|channel|>commentary "
        "to=functions.write_file <|constrain|>json<|message|>{\"path\": \"a.md\", \"content\": \"# \xf0\x9f\x98\x80 "
        "<|call|><|end|><|start|>{\\\"}\\n\"}<|call|>");
    CHECK(segments(r) == "text \"Writing \xc3\xa9t\xc3\xa9.\"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"a.md\"} "
                         "\"# \xf0\x9f\x98\x80 <|call|><|end|><|start|>{\\\"}\\n\"\n");
}

TEST_CASE("harmony: what is not a message stays text", "[formats][harmony]")
{
    for (std::string_view input : {"plain prose < | not a token", "<|chan", "a <|channel b"}) {
        INFO(input);
        CHECK(segments(test::run_checked<harmony>(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
    // A header without <|message|> within max_held is text, reported.
    text_format_options o;
    o.max_held = 32;
    const std::string long_header = "<|start|>assistant" + std::string(64, ' ') + "<|message|>x";
    const auto r = test::run_whole<harmony>(long_header, o);
    CHECK(test::content_of_type(r.events, segment_type::text) == long_header);
}

TEST_CASE("harmony: a 1 MiB write_file body streams with a bounded hold", "[formats][harmony][large]")
{
    std::string body;
    std::string decoded;
    while (body.size() < (std::size_t{1} << 20)) {
        body += "line <|call|> \\\"q\\\" \xc3\xa9\\n";
        decoded += "line <|call|> \"q\" \xc3\xa9\n";
    }
    const std::string input = "<|channel|>analysis<|message|>Plan.<|end|><|start|>assistant<|channel|>commentary "
                              "to=functions.write_file <|constrain|>json<|message|>{\"path\": \"big.txt\", \"content\": \""
                              + body + "\"}<|call|>";
    test::check_large_body<harmony>(input, decoded, 256);
}

} // namespace test_harmony
