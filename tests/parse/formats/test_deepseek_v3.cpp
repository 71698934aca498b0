// deepseek_v3: examples from vLLM's tests/tool_use and DeepSeek V3's chat template, at every split
// position (inside the multi-byte markers too), 1-byte chunks and random chunkings.
#include <toolstream/parse/formats/deepseek_v3.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

namespace test_deepseek_v3 {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<deepseek_v3>);

TEST_CASE("deepseek_v3: fenced JSON calls between prose", "[formats][deepseek_v3]")
{
    const auto r = test::run_checked<deepseek_v3>(
        "I'll look. <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Zürich\"}\n```"
        "<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n```json\n{\"q\": \"```json\"}\n```<｜tool▁call▁end｜>"
        "<｜tool▁calls▁end｜>Then.");
    CHECK(segments(r) == "text \"I'll look. \"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"city\\\": \\\"Zürich\\\"}\"\n"
                         "tool_call {\"tool_name\":\"search\"} \"{\\\"q\\\": \\\"```json\\\"}\"\n"
                         "text \"Then.\"\n");
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Zürich\"}\nseg_3 search {\"q\":\"```json\"}\n");
}

TEST_CASE("deepseek_v3: write_file streams its decoded body", "[formats][deepseek_v3]")
{
    const auto r = test::run_checked<deepseek_v3>(
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>write_file\n```json\n{\"path\": \"r.md\", "
        "\"content\": \"```\\n<｜tool▁call▁end｜>\\n```\\n\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"r.md\"} \"```\\n<｜tool▁call▁end｜>\\n```\\n\"\n");
    CHECK(calls(r) == "seg_1 write_file {\"path\":\"r.md\",\"content\":\"```\\n<｜tool▁call▁end｜>\\n```\\n\"}\n");
}

TEST_CASE("deepseek_v3: what is not a call stays text", "[formats][deepseek_v3]")
{
    for (std::string_view input : {"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function get_weather\n```json\n{}",
                                   "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>\n```json\n{}",
                                   "<｜tool▁calls▁begin｜>```json", "```json\n{}\n```"}) {
        INFO(input);
        const auto r = test::run_checked<deepseek_v3>(input);
        CHECK(r.invocations.empty());
        // A section opener is markup even when no call follows (the engine's rule); the rest is text.
        const auto opener = std::string_view(deepseek_v3_format::section_open);
        CHECK(test::content_of_type(r.events, segment_type::text) == (input.starts_with(opener) ? input.substr(opener.size()) : input));
    }
}

TEST_CASE("deepseek_v3: a call fenced before its JSON closed is invalid, and the next call is read", "[formats][deepseek_v3]")
{
    const auto r = test::run_checked<deepseek_v3>(
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\": [1\n```<｜tool▁call▁end｜>"
        "<｜tool▁call▁begin｜>function<｜tool▁sep｜>g\n```json\n{\"b\": 2}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>");
    CHECK(calls(r) == "seg_1 f {} invalid_arguments\nseg_2 g {\"b\":2}\n");
}

TEST_CASE("deepseek_v3: end of stream", "[formats][deepseek_v3][finalize]")
{
    const std::string_view head = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n";
    CHECK(calls(test::run_checked<deepseek_v3>(std::string(head) + "{\"a\": [1]}\n``")) == "seg_1 f {\"a\":[1]}\n");
    CHECK(calls(test::run_checked<deepseek_v3>(std::string(head) + "{\"a\": [1]}")) == "seg_1 f {\"a\":[1]}\n");
    CHECK(calls(test::run_checked<deepseek_v3>(std::string(head) + "{\"a\": [1")) == "seg_1 f {} incomplete\n");
}

TEST_CASE("deepseek_v3: generated inputs", "[formats][deepseek_v3][generated]")
{
    constexpr std::string_view pieces[] = {
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>a\n```json\n{\"x\": \"}\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>write_file\n```json\n{\"content\":\"é\\n\",\"path\":\"p\"}\n```<｜tool▁call▁end｜>",
        "<｜tool▁call▁begin｜>", "```", "<｜tool▁calls▁end｜>", "plain words ", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40))
        test::run_checked<deepseek_v3>(input);
}

} // namespace test_deepseek_v3
