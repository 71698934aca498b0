// deepseek_v31: examples from vLLM's tests/tool_use and DeepSeek V3.1's chat template, at every
// split position (inside the multi-byte markers too), 1-byte chunks and random chunkings.
#include <toolstream/parse/formats/deepseek_v31.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

namespace test_deepseek_v31 {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<deepseek_v31>);

TEST_CASE("deepseek_v31: a section of calls between prose", "[formats][deepseek_v31]")
{
    const auto r = test::run_checked<deepseek_v31>(
        "Let me check both. <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"location\": \"Tokyo\"}"
        "<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{\"tz\": \"Asia/Tokyo — é\"}<｜tool▁call▁end｜>"
        "<｜tool▁calls▁end｜> Done.");
    CHECK(segments(r) == "text \"Let me check both. \"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"location\\\": \\\"Tokyo\\\"}\"\n"
                         "tool_call {\"tool_name\":\"get_time\"} \"{\\\"tz\\\": \\\"Asia/Tokyo — é\\\"}\"\n"
                         "text \" Done.\"\n");
    CHECK(calls(r) == "seg_2 get_weather {\"location\":\"Tokyo\"}\nseg_3 get_time {\"tz\":\"Asia/Tokyo — é\"}\n");
}

TEST_CASE("deepseek_v31: the smallest hold cap still fits the 27-byte markers", "[formats][deepseek_v31]")
{
    // Found by fuzz_formats: with max_held = 16 the opening's window was shorter than
    // `<｜tool▁call▁begin｜>` and reading past it threw std::out_of_range out of feed().
    const text_format_options tiny{.max_held = 16, .max_held_body = 64, .schemas = {}};
    const auto r = test::run_checked<deepseek_v31>(
        "a<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{\"x\": 1}<｜tool▁call▁end｜><｜tool▁calls▁end｜>", tiny);
    CHECK(calls(r) == "seg_2 f {\"x\":1}\n");
}

TEST_CASE("deepseek_v31: write_file streams its decoded body; markers inside strings end nothing", "[formats][deepseek_v31]")
{
    const auto r = test::run_checked<deepseek_v31>(
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>write_file<｜tool▁sep｜>{\"path\": \"a.md\", \"content\": "
        "\"# T\\n<｜tool▁call▁end｜><｜tool▁calls▁end｜> }\\n\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>after");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.md\"} \"# T\\n<｜tool▁call▁end｜><｜tool▁calls▁end｜> }\\n\"\n"
                         "text \"after\"\n");
    CHECK(calls(r) == "seg_1 write_file {\"path\":\"a.md\",\"content\":\"# T\\n<｜tool▁call▁end｜><｜tool▁calls▁end｜> }\\n\"}\n");
}

TEST_CASE("deepseek_v31: what is not a call stays text", "[formats][deepseek_v31]")
{
    for (std::string_view input : {"<｜tool▁calls▁begin｜>just words", "<｜tool▁call▁begin｜>x<｜tool▁sep｜>{}",
                                   "<｜tool▁calls▁be", "a <｜tool b", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜><｜tool▁sep｜>{}"}) {
        INFO(input);
        const auto r = test::run_checked<deepseek_v31>(input);
        CHECK(r.invocations.empty());
        // A section opener is markup even when no call follows (the engine's rule); the rest is text.
        const auto opener = std::string_view(deepseek_v31_format::section_open);
        CHECK(test::content_of_type(r.events, segment_type::text) == (input.starts_with(opener) ? input.substr(opener.size()) : input));
    }
}

TEST_CASE("deepseek_v31: end of stream", "[formats][deepseek_v31][finalize]")
{
    // Stripped end markers after complete arguments: complete.
    CHECK(calls(test::run_checked<deepseek_v31>("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{\"a\": 1}"))
          == "seg_1 f {\"a\":1}\n");
    CHECK(calls(test::run_checked<deepseek_v31>("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{\"a\": 1}<｜tool▁call▁e"))
          == "seg_1 f {\"a\":1}\n");
    // Cut inside the arguments: incomplete.
    CHECK(calls(test::run_checked<deepseek_v31>("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{\"a\": \"<｜tool▁"))
          == "seg_1 f {} incomplete\n");
}

TEST_CASE("deepseek_v31: generated inputs and a 1 MiB body", "[formats][deepseek_v31][generated][large]")
{
    constexpr std::string_view pieces[] = {
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>a<｜tool▁sep｜>{\"x\": [1, {\"y\": \"}]\"}]}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>write_file<｜tool▁sep｜>{\"content\":\"l1\\nl2\",\"path\":\"p\"}<｜tool▁call▁end｜>",
        "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁calls▁end｜>", "plain é words ", "\n", "{\"a\":1}",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40))
        test::run_checked<deepseek_v31>(input);

    std::string body;
    while (body.size() < (std::size_t{1} << 20))
        body += "line " + std::to_string(body.size()) + " \\\"q\\\" <｜tool▁call▁end｜>\\n";
    const std::string input = "Writing.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>write_file<｜tool▁sep｜>{\"path\":\"big\",\"content\":\""
        + body + "\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
    test::check_large_body<deepseek_v31>(input, std::string(boost::json::parse("\"" + body + "\"").as_string()), 64);
}

} // namespace test_deepseek_v31
