// kimi_k2: examples from vLLM's tests/tool_use and Kimi K2's chat template, at every split
// position, 1-byte chunks and random chunkings.
#include <toolstream/parse/formats/kimi_k2.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

namespace test_kimi_k2 {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<kimi_k2>);

TEST_CASE("kimi_k2: calls keep functions.NAME:IDX as their id", "[formats][kimi_k2]")
{
    const auto r = test::run_checked<kimi_k2>(
        "I'll check. <|tool_calls_section_begin|> <|tool_call_begin|>functions.get_weather:0 <|tool_call_argument_begin|> "
        "{\"city\": \"Beijing\"} <|tool_call_end|> <|tool_call_begin|>functions.write_file:1<|tool_call_argument_begin|>"
        "{\"path\": \"a.txt\", \"content\": \"x <|tool_call_end|> y\"}<|tool_call_end|><|tool_calls_section_end|> ok");
    CHECK(segments(r) == "text \"I'll check. \"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"city\\\": \\\"Beijing\\\"}\"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"a.txt\"} \"x <|tool_call_end|> y\"\n"
                         "text \" ok\"\n");
    CHECK(calls(r) == "functions.get_weather:0 get_weather {\"city\":\"Beijing\"}\n"
                      "functions.write_file:1 write_file {\"path\":\"a.txt\",\"content\":\"x <|tool_call_end|> y\"}\n");
    // Without the functions. prefix, the name is what precedes :IDX.
    CHECK(calls(test::run_checked<kimi_k2>("<|tool_calls_section_begin|><|tool_call_begin|>search:3<|tool_call_argument_begin|>{}"
                                           "<|tool_call_end|><|tool_calls_section_end|>"))
          == "search:3 search {}\n");
}

TEST_CASE("kimi_k2: what is not a call stays text", "[formats][kimi_k2]")
{
    for (std::string_view input : {"<|tool_calls_section_begin|><|tool_call_begin|>functions.f<|tool_call_argument_begin|>{}",
                                   "<|tool_calls_section_begin|>words", "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}",
                                   "<|tool_calls_sect"}) {
        INFO(input);
        const auto r = test::run_checked<kimi_k2>(input);
        CHECK(r.invocations.empty());
        // A section opener is markup even when no call follows (the engine's rule); the rest is text.
        const auto opener = std::string_view(kimi_k2_format::section_open);
        CHECK(test::content_of_type(r.events, segment_type::text) == (input.starts_with(opener) ? input.substr(opener.size()) : input));
    }
}

TEST_CASE("kimi_k2: a call closed inside its JSON is invalid, and the next call is read", "[formats][kimi_k2][peers]")
{
    // vLLM tests/tool_parsers/test_kimi_k2_tool_parser.py, test_extract_tool_calls_invalid_json:
    // vLLM extracts both calls (the first with its raw text as arguments); here the first ENDs
    // invalid_arguments (flag, don't drop) and the second is complete.
    const auto r = test::run_checked<kimi_k2>(
        "I'll help you check the weather. <|tool_calls_section_begin|> <|tool_call_begin|>\n"
        "functions.invalid_get_weather:0 <|tool_call_argument_begin|> {\"city\": \"Beijing\" <|tool_call_end|> <|tool_call_begin|>\n"
        "functions.valid_get_weather:1 <|tool_call_argument_begin|> {\"city\": \"Shanghai\"} <|tool_call_end|> <|tool_calls_section_end|>");
    CHECK(calls(r) == "functions.invalid_get_weather:0 invalid_get_weather {} invalid_arguments\n"
                      "functions.valid_get_weather:1 valid_get_weather {\"city\":\"Shanghai\"}\n");
    // Inside a string the marker is data, as in a file body.
    CHECK(calls(test::run_checked<kimi_k2>("<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>"
                                           "{\"a\": \"<|tool_call_end|>\"}<|tool_call_end|><|tool_calls_section_end|>"))
          == "functions.f:0 f {\"a\":\"<|tool_call_end|>\"}\n");
}

TEST_CASE("kimi_k2: end of stream", "[formats][kimi_k2][finalize]")
{
    const std::string head = "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>";
    CHECK(calls(test::run_checked<kimi_k2>(head + "{\"a\": 1}")) == "functions.f:0 f {\"a\":1}\n");
    CHECK(calls(test::run_checked<kimi_k2>(head + "{\"a\": 1}<|tool_call_end|><|tool_calls_sec")) == "functions.f:0 f {\"a\":1}\n");
    CHECK(calls(test::run_checked<kimi_k2>(head + "{\"a\": ")) == "functions.f:0 f {} incomplete\n");
}

TEST_CASE("kimi_k2: generated inputs", "[formats][kimi_k2][generated]")
{
    constexpr std::string_view pieces[] = {
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{\"x\": \"}\"}<|tool_call_end|><|tool_calls_section_end|>",
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.write_file:1<|tool_call_argument_begin|>{\"content\":\"é\\n\",\"path\":\"p\"}<|tool_call_end|>",
        "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_calls_section_end|>", "plain words ", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40))
        test::run_checked<kimi_k2>(input);
}

} // namespace test_kimi_k2
