// deepseek_v32: DSML, <｜DSML｜function_calls><｜DSML｜invoke name="NAME"><｜DSML｜parameter name="K"
// string="true">V</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>, as vLLM's deepseek_v32 tool
// parser documents it, with and without schemas. Every input runs at every split position, in
// 1-byte and random chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/deepseek_v32.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace test_deepseek_v32 {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

template<class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    return test::run_checked<deepseek_v32>(input, args...);
}

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{
      "name":"get_weather","parameters":{"type":"object","properties":{"location":{"type":"string"},
      "days":{"type":"integer"},"units":{"type":"object"}}}}}])", max_held);
}

} // namespace

static_assert(test::registered_text_format<deepseek_v32>);

TEST_CASE("deepseek_v32: a section of two calls, prose kept", "[formats][deepseek_v32]")
{
    constexpr std::string_view input =
        "I'll check both.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n"
        "<｜DSML｜parameter name=\"location\" string=\"true\">杭州</｜DSML｜parameter>\n"
        "<｜DSML｜parameter name=\"days\" string=\"false\">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n"
        "<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"location\" string=\"true\"> Bei\njing </｜DSML｜parameter>\n"
        "<｜DSML｜parameter name=\"units\" string=\"false\">{\"t\": \"C\"}</｜DSML｜parameter>\n</｜DSML｜invoke>\n"
        "</｜DSML｜function_calls>";
    // Without schemas a string="true" value is a string kept as written, a string="false" one JSON.
    const auto r = run(input);
    CHECK(calls(r) == "seg_2 get_weather {\"location\":\"杭州\",\"days\":3}\n"
                      "seg_3 get_weather {\"location\":\" Bei\\njing \",\"units\":{\"t\":\"C\"}}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "I'll check both.\n\n");
    // With them, string="false" values convert by their type.
    CHECK(calls(run(input, with_schemas())) == "seg_2 get_weather {\"location\":\"杭州\",\"days\":3}\n"
                                               "seg_3 get_weather {\"location\":\" Bei\\njing \",\"units\":{\"t\":\"C\"}}\n");
    // string="false" text that is not JSON stays a string; string="true" JSON text stays a string.
    CHECK(calls(run("<｜DSML｜function_calls><｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"a\" string=\"false\">tomorrow"
                    "</｜DSML｜parameter><｜DSML｜parameter name=\"b\" string=\"true\">[1]</｜DSML｜parameter></｜DSML｜invoke>"
                    "</｜DSML｜function_calls>"))
          == "seg_1 f {\"a\":\"tomorrow\",\"b\":\"[1]\"}\n");
    // A call without parameters.
    CHECK(calls(run("<｜DSML｜function_calls><｜DSML｜invoke name=\"now\"></｜DSML｜invoke></｜DSML｜function_calls>")) == "seg_1 now {}\n");
}

TEST_CASE("deepseek_v32: write_file streams its body live; a literal close stays in it", "[formats][deepseek_v32]")
{
    const auto r = run("<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"write_file\">\n"
                       "<｜DSML｜parameter name=\"path\" string=\"true\">a.md</｜DSML｜parameter>\n"
                       "<｜DSML｜parameter name=\"content\" string=\"true\">x</｜DSML｜parameter> y\n</｜DSML｜parameter>\n"
                       "</｜DSML｜invoke>\n</｜DSML｜function_calls>\nDone.");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.md\"} \"x</｜DSML｜parameter> y\\n\"\ntext \"\\nDone.\"\n");
    handler<deepseek_v32> h;
    REQUIRE(!h.feed("<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"write_file\">\n"
                    "<｜DSML｜parameter name=\"path\" string=\"true\">a.txt</｜DSML｜parameter>\n"
                    "<｜DSML｜parameter name=\"content\" string=\"true\">first, "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "first, ");
    REQUIRE(!h.feed("second</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"first, second"})"));
}

TEST_CASE("deepseek_v32: end of stream, not a call", "[formats][deepseek_v32][finalize]")
{
    // The section's close stripped after </｜DSML｜invoke>: complete.
    CHECK(calls(run("<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"a\" string=\"true\">1"
                    "</｜DSML｜parameter>\n</｜DSML｜invoke>\n")) == "seg_1 f {\"a\":\"1\"}\n");
    // Cut before it, or inside a value: incomplete.
    CHECK(calls(run("<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"a\" string=\"true\">1"
                    "</｜DSML｜parameter>\n")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("<｜DSML｜function_calls><｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"a\" string=\"true\">1</｜DSML"))
          == "seg_1 f {} incomplete\n");
    // An invoke without name="…" is text, and so is the section's opener alone.
    for (std::string_view input : {"<｜DSML｜function_calls>", "<｜DSML｜function_calls><｜DSML｜invoke nom=\"f\">x",
                                   "<｜DSML｜invoke name=\"f\">", "<｜DSML｜function_calls> and prose"}) {
        INFO(input);
        const auto r = run(input);
        CHECK(r.invocations.empty());
    }
}

TEST_CASE("deepseek_v32: generated inputs at every chunking", "[formats][deepseek_v32][generated]")
{
    constexpr std::string_view pieces[] = {
        "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"days\" string=\"false\">4"
        "</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
        "<｜DSML｜function_calls><｜DSML｜invoke name=\"write_file\"><｜DSML｜parameter name=\"content\" string=\"true\">é"
        "</｜DSML｜parameter>x</｜DSML｜parameter><｜DSML｜parameter name=\"path\" string=\"true\">p</｜DSML｜parameter>"
        "</｜DSML｜invoke></｜DSML｜function_calls>",
        "<｜DSML｜function_calls>", "</｜DSML｜parameter>", "<｜DSML｜invoke name=\"", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        run(input);
        run(input, with_schemas(80));
    }
}

} // namespace test_deepseek_v32
