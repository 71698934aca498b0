// Which call streams as a file or shell segment: a tool named after a tool_syntax row with that
// row's shape (tool_syntax.hpp has_tool_shape), never the name alone. The tool's schema shows the
// shape when the options have one; else the arguments' first member does (call_frame::member),
// read in every kind of format reader: JSON call objects (raw or string arguments), a JSON
// object after a header, key/value parameters, Gemma's serialisation and Python calls. Every input
// runs at every split position, in 1-byte and random chunks, with byte conservation.
#include <toolstream/parse/formats/deepseek_v31.hpp>
#include <toolstream/parse/formats/gemma4.hpp>
#include <toolstream/parse/formats/glm45.hpp>
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/formats/poolside_v1.hpp>
#include <toolstream/parse/formats/pythonic.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <string>
#include <string_view>

namespace test_file_tool_shape {

using namespace toolstream;
using test::calls;

namespace {

// The library's file tool, and a model's own write_file (vLLM's poolside test: content and mode).
constexpr std::string_view file_tool = R"([{"type":"function","function":{"name":"write_file","parameters":{
  "type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}}}}}])";
constexpr std::string_view model_tool = R"([{"type":"function","function":{"name":"write_file","parameters":{
  "type":"object","properties":{"content":{"type":"string"},"mode":{"type":"integer"}},"required":["content"]}}}])";

// The segment type of each tool segment, then the calls.
std::string kinds_and_calls(const test::policy_run& r)
{
    std::string out;
    for (const auto& e : r.events)
        if (e.type == segment_event_type::SEGMENT_START && is_tool_segment(e.segment_kind))
            out += std::string(boost::describe::enum_to_string(e.segment_kind, "?")) + " ";
    return out + "| " + calls(r);
}

// One write_file call with `first` and `second` members (`key` then the JSON string value), in
// each reader's syntax.
struct written {
    std::string hermes, hermes_string, deepseek_v31, glm45, gemma4, pythonic;
};

written call_of(std::string_view first_key, std::string_view first, std::string_view second_key, std::string_view second)
{
    const std::string a(first_key), b(second_key), x(first), y(second);
    const std::string object = "{\"" + a + "\": \"" + x + "\", \"" + b + "\": \"" + y + "\"}";
    return {"<tool_call>{\"name\": \"write_file\", \"arguments\": " + object + "}</tool_call>",
            "<tool_call>{\"name\": \"write_file\", \"arguments\": \"{\\\"" + a + "\\\": \\\"" + x + "\\\", \\\"" + b
                + "\\\": \\\"" + y + "\\\"}\"}</tool_call>",
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>write_file<｜tool▁sep｜>" + object
                + "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
            "<tool_call>write_file\n<arg_key>" + a + "</arg_key>\n<arg_value>" + x + "</arg_value>\n<arg_key>" + b
                + "</arg_key>\n<arg_value>" + y + "</arg_value>\n</tool_call>",
            "<|tool_call>call:write_file{" + a + ":<|\"|>" + x + "<|\"|>," + b + ":<|\"|>" + y + "<|\"|>}<tool_call|>",
            "[write_file(" + a + "='" + x + "', " + b + "='" + y + "')]"};
}

// The same expectation for the call in every reader, with `options` (text_format_options).
void check_every_reader(const written& w, const std::string& expected, const text_format_options& options = {})
{
    const std::pair<std::string_view, std::string> runs[] = {
        {"hermes", kinds_and_calls(test::run_checked<hermes>(w.hermes, options))},
        {"hermes, string arguments", kinds_and_calls(test::run_checked<hermes>(w.hermes_string, options))},
        {"deepseek_v31", kinds_and_calls(test::run_checked<deepseek_v31>(w.deepseek_v31, options))},
        {"glm45", kinds_and_calls(test::run_checked<glm45>(w.glm45, options))},
        {"gemma4", kinds_and_calls(test::run_checked<gemma4>(w.gemma4, options))},
        {"pythonic", kinds_and_calls(test::run_checked<pythonic>(w.pythonic, options))},
    };
    for (const auto& [format, got] : runs) {
        INFO(format);
        CHECK(got == expected);
    }
}

} // namespace

