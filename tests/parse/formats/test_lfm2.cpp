// lfm2: inputs written from vLLM's documented behaviour (lfm2_tool_parser.py: a Python list of
// calls between `<|tool_call_start|>` and `<|tool_call_end|>`, the start token required, the
// end token optional). Every case runs at every split position, in 1-byte and random chunks,
// with byte conservation.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/lfm2.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_lfm2 {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<lfm2> && lfm2::decodes_file_bodies);

namespace {

test::policy_run run(std::string_view input) { return test::run_checked<lfm2>(input); }

} // namespace

TEST_CASE("lfm2: the list in LFM2's tool-call tokens", "[formats][lfm2]")
{
    const auto r = run("<|tool_call_start|>[get_weather(location=\"Paris\"), get_time(tz='CET', hour24=True)]<|tool_call_end|>");
    CHECK(calls(r) == "seg_1 get_weather {\"location\":\"Paris\"}\nseg_2 get_time {\"tz\":\"CET\",\"hour24\":true}\n");
    CHECK(test::content_of_type(r.events, segment_type::text).empty());   // the tokens are markup
    // Blanks around the list, and no end token (a stop token took it): the same calls.
    CHECK(calls(run("<|tool_call_start|>\n [f(a=None, b=[1, -2])] \n<|tool_call_end|>")) == "seg_1 f {\"a\":null,\"b\":[1,-2]}\n");
    CHECK(calls(run("<|tool_call_start|>[f(a={'k': (1, 2)})]")) == "seg_1 f {\"a\":{\"k\":[1,2]}}\n");
}

TEST_CASE("lfm2: text around calls; a list without the token and the token around anything else are text", "[formats][lfm2]")
{
    const auto r = run("Let me check.<|tool_call_start|>[get_weather(location=\"Paris\")]<|tool_call_end|>It is sunny.");
    CHECK(segments(r) == "text \"Let me check.\"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"get_weather(location=\\\"Paris\\\")\"\n"
                         "text \"It is sunny.\"\n");
    for (std::string_view input : {"[get_weather(location='Paris')]", "<|tool_call_start|>get_weather(location='Paris')<|tool_call_end|>",
                                   "<|tool_call_start|>[]<|tool_call_end|>", "<|tool_call_start|>[1, 2]", "<|tool_call_end|>",
                                   "<|tool_call_sta"}) {
        INFO(input);
        const auto t = run(input);
        CHECK(t.invocations.empty());
        CHECK(test::content_of_type(t.events, segment_type::text) == input);
    }
    // Two blocks: both read. An echo of the list after the block, with no start token, is text.
    const auto t = run("<|tool_call_start|>[f(a=1)]<|tool_call_end|> and <|tool_call_start|>[g()]<|tool_call_end|>[f(a=1)]<|tool_call_end|>");
    CHECK(calls(t) == "seg_1 f {\"a\":1}\nseg_3 g {}\n");
    CHECK(test::content_of_type(t.events, segment_type::text) == " and [f(a=1)]<|tool_call_end|>");
}

TEST_CASE("lfm2: write_file streams its decoded body live", "[formats][lfm2]")
{
    handler<lfm2> h;
    REQUIRE(!h.feed("<|tool_call_start|>[write_file(path='a.md', content=\"# Title\\n"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "# Title\n");
    REQUIRE(!h.feed("<|tool_call_end|> is text here\")]<|tool_call_end|>"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments
          == boost::json::parse(R"({"path":"a.md","content":"# Title\n<|tool_call_end|> is text here"})"));
}

TEST_CASE("lfm2: cut off, invalid calls, generated inputs", "[formats][lfm2][finalize]")
{
    CHECK(calls(run("<|tool_call_start|>[f(a='x")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("<|tool_call_start|>[f(a=1), g(")) == "seg_1 f {\"a\":1}\nseg_2 g {} incomplete\n");
    CHECK(calls(run("<|tool_call_start|>[bad(x=b'z'), get_weather(location='LA')]<|tool_call_end|>"))
          == "seg_1 bad {} invalid_arguments\nseg_2 get_weather {\"location\":\"LA\"}\n");
    constexpr std::string_view pieces[] = {
        "<|tool_call_start|>[get_weather(location='LA')]<|tool_call_end|>", "[f(a=1)]",
        "<|tool_call_start|>[write_file(path='x', content='''a\n]''')]<|tool_call_end|>", "<|tool_call_start|>oops",
    };
    for (const std::string& input : test::mixed_inputs(pieces, 30)) {
        INFO(input);
        test::check_chunk_invariance<lfm2>(input);
        test::check_byte_conservation<lfm2>(input);
    }
}

} // namespace test_lfm2
