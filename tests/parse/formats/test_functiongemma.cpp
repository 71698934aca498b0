// functiongemma: `<start_function_call>call:NAME{key:<escape>text<escape>,…}<end_function_call>`,
// FunctionGemma's calls, which vLLM's functiongemma tool parser
// (vllm/tool_parsers/functiongemma_tool_parser.py) reads; gemma4's serialisation and reader
// (test_gemma4.cpp has the grammar's cases), but with vLLM's functiongemma reading of values: a
// delimited value that is JSON is that value, and pairs need no comma between them. Every input
// runs at every split position, in 1-byte and random chunks, with byte conservation and the
// argument-fragment contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/functiongemma.hpp>
#include <toolstream/parse/formats/gemma4.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace test_functiongemma {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<functiongemma> && !functiongemma::decodes_file_bodies);

namespace {

// `input` with FunctionGemma's markers in place of Gemma 4's.
std::string as_functiongemma(std::string_view input)
{
    std::string out(input);
    const std::pair<std::string_view, std::string_view> swaps[] = {
        {"<|tool_call>", "<start_function_call>"}, {"<tool_call|>", "<end_function_call>"}, {"<|\"|>", "<escape>"}};
    for (const auto& [from, to] : swaps)
        for (std::size_t at = out.find(from); at != std::string::npos; at = out.find(from, at + to.size()))
            out.replace(at, from.size(), to);
    return out;
}

} // namespace

TEST_CASE("functiongemma: calls between prose", "[formats][functiongemma]")
{
    const auto r = test::run_checked<functiongemma>(
        "Sure.<start_function_call>call:get_weather{city:<escape>paris<escape>}<end_function_call>"
        "<start_function_call>call:show_notification{message:<escape>Hello!<escape>,type:<escape>info<escape>,"
        "priority:2,sticky:false}<end_function_call> Done.");
    CHECK(segments(r) == "text \"Sure.\"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{city:<escape>paris<escape>}\"\n"
                         "tool_call {\"tool_name\":\"show_notification\"} \"{message:<escape>Hello!<escape>,"
                         "type:<escape>info<escape>,priority:2,sticky:false}\"\n"
                         "text \" Done.\"\n");
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"paris\"}\n"
                      "seg_3 show_notification {\"message\":\"Hello!\",\"type\":\"info\",\"priority\":2,\"sticky\":false}\n");
}

TEST_CASE("functiongemma: the same calls as gemma4 with its own markers", "[formats][functiongemma]")
{
    for (std::string_view input :
         {"<|tool_call>call:f{a:{b:[1,<|\"|>x]<|\"|>,null]},c:<|\"|>five<|\"|>}<tool_call|>",
          "pre <|tool_call>call:write_file{path:<|\"|>p.txt<|\"|>,content:<|\"|>line\n<|\"|>}<tool_call|> post",
          "<|tool_call>call:f{a:1 b:2}<tool_call|>", "<|tool_call>call:f{a:<|\"|>cut"}) {
        INFO(input);
        const auto gemma = test::run_checked<gemma4>(input);
        const auto function = test::run_checked<functiongemma>(as_functiongemma(input));
        CHECK(calls(function) == calls(gemma));
        CHECK(test::content_of_type(function.events, segment_type::text)
              == test::content_of_type(gemma.events, segment_type::text));
    }
    // Unlike gemma4's, a delimited value that is JSON is that value (vLLM's parsers alike).
    CHECK(calls(test::run_checked<gemma4>("<|tool_call>call:f{n:<|\"|>5<|\"|>}<tool_call|>")) == "seg_1 f {\"n\":\"5\"}\n");
    CHECK(calls(test::run_checked<functiongemma>("<start_function_call>call:f{n:<escape>5<escape>}<end_function_call>"))
          == "seg_1 f {\"n\":5}\n");
}

