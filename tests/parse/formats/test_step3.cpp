// step3: <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="NAME">
// <steptml:parameter name="K">V</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>,
// as vLLM's step3 tool parser documents it, with and without schemas. Every input runs at every
// split position, in 1-byte and random chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/step3.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace test_step3 {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

template<class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    return test::run_checked<step3>(input, args...);
}

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{
      "name":"get_weather","parameters":{"type":"object","properties":{"location":{"type":"string"},
      "days":{"type":"integer"},"celsius":{"type":"boolean"}}}}}])", max_held);
}

// One call of `name` with its parameters' XML.
std::string call(std::string_view name, std::string_view parameters, bool closed = true)
{
    return "<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"" + std::string(name) + "\">"
        + std::string(parameters) + (closed ? "</steptml:invoke><｜tool_call_end｜>" : "");
}

} // namespace

static_assert(test::registered_text_format<step3>);

TEST_CASE("step3: a section of two calls, prose kept", "[formats][step3]")
{
    const std::string input = "Checking.\n<｜tool_calls_begin｜>\n"
        + call("get_weather", "<steptml:parameter name=\"location\">Shanghai</steptml:parameter>"
                              "<steptml:parameter name=\"days\">3</steptml:parameter>")
        + "\n" + call("get_weather", "\n<steptml:parameter name=\"celsius\">\ntrue\n</steptml:parameter>\n")
        + "\n<｜tool_calls_end｜>Done.";
    const auto r = run(input);
    CHECK(calls(r) == "seg_2 get_weather {\"location\":\"Shanghai\",\"days\":\"3\"}\nseg_3 get_weather {\"celsius\":\"true\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Checking.\nDone.");
    // vLLM casts each value by the tool's schema.
    CHECK(calls(run(input, with_schemas())) == "seg_2 get_weather {\"location\":\"Shanghai\",\"days\":3}\n"
                                               "seg_3 get_weather {\"celsius\":true}\n");
    // A call without parameters.
    CHECK(calls(run("<｜tool_calls_begin｜>" + call("now", "") + "<｜tool_calls_end｜>")) == "seg_1 now {}\n");
}

TEST_CASE("step3: write_file streams its body live; a literal close stays in it", "[formats][step3]")
{
    const auto r = run("<｜tool_calls_begin｜>" + call("write_file", "<steptml:parameter name=\"path\">a.xml</steptml:parameter>"
                       "<steptml:parameter name=\"content\"><a></steptml:parameter></a>\n</steptml:parameter>")
                       + "<｜tool_calls_end｜>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.xml\"} \"<a></steptml:parameter></a>\"\n");
    handler<step3> h;
    REQUIRE(!h.feed("<｜tool_calls_begin｜>" + call("write_file", "<steptml:parameter name=\"path\">a.txt</steptml:parameter>"
                    "<steptml:parameter name=\"content\">first, ", false)));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "first, ");
    REQUIRE(!h.feed("second</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"first, second"})"));
}

