// olmo3: inputs written from vLLM's documented behaviour (olmo3_tool_parser.py: Python calls, one per
// line, between <function_calls> and </function_calls>; null/true/false accepted). SGLang and
// llama.cpp have no reader of this form. Every case runs at every split position, in 1-byte and
// random chunks, with byte conservation.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/olmo3.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_olmo3 {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<olmo3> && olmo3::decodes_file_bodies);

namespace {

test::policy_run run(std::string_view input) { return test::run_checked<olmo3>(input); }

} // namespace

TEST_CASE("olmo3: calls one per line in <function_calls>", "[formats][olmo3]")
{
    const auto r = run("<function_calls>get_weather(city='San Francisco', metric='celsius')\n"
                       "register_user(name='John Doe', age=37, role=null, passed_test=true, aliases=['John'])\n"
                       "get_time()</function_calls>");
    CHECK(calls(r) == "seg_1 get_weather {\"city\":\"San Francisco\",\"metric\":\"celsius\"}\n"
                      "seg_2 register_user {\"name\":\"John Doe\",\"age\":37,\"role\":null,\"passed_test\":true,"
                      "\"aliases\":[\"John\"]}\n"
                      "seg_3 get_time {}\n");
    CHECK(test::content_of_type(r.events, segment_type::text).empty());
    // A call over several lines, a `,` between calls, blanks before the close.
    CHECK(calls(run("<function_calls>\nf(\n  a=1,\n  b=[2,\n 3],\n)\n, g(c='x')\n\n</function_calls>"))
          == "seg_1 f {\"a\":1,\"b\":[2,3]}\nseg_2 g {\"c\":\"x\"}\n");
    CHECK(calls(run("<function_calls></function_calls>")).empty());
}

TEST_CASE("olmo3: text around the calls; <function_calls> before anything else is text", "[formats][olmo3]")
{
    const auto r = run("I'll look.\n<function_calls>get_weather(city='SF')</function_calls>\nOne moment.");
    CHECK(segments(r) == "text \"I'll look.\\n\"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"get_weather(city='SF')\"\n"
                         "text \"\\nOne moment.\"\n");
    for (std::string_view input : {"<function_calls>I think so</function_calls>", "<function_calls>f(1)",
                                   "[f(a=1)]", "<function_calls", "</function_calls>"}) {
        INFO(input);
        const auto t = run(input);
        CHECK(t.invocations.empty());
        CHECK(test::content_of_type(t.events, segment_type::text) == input);
    }
    // After a call, prose ends the block: the rest is text.
    const auto t = run("<function_calls>f()\nand then</function_calls>");
    CHECK(calls(t) == "seg_1 f {}\n");
    CHECK(test::content_of_type(t.events, segment_type::text) == "\nand then</function_calls>");
}

TEST_CASE("olmo3: write_file streams its decoded body live", "[formats][olmo3]")
{
    handler<olmo3> h;
    REQUIRE(!h.feed("<function_calls>write_file(path='notes.txt', content='line 1\\n"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "line 1\n");
    REQUIRE(!h.feed("</function_calls> inside\\n')\n</function_calls>"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments
          == boost::json::parse(R"({"path":"notes.txt","content":"line 1\n</function_calls> inside\n"})"));
}

TEST_CASE("olmo3: cut off, invalid calls, generated inputs", "[formats][olmo3][finalize]")
{
    CHECK(calls(run("<function_calls>f(a=[1,")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("<function_calls>f(a=1)\ng(")) == "seg_1 f {\"a\":1}\nseg_2 g {} incomplete\n");
    // A bad call ENDs invalid at its `)`; the next line is read. One that never closes ends at the wrapper.
    CHECK(calls(run("<function_calls>bad(x=b'z')\nget_weather(city='SF')</function_calls>"))
          == "seg_1 bad {} invalid_arguments\nseg_2 get_weather {\"city\":\"SF\"}\n");
    const auto r = run("<function_calls>foo(x=1]</function_calls> after");
    CHECK(calls(r) == "seg_1 foo {} invalid_arguments\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == " after");
    constexpr std::string_view pieces[] = {
        "<function_calls>get_weather(city='SF')\nf(x=null)</function_calls>",
        "<function_calls>write_file(path='a', content=\"b\\n\")\n</function_calls>", "<function_calls>oops(",
        "<function_calls>g(a=1, 2)\n</function_calls>",
    };
    for (const std::string& input : test::mixed_inputs(pieces, 30)) {
        INFO(input);
        test::check_chunk_invariance<olmo3>(input);
        test::check_byte_conservation<olmo3>(input);
    }
}

} // namespace test_olmo3
