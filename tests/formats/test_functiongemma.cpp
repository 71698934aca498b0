// functiongemma: `<start_function_call>call:NAME{key:<escape>text<escape>,…}<end_function_call>`,
// FunctionGemma's calls, which vLLM's functiongemma tool parser
// (vllm/tool_parsers/functiongemma_tool_parser.py) reads; gemma4's serialisation and reader
// (test_gemma4.cpp has the grammar's cases). Every input runs at every split position, in 1-byte
// and random chunks, with byte conservation and the argument-fragment contract.
#include <toolstream/handler.hpp>
#include <toolstream/formats/functiongemma.hpp>
#include <toolstream/formats/gemma4.hpp>
#include <toolstream/registry.hpp>

#include "catch_compat.hpp"
#include "formats/format_checks.hpp"

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
         {"<|tool_call>call:f{a:{b:[1,<|\"|>x]<|\"|>,null]},c:<|\"|>5<|\"|>}<tool_call|>",
          "pre <|tool_call>call:write_file{path:<|\"|>p.txt<|\"|>,content:<|\"|>line\n<|\"|>}<tool_call|> post",
          "<|tool_call>call:f{a:1 b:2}<tool_call|>", "<|tool_call>call:f{a:<|\"|>cut"}) {
        INFO(input);
        const auto gemma = test::run_checked<gemma4>(input);
        const auto function = test::run_checked<functiongemma>(as_functiongemma(input));
        CHECK(calls(function) == calls(gemma));
        CHECK(test::content_of_type(function.events, segment_type::text)
              == test::content_of_type(gemma.events, segment_type::text));
    }
    // A string stays a string (vLLM's parser JSON-decodes it: 5, not "5").
    CHECK(calls(test::run_checked<functiongemma>("<start_function_call>call:f{n:<escape>5<escape>}<end_function_call>"))
          == "seg_1 f {\"n\":\"5\"}\n");
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
        "<escape>", "\xe2\x82\xac ", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 30))
        test::run_checked<functiongemma>(input);
    for (const auto& input : test::mixed_inputs(pieces, 15, 7))
        test::run_checked<functiongemma>(input, text_format_options{.max_held = 40, .max_held_body = 24, .schemas = {}});
}

} // namespace test_functiongemma