TEST_CASE("step3: calls without the function<｜tool_sep｜> prefix (vLLM's shared parser tests)", "[formats][step3][peers]")
{
    // vLLM tests/tool_parsers/test_step3_tool_parser.py, TestStep3ToolParser's ToolParserTestConfig:
    // single_tool_call_output, various_data_types_output (no schema: strings),
    // empty_arguments_output, surrounding_text_output and escaped_strings_output.
    const auto section = [](std::string_view name, std::string_view parameters) {
        return "<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name=\"" + std::string(name) + "\">"
            + std::string(parameters) + "</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>";
    };
    const auto parameter = [](std::string_view key, std::string_view value) {
        return "<steptml:parameter name=\"" + std::string(key) + "\">" + std::string(value) + "</steptml:parameter>";
    };
    CHECK(calls(run(section("get_weather", parameter("city", "Tokyo")))) == "seg_1 get_weather {\"city\":\"Tokyo\"}\n");
    const std::string typed = parameter("string_field", "hello") + parameter("int_field", "42")
        + parameter("float_field", "3.14") + parameter("bool_field", "true") + parameter("null_field", "null")
        + parameter("array_field", R"(["a", "b", "c"])") + parameter("object_field", R"({"nested": "value"})");
    CHECK(calls(run(section("test_function", typed)))
          == R"(seg_1 test_function {"string_field":"hello","int_field":"42","float_field":"3.14","bool_field":"true",)"
             R"("null_field":"null","array_field":"[\"a\", \"b\", \"c\"]","object_field":"{\"nested\": \"value\"}"})" "\n");
    CHECK(calls(run(section("refresh", ""))) == "seg_1 refresh {}\n");
    const auto around = run("Let me check the weather for you.\n\n" + section("get_weather", parameter("city", "Tokyo"))
                            + "\n\nI'll get that information.");
    CHECK(calls(around) == "seg_2 get_weather {\"city\":\"Tokyo\"}\n");
    CHECK(test::content_of_type(around.events, segment_type::text)
          == "Let me check the weather for you.\n\n\n\nI'll get that information.");
    const std::string escaped = boost::json::serialize(boost::json::object{
        {"quoted", "He said \"hello\""}, {"path", R"(C:\\Users\\file.txt)"}, {"newline", R"(line1\nline2)"}});
    const std::string quoted_values = parameter("quoted", "He said \"hello\"") + parameter("path", R"(C:\\Users\\file.txt)")
        + parameter("newline", R"(line1\nline2)");
    CHECK(calls(run(section("test_function", quoted_values))) == "seg_1 test_function " + escaped + "\n");
    // Its malformed inputs: a call cut at its header is incomplete; one outside a section is text.
    CHECK(calls(run("<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name=\"func\">")) == "seg_1 func {} incomplete\n");
    CHECK(run("<｜tool_call_begin｜><steptml:invoke name=\"func\"></steptml:invoke><｜tool_call_end｜>").invocations.empty());
}

TEST_CASE("step3: end of stream, not a call", "[formats][step3][finalize]")
{
    // The closing tokens stripped after </steptml:invoke>: complete.
    CHECK(calls(run("<｜tool_calls_begin｜>" + call("f", "<steptml:parameter name=\"a\">1</steptml:parameter>", false)
                    + "</steptml:invoke>")) == "seg_1 f {\"a\":\"1\"}\n");
    // Cut before it, or inside a value: incomplete.
    CHECK(calls(run("<｜tool_calls_begin｜>" + call("f", "<steptml:parameter name=\"a\">1</steptml:parameter>", false)))
          == "seg_1 f {} incomplete\n");
    CHECK(calls(run("<｜tool_calls_begin｜>" + call("f", "<steptml:parameter name=\"a\">1</steptml:para", false)))
          == "seg_1 f {} incomplete\n");
    // Another call type, or no invoke: text.
    for (std::string_view input : {"<｜tool_calls_begin｜><｜tool_call_begin｜>code<｜tool_sep｜><steptml:invoke name=\"f\">x",
                                   "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>f\">",
                                   "<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"f\">"}) {
        INFO(input);
        CHECK(run(input).invocations.empty());
    }
}

TEST_CASE("step3 + step3 reasoning: all before </think> is reasoning, a call section included", "[formats][step3][reasoning]")
{
    using reasoned = reasoning_policy<step3, step3_reasoning>;
    const std::string section = "<｜tool_calls_begin｜>" + call("f", "<steptml:parameter name=\"a\">1</steptml:parameter>")
        + "<｜tool_calls_end｜>";
    const auto r = test::run_checked<reasoned>("Plan: " + section + "</think>Now." + section);
    CHECK(test::content_of_type(r.events, segment_type::reasoning) == "Plan: " + section);
    CHECK(test::content_of_type(r.events, segment_type::text) == "Now.");
    CHECK(calls(r) == "seg_3 f {\"a\":\"1\"}\n");
    REQUIRE(find_reasoning_parser("step3") != nullptr);
}

TEST_CASE("step3: generated inputs at every chunking", "[formats][step3][generated]")
{
    const std::string first = "<｜tool_calls_begin｜>" + call("get_weather", "<steptml:parameter name=\"days\">4</steptml:parameter>")
        + "<｜tool_calls_end｜>";
    const std::string second = "<｜tool_calls_begin｜>" + call("write_file", "<steptml:parameter name=\"content\">é</steptml:parameter>x"
        "</steptml:parameter><steptml:parameter name=\"path\">p</steptml:parameter>");
    const std::string_view pieces[] = {first, second, "<｜tool_calls_begin｜>", "</steptml:parameter>", "<｜tool_call_end｜>", "\n"};
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        run(input);
        run(input, with_schemas(80));
    }
}

} // namespace test_step3
