// hermes: <tool_call>{"name": …, "arguments"|"parameters": {…}}</tool_call>, alone and combined
// with qwen3 reasoning. Every input runs at every split position, in 1-byte and random chunks,
// with byte conservation and the argument-fragment contract (formats/format_checks.hpp).
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <string>
#include <string_view>

namespace test_hermes {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

// hermes with the qwen3 reasoning parser: <think>…</think>, open from the first byte.
using hermes_qwen3 = reasoning_policy<hermes, qwen3_reasoning>;

template<class Policy = hermes, class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    return test::run_checked<Policy>(input, args...);
}

} // namespace

static_assert(test::registered_text_format<hermes> && parser_policy<hermes_qwen3> && hermes::decodes_file_bodies);

TEST_CASE("hermes: vLLM's example, two parallel calls between prose", "[formats][hermes]")
{
    const auto r = run("I'll check both. <tool_call>\n{\"name\": \"get_current_weather\", \"arguments\": "
                       "{\"city\": \"Dallas\", \"state\": \"TX\", \"unit\": \"fahrenheit\"}}\n</tool_call>\n"
                       "<tool_call>\n{\"name\": \"get_current_weather\", \"arguments\": {\"city\": \"Orlando\", "
                       "\"state\": \"FL\", \"unit\": \"fahrenheit\"}}\n</tool_call> Done.");
    CHECK(calls(r) == "seg_2 get_current_weather {\"city\":\"Dallas\",\"state\":\"TX\",\"unit\":\"fahrenheit\"}\n"
                      "seg_4 get_current_weather {\"city\":\"Orlando\",\"state\":\"FL\",\"unit\":\"fahrenheit\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "I'll check both. \n Done.");
    // The arguments are the model's raw fragments, not a re-serialisation.
    CHECK(r.invocations[0].arguments_raw == R"({"city": "Dallas", "state": "TX", "unit": "fahrenheit"})");
}

TEST_CASE("hermes: Agent TARS \"parameters\", generation stopped at </tool_call>", "[formats][hermes][finalize]")
{
    // The stop sequence strips </tool_call>: complete arguments make a complete call.
    const auto r = run("Searching.\n<tool_call>\n{\"name\":\"web_search\",\"parameters\":{\"query\":\"C++20 concepts\","
                       "\"count\":5}}");
    CHECK(segments(r) == "text \"Searching.\\n\"\ntool_call {\"tool_name\":\"web_search\"} "
                         "\"{\\\"name\\\":\\\"web_search\\\",\\\"parameters\\\":{\\\"query\\\":\\\"C++20 concepts\\\","
                         "\\\"count\\\":5}}\"\n");
    CHECK(calls(r) == "seg_2 web_search {\"query\":\"C++20 concepts\",\"count\":5}\n");
    // Blanks after the object are the missing marker's place: still complete, nothing lost.
    CHECK(calls(run("<tool_call>{\"name\":\"a\",\"parameters\":{}}\n")) == "seg_1 a {}\n");
    // Arguments not complete: incomplete, whatever the stream ended with.
    CHECK(calls(run("<tool_call>{\"name\":\"a\",\"parameters\":{\"q\":\"x\"")) == "seg_1 a {} incomplete\n");
    CHECK(calls(run("<tool_call>{\"name\":\"a\",\"parameters\":{\"q\":\"x\"}")) == "seg_1 a {} incomplete\n");
}

TEST_CASE("hermes: write_file streams its decoded body; markers in strings end nothing", "[formats][hermes]")
{
    const auto r = run("Writing \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80.\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": "
                       "{\"path\": \"docs/t\xc3\xa9st.md\", \"content\": \"# <tool_call> and </tool_call>\\n\\u00e9\xe2\x82\xac "
                       "\\ud83d\\ude00 {\\\"}\\\"}\\n\"}}\n</tool_call>\nDone.");
    CHECK(segments(r) == "text \"Writing \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80.\\n\"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"docs/t\xc3\xa9st.md\"} "
                         "\"# <tool_call> and </tool_call>\\n\xc3\xa9\xe2\x82\xac \xf0\x9f\x98\x80 {\\\"}\\\"}\\n\"\n"
                         "text \"\\nDone.\"\n");
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].arguments.at("content") == "# <tool_call> and </tool_call>\n\xc3\xa9\xe2\x82\xac \xf0\x9f\x98\x80 {\"}\"}\n");

    // The body is out before the call closes.
    handler<hermes> h;
    REQUIRE(!h.feed("<tool_call>{\"name\": \"write_file\", \"parameters\": {\"path\": \"a.txt\", \"content\": \"part one, "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "part one, ");
    REQUIRE(!h.feed("part two\"}}</tool_call>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"part one, part two"})"));
}

