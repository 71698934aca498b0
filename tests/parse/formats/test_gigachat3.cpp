// gigachat3: inputs written from vLLM's documented behaviour (gigachat3_tool_parser.py: one JSON
// object `{"name": …, "arguments": {…}}` after `<|function_call|>` or `function call<|role_sep|>\n`).
// Every case runs at every split position, in 1-byte and random chunks, with byte conservation.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/gigachat3.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_gigachat3 {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<gigachat3> && gigachat3::decodes_file_bodies);

namespace {

test::policy_run run(std::string_view input) { return test::run_checked<gigachat3>(input); }

} // namespace

TEST_CASE("gigachat3: a call after either opener", "[formats][gigachat3]")
{
    const auto r = run("function call<|role_sep|>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Moscow\", \"days\": 3}}");
    CHECK(calls(r) == "seg_1 get_weather {\"city\":\"Moscow\",\"days\":3}\n");
    CHECK(test::content_of_type(r.events, segment_type::text).empty());   // the role header is markup
    CHECK(r.invocations[0].arguments_raw == R"({"city": "Moscow", "days": 3})");
    CHECK(calls(run("<|function_call|>{\"name\": \"get_time\", \"arguments\": {}}")) == "seg_1 get_time {}\n");
    CHECK(calls(run("<|function_call|> \n{\"name\":\"f\",\"arguments\":{\"a\":[1,{\"b\":null}]}}")) == "seg_1 f {\"a\":[1,{\"b\":null}]}\n");
}

TEST_CASE("gigachat3: text around calls, several calls; near-misses are text", "[formats][gigachat3]")
{
    const auto r = run("Checking the weather.<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}} ok");
    CHECK(segments(r) == "text \"Checking the weather.\"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"name\\\": \\\"get_weather\\\", \\\"arguments\\\": {\\\"city\\\": \\\"Paris\\\"}}\"\n"
                         "text \" ok\"\n");
    const auto two = run("<|function_call|>{\"name\": \"a\", \"arguments\": {\"x\": 1}}\n<|function_call|>{\"name\": \"b\", \"arguments\": {}}");
    CHECK(calls(two) == "seg_1 a {\"x\":1}\nseg_3 b {}\n");
    // The template's separator before the role header is markup only there.
    CHECK(test::content_of_type(run("a<|message_sep|>\nb<|message_sep|>").events, segment_type::text) == "a<|message_sep|>\nb<|message_sep|>");
    for (std::string_view input : {"The function call<|role_sep|> failed", "function call\n{\"name\": \"f\", \"arguments\": {}}",
                                   "function call<|role_sep|>\nnot json", "<|function_call|>[1, 2]", "<|function_call",
                                   "a function call"}) {
        INFO(input);
        const auto t = run(input);
        CHECK(t.invocations.empty());
        CHECK(test::content_of_type(t.events, segment_type::text) == input);
    }
}

TEST_CASE("gigachat3: write_file streams its decoded body live", "[formats][gigachat3]")
{
    handler<gigachat3> h;
    REQUIRE(!h.feed("function call<|role_sep|>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.md\", \"content\": \"# Title\\n"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "# Title\n");
    REQUIRE(!h.feed("<|function_call|> is data\"}}"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.md","content":"# Title\n<|function_call|> is data"})"));
}

TEST_CASE("gigachat3: a call left unclosed ends at the next opener", "[formats][gigachat3][peers]")
{
    // Derived from vLLM tests/tool_parsers/test_kimi_k2_tool_parser.py::test_extract_tool_calls_invalid_json
    // (vLLM's gigachat3 reads one call per output). With no closing marker, the next opener
    // outside a string ends the object: the call ENDs invalid_arguments and the next call is read.
    const auto r = run("<|function_call|>{\"name\": \"a\", \"arguments\": {\"x\": 1<|function_call|>{\"name\": \"b\", \"arguments\": {}}");
    CHECK(calls(r) == "seg_1 a {} invalid_arguments\nseg_2 b {}\n");
}

TEST_CASE("gigachat3: cut off, invalid JSON, generated inputs", "[formats][gigachat3][finalize]")
{
    CHECK(calls(run("<|function_call|>{\"name\": \"f\", \"arguments\": {\"a\": \"x")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("function call<|role_sep|>\n{\"name\": \"f\"")) == "seg_1 f {} incomplete\n");
    const auto bad = run("<|function_call|>{\"name\": \"f\", \"arguments\": {\"a\": tru}}");
    REQUIRE(bad.invocations.size() == 1);
    CHECK(!bad.invocations[0].is_complete());
    // Arguments that are not an object (nor a JSON string holding one) are invalid.
    CHECK(calls(run("<|function_call|>{\"name\": \"f\", \"arguments\": 5}")) == "seg_1 f {} invalid_arguments\n");
    CHECK(calls(run("<|function_call|>{\"name\": \"f\", \"arguments\": \"{\\\"a\\\": 1}\"}")) == "seg_1 f {\"a\":1}\n");
    constexpr std::string_view pieces[] = {
        "function call<|role_sep|>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}",
        "<|function_call|>{\"name\": \"write_file\", \"arguments\": {\"path\": \"x\", \"content\": \"a}\\n\"}}",
        "function call", "<|role_sep|>\n", "<|function_call|>oops", "Done.<|message_sep|>\n\n", "<|message_sep|>\n",
    };
    for (const std::string& input : test::mixed_inputs(pieces, 30)) {
        INFO(input);
        test::check_chunk_invariance<gigachat3>(input);
        test::check_byte_conservation<gigachat3>(input);
    }
}

} // namespace test_gigachat3
