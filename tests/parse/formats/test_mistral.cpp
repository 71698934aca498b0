// mistral_calls (alias mistral): examples from vLLM's tests/tool_parsers/test_mistral_tool_parser.py and llama.cpp's
// test-chat (Mistral Nemo, Magistral), both tokenizer generations, at every split position,
// 1-byte and random chunks, with byte conservation.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/mistral_calls.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace test_mistral {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<mistral_calls> && mistral_calls::decodes_file_bodies);

TEST_CASE("mistral_calls: pre-v11 call list, prose before and after", "[formats][mistral_calls]")
{
    const auto r = test::run_checked<mistral_calls>(
        "Hello[TOOL_CALLS] [{\"name\": \"add\", \"arguments\": {\"a\": 3.5, \"b\": 4}}, {\"arguments\":{\"city\": "
        "\"San Francisco\", \"unit\": \"celsius\"}, \"name\": \"get_current_weather\", \"id\": \"123456789\"}]\nextra");
    CHECK(calls(r) == "seg_2 add {\"a\":3.5E0,\"b\":4}\n"
                      "seg_3 get_current_weather {\"city\":\"San Francisco\",\"unit\":\"celsius\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Hello\nextra");
    CHECK(r.invocations[0].arguments_raw == R"({"a": 3.5, "b": 4})");
}

TEST_CASE("mistral_calls: v11 calls, with [ARGS], [CALL_ID] or neither", "[formats][mistral_calls]")
{
    // Magistral / Mistral Small 3.2 as llama.cpp's test-chat writes them.
    const auto r = test::run_checked<mistral_calls>(
        "Let me add. [TOOL_CALLS]special_function[CALL_ID]123456789[ARGS]{\"arg1\": 1}"
        "[TOOL_CALLS]add[ARGS]{\"a\": 3.5, \"b\": 4} and [TOOL_CALLS]multiply{\"a\": 3, \"b\": 6}.");
    CHECK(segments(r) == "text \"Let me add. \"\n"
                         "tool_call {\"tool_name\":\"special_function\"} \"{\\\"arg1\\\": 1}\"\n"
                         "tool_call {\"tool_name\":\"add\"} \"{\\\"a\\\": 3.5, \\\"b\\\": 4}\"\n"
                         "text \" and \"\n"
                         "tool_call {\"tool_name\":\"multiply\"} \"{\\\"a\\\": 3, \\\"b\\\": 6}\"\n"
                         "text \".\"\n");
    CHECK(calls(r) == "123456789 special_function {\"arg1\":1}\nseg_2 add {\"a\":3.5E0,\"b\":4}\n"
                      "seg_4 multiply {\"a\":3,\"b\":6}\n");
}

TEST_CASE("mistral_calls: write_file streams its decoded body; markup inside strings ends nothing", "[formats][mistral_calls]")
{
    const std::string body = "# \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80 [TOOL_CALLS][ARGS]{\\\"}\\\"]}\\n";
    const std::string decoded = "# \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80 [TOOL_CALLS][ARGS]{\"}\"]}\n";
    for (const std::string& input :
         {"Writing.[TOOL_CALLS]write_file[ARGS]{\"path\": \"a.md\", \"content\": \"" + body + "\"}after",
          "Writing.[TOOL_CALLS][{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.md\", \"content\": \"" + body
              + "\"}}]after"}) {
        INFO(input);
        const auto r = test::run_checked<mistral_calls>(input);
        CHECK(segments(r) == "text \"Writing.\"\nwrite_file {\"tool_name\":\"write_file\",\"path\":\"a.md\"} "
                                 + boost::json::serialize(boost::json::string(decoded)) + "\ntext \"after\"\n");
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].arguments.at("content").as_string() == decoded);
    }
}

TEST_CASE("mistral_calls: what is not a call stays text", "[formats][mistral_calls]")
{
    for (std::string_view input : {"[TOOL_CALLS] not json at all", "[TOOL_CALLS]", "[TOOL_CALLS]toolname_no_args",
                                   "[TOOL_CALLS][1, 2]", "[TOOL_CALLS]a b{}", "[TOOL_CALLS]f[CALL_ID][ARGS]{}",
                                   "[TOOL_CALLS]f[OTHER]{}", "[TOOL_CA", "a [TOOL b", "{\"name\": \"f\"}"}) {
        INFO(input);
        const auto r = test::run_checked<mistral_calls>(input);
        CHECK(r.invocations.empty());
        CHECK(test::content_of_type(r.events, segment_type::text) == input);
    }
}

TEST_CASE("mistral_calls: end of stream and bad arguments", "[formats][mistral_calls][finalize]")
{
    CHECK(calls(test::run_checked<mistral_calls>("[TOOL_CALLS]f[ARGS]{\"a\": \"[TOOL_CALLS]")) == "seg_1 f {} incomplete\n");
    CHECK(calls(test::run_checked<mistral_calls>("[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {\"a\": 1}}"))
          == "seg_1 f {\"a\":1}\n");
    CHECK(calls(test::run_checked<mistral_calls>("[TOOL_CALLS]f[ARGS] 42 tail")) == "seg_1 f {} invalid_arguments\n");
}

TEST_CASE("mistral_calls: a call left unclosed ends at the next [TOOL_CALLS]", "[formats][mistral_calls][peers]")
{
    // vLLM tests/tool_parsers/test_mistral_tool_parser.py::test_extract_tool_calls[multiple_tool_calls],
    // add's closing brace missing: vLLM splits the output at each [TOOL_CALLS], so multiply is read
    // (and add's raw text passed on as its arguments). Here [TOOL_CALLS] outside a string ends the
    // object: add ENDs invalid_arguments, multiply is complete.
    const auto r = test::run_checked<mistral_calls>(R"([TOOL_CALLS]add{"a": 3.5, "b": [4][TOOL_CALLS]multiply{"a": 3, "b": 6})");
    CHECK(calls(r) == "seg_1 add {} invalid_arguments\nseg_2 multiply {\"a\":3,\"b\":6}\n");
    CHECK(r.invocations[0].arguments_raw == R"({"a": 3.5, "b": [4])");
    // The pre-v11 list alike.
    CHECK(calls(test::run_checked<mistral_calls>(R"([TOOL_CALLS][{"name": "add", "arguments": {"a": 1}[TOOL_CALLS][{"name": "f", "arguments": {}}])"))
          == "seg_1 add {} invalid_arguments\nseg_2 f {}\n");
    // `[` is JSON, so only the whole marker ends the object; a prefix of it cut by the end of the
    // stream is the arguments'.
    const auto cut = test::run_checked<mistral_calls>(R"([TOOL_CALLS]f{"a": [[1], [TOOL_CA)");
    CHECK(segments(cut) == R"(tool_call {"tool_name":"f"} "{\"a\": [[1], [TOOL_CA" incomplete)" "\n");
}

TEST_CASE("mistral_calls: a 1 MiB write_file body streams with a bounded hold", "[formats][mistral_calls][large]")
{
    std::string body;
    std::string decoded;
    while (body.size() < (std::size_t{1} << 20)) {
        body += "line with \\\"quotes\\\" and [TOOL_CALLS] \xc3\xa9\\n";
        decoded += "line with \"quotes\" and [TOOL_CALLS] \xc3\xa9\n";
    }
    const std::string input = "ok [TOOL_CALLS]write_file[ARGS]{\"path\": \"big.txt\", \"content\": \"" + body + "\"} done";
    test::check_large_body<mistral_calls>(input, decoded, 128);
}

} // namespace test_mistral