TEST_CASE("hermes: not a call, a bad call, a cut call", "[formats][hermes]")
{
    for (std::string_view input : {"<tool_call> is the tag", "<tool_call>name: x</tool_call>", "a </tool_call> b",
                                   "<think>not reasoning without qwen3</think>", "<tool_cal"}) {
        INFO(input);
        CHECK(segments(run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
    const auto bad = run("<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": tru}}</tool_call>after");
    CHECK(calls(bad) == "seg_1 f {} invalid_arguments\n");
    CHECK(test::content_of_type(bad.events, segment_type::text) == "after");
    const auto cut = run("<tool_call>{\"name\": \"write_file\", \"arguments\": {\"path\": \"p\", \"content\": \"ab\\");
    CHECK(segments(cut) == "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"ab\" incomplete\n");
}

TEST_CASE("hermes: a call closed inside its JSON is invalid, and the next call is read", "[formats][hermes][peers]")
{
    // Derived from vLLM tests/tool_parsers/test_kimi_k2_tool_parser.py::test_extract_tool_calls_invalid_json,
    // where vLLM extracts the call after one whose JSON its closing marker cut (vLLM's hermes tests
    // have no such case). `</tool_call>` outside a string ends the object: the call ENDs
    // invalid_arguments with the bytes it had, and the next call is read.
    const auto r = run(R"(<tool_call>{"name": "a", "arguments": {"x": 1</tool_call><tool_call>{"name": "b", "arguments": {}}</tool_call>)");
    CHECK(calls(r) == "seg_1 a {} invalid_arguments\nseg_2 b {}\n");
    CHECK(segments(r) == "tool_call {\"tool_name\":\"a\"} \"{\\\"name\\\": \\\"a\\\", \\\"arguments\\\": {\\\"x\\\": 1\" invalid_arguments\n"
                         "tool_call {\"tool_name\":\"b\"} \"{\\\"name\\\": \\\"b\\\", \\\"arguments\\\": {}}\"\n");
    // A write_file keeps the body it decoded, the marker inside its string data.
    const auto file = run(R"(<tool_call>{"name": "write_file", "arguments": {"path": "p", "content": "a</tool_call>"</tool_call>)");
    CHECK(segments(file) == "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"a</tool_call>\" invalid_arguments\n");
}

TEST_CASE("hermes + qwen3 reasoning: think blocks, open from the first byte", "[formats][hermes][reasoning]")
{
    // <think> in the prompt: only </think> appears.
    const auto r = run<hermes_qwen3>("The user wants the weather.\n</think>\n\nSure.<tool_call>\n{\"name\": \"w\", "
                                     "\"arguments\": {\"c\": \"</think>\"}}\n</tool_call>");
    CHECK(segments(r) == "reasoning \"The user wants the weather.\\n\"\ntext \"\\n\\nSure.\"\n"
                         "tool_call {\"tool_name\":\"w\"} \"{\\\"name\\\": \\\"w\\\", \\\"arguments\\\": {\\\"c\\\": "
                         "\\\"</think>\\\"}}\"\n");
    // The model skipped </think>: a <tool_call> outside a written <think> block ends reasoning.
    const auto skipped = run<hermes_qwen3>("thinking... <tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>");
    CHECK(segments(skipped) == "reasoning \"thinking... \"\ntool_call {\"tool_name\":\"a\"} "
                               "\"{\\\"name\\\": \\\"a\\\", \\\"arguments\\\": {}}\"\n");
    // A <tool_call> not followed by a call body stays reasoning.
    const auto inside = run<hermes_qwen3>("<think>maybe <tool_call> then</think>ok");
    CHECK(segments(inside) == "reasoning \"maybe <tool_call> then\"\ntext \"ok\"\n");
    CHECK(inside.invocations.empty());
}

TEST_CASE("hermes: generated inputs at every chunking", "[formats][hermes][generated]")
{
    constexpr std::string_view pieces[] = {
        "<tool_call>\n{\"name\": \"get\", \"arguments\": {\"x\": [1, {\"y\": \"}]</tool_call>\"}]}}\n</tool_call>",
        "<tool_call>{\"name\":\"write_file\",\"parameters\":{\"path\":\"p\",\"content\":\"\xc3\xa9\\n\\ud83d\\ude00\"}}</tool_call>",
        "<tool_call>{\"arguments\":{\"k\":\"v\"},\"name\":\"late\"}</tool_call>",
        "<think>maybe <tool_call></think>", "<tool_call>", "</tool_call>", "\xe2\x82\xac ", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        run(input);
        run<hermes_qwen3>(input);
    }
    for (const auto& input : test::mixed_inputs(pieces, 15, 7))
        run(input, text_format_options{.max_held = 16, .max_held_body = 24, .schemas = {}});
}

TEST_CASE("hermes: a 1 MiB write_file streams with a bounded hold", "[formats][hermes][large]")
{
    std::string body;
    while (body.size() < (std::size_t{1} << 20))
        body += "line " + std::to_string(body.size()) + " </tool_call> \\\"q\\\" \\u00e9\\n";
    const std::string input = "Prose first.\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"big.txt\", "
                              "\"content\": \"" + body + "\"}}\n</tool_call>\nProse after.";
    test::check_large_body<hermes>(input, std::string(boost::json::parse("\"" + body + "\"").as_string()), 64);
}

} // namespace test_hermes
