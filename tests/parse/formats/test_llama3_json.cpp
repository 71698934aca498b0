// llama3_json: examples from vLLM's tests/tool_use (llama3_json, llama4_json) and its Llama 3.1
// JSON chat template, at every split position, 1-byte and random chunks, with byte conservation.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/llama3_json.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace test_llama3_json {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<llama3_json> && llama3_json::decodes_file_bodies);

TEST_CASE("llama3_json: one call, then calls separated by ;", "[formats][llama3_json]")
{
    const auto one = test::run_checked<llama3_json>(
        "{\"name\": \"get_current_weather\", \"parameters\": {\"city\": \"Dallas\", \"state\": \"TX\"}}");
    CHECK(calls(one) == "seg_1 get_current_weather {\"city\":\"Dallas\",\"state\":\"TX\"}\n");
    CHECK(one.invocations[0].arguments_raw == R"({"city": "Dallas", "state": "TX"})");

    const auto two = test::run_checked<llama3_json>(
        "<|python_tag|>{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Orlando\"}}; "
        "{\"name\": \"get_time\", \"arguments\": {\"tz\": \"EST; {x}\"}}\n;{ \"name\" : \"noop\", \"parameters\": {}}\nDone.");
    CHECK(calls(two) == "seg_1 get_weather {\"city\":\"Orlando\"}\nseg_2 get_time {\"tz\":\"EST; {x}\"}\n"
                        "seg_3 noop {}\n");
    CHECK(test::content_of_type(two.events, segment_type::text) == "\nDone.");
}

TEST_CASE("llama3_json: prose stays text; <|python_tag|> opens a call after prose", "[formats][llama3_json]")
{
    // Objects that are not calls (vLLM: no name and parameters/arguments keys) stay text.
    for (std::string_view input : {"Use {x} or {\"a\": 1}.", "The answer: {\"name\": \"f\", \"size\": {}}",
                                   "{\"a\": 1}", "{ not json", "<|python_tag|>brave_search.call(query=\"x\")",
                                   "<|python_tag|>", "<|python_ta", "[{\"name\": \"f\"}]"}) {
        INFO(input);
        const auto r = test::run_checked<llama3_json>(input);
        CHECK(r.invocations.empty());
        CHECK(test::content_of_type(r.events, segment_type::text) == input);
    }
    const auto r = test::run_checked<llama3_json>(
        "  Let me look {that} up.\n<|python_tag|> {\"name\": \"search\", \"parameters\": {\"q\": \"<|python_tag|>\"}} ok");
    CHECK(segments(r) == "text \"  Let me look {that} up.\\n\"\n"
                         "tool_call {\"tool_name\":\"search\"} "
                         "\"{\\\"name\\\": \\\"search\\\", \\\"parameters\\\": {\\\"q\\\": \\\"<|python_tag|>\\\"}}\"\n"
                         "text \" ok\"\n");
    // Blanks before the first `{` are still the start.
    CHECK(calls(test::run_checked<llama3_json>("\n {\"name\": \"f\", \"parameters\": {\"a\": 1}}")) == "seg_2 f {\"a\":1}\n");
}

TEST_CASE("llama3_json: write_file streams its decoded body", "[formats][llama3_json]")
{
    const auto r = test::run_checked<llama3_json>(
        "{\"name\": \"write_file\", \"parameters\": {\"path\": \"t\xc3\xa9st.md\", \"content\": "
        "\"# \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80 }; {\\\"name\\\": 1}\\n\"}}; {\"name\": \"f\", \"parameters\": {}}");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"t\xc3\xa9st.md\"} "
                         "\"# \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80 }; {\\\"name\\\": 1}\\n\"\n"
                         "tool_call {\"tool_name\":\"f\"} \"{\\\"name\\\": \\\"f\\\", \\\"parameters\\\": {}}\"\n");
}

TEST_CASE("llama3_json: end of stream and bad calls", "[formats][llama3_json][finalize]")
{
    CHECK(calls(test::run_checked<llama3_json>("{\"name\": \"f\", \"parameters\": {\"a\": \"x")) == "seg_1 f {} incomplete\n");
    CHECK(calls(test::run_checked<llama3_json>("{\"name\": \"f\", \"parameters\": {\"a\": 1}};")) == "seg_1 f {\"a\":1}\n");
    CHECK(calls(test::run_checked<llama3_json>("{\"name\": \"f\", \"parameters\": {\"a\": tru}}"))
          == "seg_1 f {} invalid_arguments\n");
    // vLLM tests/tool_parsers/test_llama3_json_tool_parser.py, test_extract_tool_calls_invalid_json:
    // content there. Here its first keys are a call's, so it is a call flagged incomplete, its raw
    // text kept (docs/text_formats.md says why).
    const auto broken = test::run_checked<llama3_json>(R"({"name": "invalidTool", "parameters": {invalid json})");
    CHECK(calls(broken) == "seg_1 invalidTool {} incomplete\n");
    CHECK(segments(broken) == R"(tool_call {"tool_name":"invalidTool"} "{\"name\": \"invalidTool\", \"parameters\": {invalid json}")"
                              " incomplete\n");
}

TEST_CASE("llama3_json: a call left unclosed ends at the next ;", "[formats][llama3_json][peers]")
{
    // vLLM tests/tool_parsers/test_llama3_json_tool_parser.py::test_extract_tool_calls_multiple_json,
    // its first object's closing braces missing: vLLM's parser returns the whole output as content
    // when an object at a `{` does not decode. Here `;` outside a string ends the open object:
    // that call ENDs invalid_arguments (flag, don't drop), and the two after it are read.
    const auto r = test::run_checked<llama3_json>(
        R"({"name": "searchTool", "parameters": {"query": "test1"; )"
        R"({"name": "getOpenIncidentsTool", "parameters": {}}; {"name": "searchTool", "parameters": {"query": "test2"}})");
    CHECK(calls(r) == "seg_1 searchTool {} invalid_arguments\nseg_2 getOpenIncidentsTool {}\n"
                      "seg_3 searchTool {\"query\":\"test2\"}\n");
}

TEST_CASE("llama3_json: a 1 MiB write_file body streams with a bounded hold", "[formats][llama3_json][large]")
{
    std::string body;
    std::string decoded;
    while (body.size() < (std::size_t{1} << 20)) {
        body += "line {\\\"name\\\": 1}; \xc3\xa9\\n";
        decoded += "line {\"name\": 1}; \xc3\xa9\n";
    }
    const std::string input = "{\"name\": \"write_file\", \"parameters\": {\"path\": \"big.txt\", \"content\": \"" + body
                              + "\"}}\nAfter.";
    test::check_large_body<llama3_json>(input, decoded, 128);
}

} // namespace test_llama3_json