TEST_CASE("file tool shape: without a schema, the first member shows it", "[formats][file_tool_shape]")
{
    // `path` first: the library's file tool, whose body streams as the segment's content.
    check_every_reader(call_of("path", "a.txt", "content", "hi"), "write_file | seg_1 write_file {\"path\":\"a.txt\",\"content\":\"hi\"}\n");
    // Any other member first: an ordinary call, its arguments as written (the body is not known to
    // be a file's before the call must stream).
    check_every_reader(call_of("content", "hi", "mode", "w"), "tool_call | seg_1 write_file {\"content\":\"hi\",\"mode\":\"w\"}\n");
    check_every_reader(call_of("content", "hi", "path", "a.txt"), "tool_call | seg_1 write_file {\"content\":\"hi\",\"path\":\"a.txt\"}\n");
    // No member at all: an ordinary call (the file tool would need its path).
    CHECK(kinds_and_calls(test::run_checked<hermes>(R"(<tool_call>{"name": "write_file", "arguments": {}}</tool_call>)"))
          == "tool_call | seg_1 write_file {}\n");
    CHECK(kinds_and_calls(test::run_checked<pythonic>("[write_file()]")) == "tool_call | seg_1 write_file {}\n");
    // run_bash has no path: its command first shows its shape.
    CHECK(kinds_and_calls(test::run_checked<glm45>("<tool_call>run_bash\n<arg_key>command</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>"))
          == "run_bash | seg_1 run_bash {\"command\":\"ls\"}\n");
    CHECK(kinds_and_calls(test::run_checked<glm45>("<tool_call>run_bash\n<arg_key>cmd</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>"))
          == "tool_call | seg_1 run_bash {\"cmd\":\"ls\"}\n");
}

TEST_CASE("file tool shape: the tool's schema shows it, whatever the order of the members", "[formats][file_tool_shape]")
{
    // The library's file tool: the body may come first (START waits for the path, bounded).
    check_every_reader(call_of("content", "hi", "path", "a.txt"),
                       "write_file | seg_1 write_file {\"path\":\"a.txt\",\"content\":\"hi\"}\n", test::with_tools(file_tool));
    // A model's write_file of another shape is an ordinary call, even with `path` first.
    check_every_reader(call_of("path", "a.txt", "content", "hi"),
                       "tool_call | seg_1 write_file {\"path\":\"a.txt\",\"content\":\"hi\"}\n", test::with_tools(model_tool));
    // A schema for other tools only: this one's arguments show its shape.
    check_every_reader(call_of("path", "a.txt", "content", "hi"), "write_file | seg_1 write_file {\"path\":\"a.txt\",\"content\":\"hi\"}\n",
                       test::with_tools(R"([{"type":"function","function":{"name":"other","parameters":{"type":"object"}}}])"));
}

TEST_CASE("file tool shape: vLLM's poolside write_file (content and mode) is an ordinary call", "[formats][file_tool_shape]")
{
    // vllm-project/vllm tests/tool_parsers/test_poolside_v1_tool_parser.py::test_non_string_arg_still_deserialized
    // (the request's tool: content a string, mode an integer).
    const auto options = test::with_tools(model_tool);
    const auto r = test::run_checked<poolside_v1>("<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>hi</arg_value>\n"
                                                  "<arg_key>mode</arg_key>\n<arg_value> 420 </arg_value>\n</tool_call>",
                                                  options);
    CHECK(kinds_and_calls(r) == "tool_call | seg_1 write_file {\"content\":\"hi\",\"mode\":420}\n");
    // ::test_string_arg_preserves_whitespace: the string keeps its indent and its line break.
    const auto body = test::run_checked<poolside_v1>("<tool_call>write_file\n<arg_key>content</arg_key>\n"
                                                     "<arg_value>    def f():\n        return 1\n</arg_value>\n</tool_call>",
                                                     options);
    CHECK(kinds_and_calls(body) == "tool_call | seg_1 write_file {\"content\":\"    def f():\\n        return 1\\n\"}\n");
}

TEST_CASE("file tool shape: the first member past what the frame holds makes an ordinary call", "[formats][file_tool_shape]")
{
    // The shape waits within max_held (the frame's name limit); a first key never closed in it
    // leaves the call ordinary, at the same byte whatever the chunking.
    text_format_options small;
    small.max_held = 48;
    const std::string blanks(60, ' ');
    const auto r = test::run_checked<hermes>("<tool_call>{\"name\": \"write_file\", \"arguments\": {" + blanks
                                                 + "\"path\": \"a\", \"content\": \"x\"}}</tool_call>",
                                             small);
    CHECK(kinds_and_calls(r) == "tool_call | seg_1 write_file {\"path\":\"a\",\"content\":\"x\"}\n");
}

} // namespace test_file_tool_shape
