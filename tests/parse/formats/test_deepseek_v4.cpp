// deepseek_v4: DSML in a `tool_calls` section, <｜DSML｜tool_calls><｜DSML｜invoke name="NAME"><｜DSML｜parameter
// name="K" string="true">V</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>, as vLLM's DeepSeekV4Parser
// (vllm/parser/deepseek_v4.py) documents it, with and without schemas, alone and after deepseek_r1
// reasoning. Every input runs at every split position, in 1-byte and random chunks, with byte
// conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/deepseek_v4.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_deepseek_v4 {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

template<class Policy = deepseek_v4, class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    return test::run_checked<Policy>(input, args...);
}

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{
      "name":"search","parameters":{"type":"object","properties":{"query":{"type":"string"},
      "limit":{"type":"integer"},"filters":{"type":"object"}}}}}])", max_held);
}

} // namespace

static_assert(test::registered_text_format<deepseek_v4>);

TEST_CASE("deepseek_v4: a section of two calls, prose kept", "[formats][deepseek_v4]")
{
    constexpr std::string_view input =
        "Two searches.\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"search\">\n"
        "<｜DSML｜parameter name=\"query\" string=\"true\">東京 hotels</｜DSML｜parameter>\n"
        "<｜DSML｜parameter name=\"limit\" string=\"false\">5</｜DSML｜parameter>\n</｜DSML｜invoke>\n"
        "<｜DSML｜invoke name=\"search\">\n<｜DSML｜parameter name=\"query\" string=\"true\">a\n\"b\"</｜DSML｜parameter>\n"
        "<｜DSML｜parameter name=\"filters\" string=\"false\">{\"stars\": 4}</｜DSML｜parameter>\n</｜DSML｜invoke>\n"
        "</｜DSML｜tool_calls>\nBack soon.";
    const auto r = run(input);
    // string="false" values are JSON-decoded with or without schemas.
    CHECK(calls(r) == "seg_2 search {\"query\":\"東京 hotels\",\"limit\":5}\n"
                      "seg_3 search {\"query\":\"a\\n\\\"b\\\"\",\"filters\":{\"stars\":4}}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Two searches.\n\nBack soon.");
    CHECK(calls(run(input, with_schemas())) == "seg_2 search {\"query\":\"東京 hotels\",\"limit\":5}\n"
                                               "seg_3 search {\"query\":\"a\\n\\\"b\\\"\",\"filters\":{\"stars\":4}}\n");
    CHECK(calls(run("<｜DSML｜tool_calls><｜DSML｜invoke name=\"now\"></｜DSML｜invoke></｜DSML｜tool_calls>")) == "seg_1 now {}\n");
}

TEST_CASE("deepseek_v4: after deepseek_r1 reasoning", "[formats][deepseek_v4][reasoning]")
{
    const auto r = run<reasoning_policy<deepseek_v4, deepseek_r1_reasoning>>(
        "Need a search.</think>Searching.<｜DSML｜tool_calls><｜DSML｜invoke name=\"search\">"
        "<｜DSML｜parameter name=\"query\" string=\"true\">x</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>");
    CHECK(test::content_of_type(r.events, segment_type::reasoning) == "Need a search.");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Searching.");
    CHECK(calls(r) == "seg_3 search {\"query\":\"x\"}\n");
}

TEST_CASE("deepseek_v4: write_file streams its body live", "[formats][deepseek_v4]")
{
    const auto r = run("<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"write_file\">\n"
                       "<｜DSML｜parameter name=\"path\" string=\"true\">n.md</｜DSML｜parameter>\n"
                       "<｜DSML｜parameter name=\"content\" string=\"true\"># T\n</｜DSML｜parameter> kept\n</｜DSML｜parameter>\n"
                       "</｜DSML｜invoke>\n</｜DSML｜tool_calls>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"n.md\"} \"# T\\n</｜DSML｜parameter> kept\\n\"\n");
    handler<deepseek_v4> h;
    REQUIRE(!h.feed("<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"write_file\">\n"
                    "<｜DSML｜parameter name=\"path\" string=\"true\">b.txt</｜DSML｜parameter>\n"
                    "<｜DSML｜parameter name=\"content\" string=\"true\">one "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "one ");
    REQUIRE(!h.feed("two</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"b.txt","content":"one two"})"));
}

TEST_CASE("deepseek_v4: end of stream, not a call", "[formats][deepseek_v4][finalize]")
{
    // The section's close stripped after </｜DSML｜invoke>: complete; before it: incomplete.
    CHECK(calls(run("<｜DSML｜tool_calls><｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"a\" string=\"true\">1"
                    "</｜DSML｜parameter></｜DSML｜invoke>")) == "seg_1 f {\"a\":\"1\"}\n");
    CHECK(calls(run("<｜DSML｜tool_calls><｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"a\" string=\"true\">1"))
          == "seg_1 f {} incomplete\n");
    // V3.2's section, an invoke outside a section or without name="…", and the opener alone are text.
    for (std::string_view input : {"<｜DSML｜function_calls><｜DSML｜invoke name=\"f\"></｜DSML｜invoke></｜DSML｜function_calls>",
                                   "<｜DSML｜invoke name=\"f\">", "<｜DSML｜tool_calls><｜DSML｜invoke id=\"f\">x",
                                   "<｜DSML｜tool_calls>", "<｜DSML｜tool_calls> as prose"}) {
        INFO(input);
        CHECK(run(input).invocations.empty());
    }
}

TEST_CASE("deepseek_v4: generated inputs at every chunking", "[formats][deepseek_v4][generated]")
{
    constexpr std::string_view pieces[] = {
        "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"search\">\n<｜DSML｜parameter name=\"limit\" string=\"false\">4"
        "</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>",
        "<｜DSML｜tool_calls><｜DSML｜invoke name=\"write_file\"><｜DSML｜parameter name=\"content\" string=\"true\">é"
        "</｜DSML｜parameter>x</｜DSML｜parameter><｜DSML｜parameter name=\"path\" string=\"true\">p</｜DSML｜parameter>"
        "</｜DSML｜invoke></｜DSML｜tool_calls>",
        "<｜DSML｜tool_calls>", "</｜DSML｜parameter>", "<｜DSML｜invoke name=\"", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        run(input);
        run(input, with_schemas(80));
    }
}

} // namespace test_deepseek_v4