TEST_CASE("functiongemma: vLLM's cases", "[formats][functiongemma]")
{
    // vllm-project/vllm tests/tool_parsers/test_functiongemma_tool_parser.py: each case's model
    // output, or the arguments given to _parse_arguments inside a call.
    struct vllm_case {
        std::string_view input, calls;
    };
    const vllm_case cases[] = {
        // TestExtractToolCallsStreaming::test_streamed_arguments_form_valid_json_with_two_keys: no comma.
        {"<start_function_call>call:get_weather{city:<escape>NYC<escape>unit:<escape>celsius<escape>}<end_function_call>",
         "seg_1 get_weather {\"city\":\"NYC\",\"unit\":\"celsius\"}\n"},
        // ::test_streamed_arguments_form_valid_json_with_three_keys: no commas, and `10` is a number.
        {"<start_function_call>call:search{query:<escape>python<escape>limit:<escape>10<escape>"
         "sort:<escape>relevance<escape>}<end_function_call>",
         "seg_1 search {\"query\":\"python\",\"limit\":10,\"sort\":\"relevance\"}\n"},
        // TestParseArguments::test_numeric_argument, test_boolean_argument, test_argument_with_spaces,
        // test_multiple_arguments, test_empty_arguments.
        {"<start_function_call>call:f{count:<escape>42<escape>}<end_function_call>", "seg_1 f {\"count\":42}\n"},
        {"<start_function_call>call:f{enabled:<escape>true<escape>}<end_function_call>", "seg_1 f {\"enabled\":true}\n"},
        {"<start_function_call>call:f{message:<escape>Hello World<escape>}<end_function_call>",
         "seg_1 f {\"message\":\"Hello World\"}\n"},
        {"<start_function_call>call:f{city:<escape>Tokyo<escape>,country:<escape>Japan<escape>}<end_function_call>",
         "seg_1 f {\"city\":\"Tokyo\",\"country\":\"Japan\"}\n"},
        {"<start_function_call>call:f{}<end_function_call>", "seg_1 f {}\n"},
        // TestExtractToolCalls::test_multiple_tool_calls.
        {"<start_function_call>call:get_weather{location:<escape>London<escape>}<end_function_call>"
         "<start_function_call>call:get_time{timezone:<escape>UTC<escape>}<end_function_call>",
         "seg_1 get_weather {\"location\":\"London\"}\nseg_2 get_time {\"timezone\":\"UTC\"}\n"},
    };
    for (const auto& c : cases) {
        INFO(c.input);
        CHECK(calls(test::run_checked<functiongemma>(c.input)) == c.calls);
    }
    // json.loads' reading, which vLLM applies to every delimited value: JSON of any kind, blanks
    // around it dropped; what does not parse stays the text as written.
    CHECK(calls(test::run_checked<functiongemma>(
              "<start_function_call>call:f{a:<escape> [1, {\"b\": null}] <escape>,s:<escape>\"q\"<escape>,"
              "t:<escape> tru<escape>,u:<escape>1e3<escape>,list:[<escape>7<escape>,<escape>x<escape>]}<end_function_call>"))
          == "seg_1 f {\"a\":[1,{\"b\":null}],\"s\":\"q\",\"t\":\" tru\",\"u\":1E3,\"list\":[7,\"x\"]}\n");
    // A value that may be JSON is held, up to max_held, to its close; past it, it streams as a string.
    const text_format_options small{.max_held = 40, .max_held_body = 1 << 20, .schemas = {}};
    const std::string long_list = "[" + std::string(60, '1') + "]";
    CHECK(calls(test::run_checked<functiongemma>(
              "<start_function_call>call:f{n:<escape>" + long_list + "<escape>}<end_function_call>", small))
          == "seg_1 f {\"n\":\"" + long_list + "\"}\n");
    // A file tool's option reads alike; its path stays text.
    CHECK(calls(test::run_checked<functiongemma>("<start_function_call>call:run_bash{command:<escape>ls<escape>,"
                                                 "timeout_seconds:<escape>30<escape>}<end_function_call>"))
          == "seg_1 run_bash {\"command\":\"ls\",\"timeout_seconds\":30}\n");
    CHECK(calls(test::run_checked<functiongemma>("<start_function_call>call:write_file{path:<escape>42<escape>,"
                                                 "content:<escape>7<escape>}<end_function_call>"))
          == "seg_1 write_file {\"path\":\"42\",\"content\":\"7\"}\n");
}

TEST_CASE("functiongemma: write_file streams its body live", "[formats][functiongemma]")
{
    handler<functiongemma> h;
    REQUIRE(!h.feed("<start_function_call>call:write_file{path:<escape>a.py<escape>,content:<escape>print(1)\n<esc"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "print(1)\n");
    REQUIRE(!h.feed("ape>}<end_function_call>"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.py","content":"print(1)\n"})"));
}

TEST_CASE("functiongemma: not a call, cut off, stopped", "[formats][functiongemma][finalize]")
{
    for (std::string_view input : {"<start_function_call> is the token", "<start_function_call>call:f",
                                   "<start_function_response>response:f{a:1}<end_function_response>",
                                   "a <end_function_call> b", "<escape>x<escape>", "<start_function_ca"}) {
        INFO(input);
        CHECK(segments(test::run_checked<functiongemma>(input))
              == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
    CHECK(calls(test::run_checked<functiongemma>("<start_function_call>call:f{a:<escape>x<esc")) == "seg_1 f {} incomplete\n");
    // vLLM's parser reads a call without its end marker: so does a complete object here.
    CHECK(calls(test::run_checked<functiongemma>("<start_function_call>call:f{a:<escape>x<escape>}"))
          == "seg_1 f {\"a\":\"x\"}\n");
}

TEST_CASE("functiongemma: generated inputs at every chunking", "[formats][functiongemma][generated]")
{
    constexpr std::string_view pieces[] = {
        "<start_function_call>call:get{x:[1,{y:<escape>}]<end_function_call><escape>}],z:true}<end_function_call>",
        "<start_function_call>call:write_file{path:<escape>p<escape>,content:<escape>\xc3\xa9\n<escape>}<end_function_call>",
        "<start_function_call>call:bad{a b}<end_function_call>", "<start_function_call>", "<end_function_call>",
        "<start_function_call>call:f{n:<escape> 12<escape>m:<escape>{\"k\": [true]}<escape>}<end_function_call>",
        "<escape>", "\xe2\x82\xac ", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 30))
        test::run_checked<functiongemma>(input);
    for (const auto& input : test::mixed_inputs(pieces, 15, 7))
        test::run_checked<functiongemma>(input, text_format_options{.max_held = 40, .max_held_body = 24, .schemas = {}});
}

} // namespace test_functiongemma
