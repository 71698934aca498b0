// deepseek_v41: spaced DSML, <｜DSML｜ calls><｜DSML｜ invoke name="NAME"><｜DSML｜ parameter name="K"
// string="true">V</｜DSML｜ parameter></｜DSML｜ invoke></｜DSML｜ calls>, as vLLM's DeepSeekV41Parser
// (vllm/parser/deepseek_v41.py) reads it, with and without schemas. Every input runs at every
// split position, in 1-byte and random chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/deepseek_v41.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_deepseek_v41 {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

template<class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    return test::run_checked<deepseek_v41>(input, args...);
}

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{
      "name":"book","parameters":{"type":"object","properties":{"room":{"type":"string"},
      "nights":{"type":"integer"},"late":{"type":"boolean"}}}}}])", max_held);
}

} // namespace

static_assert(test::registered_text_format<deepseek_v41>);

TEST_CASE("deepseek_v41: a section of two calls, prose kept", "[formats][deepseek_v41]")
{
    constexpr std::string_view input =
        "Booking.\n\n<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"book\">\n"
        "<｜DSML｜ parameter name=\"room\" string=\"true\">101</｜DSML｜ parameter>\n"
        "<｜DSML｜ parameter name=\"nights\" string=\"false\">2</｜DSML｜ parameter>\n</｜DSML｜ invoke>\n"
        "<｜DSML｜ invoke name=\"book\">\n<｜DSML｜ parameter name=\"room\" string=\"true\">café</｜DSML｜ parameter>\n"
        "<｜DSML｜ parameter name=\"late\" string=\"false\">true</｜DSML｜ parameter>\n</｜DSML｜ invoke>\n"
        "</｜DSML｜ calls>";
    const auto r = run(input);
    CHECK(calls(r) == "seg_2 book {\"room\":\"101\",\"nights\":2}\nseg_3 book {\"room\":\"café\",\"late\":true}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Booking.\n\n");
    // With schemas the string-typed room stays "101" however it reads.
    CHECK(calls(run(input, with_schemas())) == "seg_2 book {\"room\":\"101\",\"nights\":2}\nseg_3 book {\"room\":\"café\",\"late\":true}\n");
    // A parameter whose close is missing ends where the next one opens a line.
    CHECK(calls(run("<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"book\">\n<｜DSML｜ parameter name=\"room\" string=\"true\">7\n"
                    "<｜DSML｜ parameter name=\"nights\" string=\"false\">1</｜DSML｜ parameter>\n</｜DSML｜ invoke>\n</｜DSML｜ calls>",
                    with_schemas()))
          == "seg_1 book {\"room\":\"7\\n\",\"nights\":1}\n");
}

TEST_CASE("deepseek_v41: write_file streams its body live", "[formats][deepseek_v41]")
{
    const auto r = run("<｜DSML｜ calls><｜DSML｜ invoke name=\"write_file\">"
                       "<｜DSML｜ parameter name=\"path\" string=\"true\">s.sh</｜DSML｜ parameter>"
                       "<｜DSML｜ parameter name=\"content\" string=\"true\">echo '</｜DSML｜ parameter>'\n</｜DSML｜ parameter>"
                       "</｜DSML｜ invoke></｜DSML｜ calls> Done.");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"s.sh\"} \"echo '</｜DSML｜ parameter>'\\n\"\n"
                         "text \" Done.\"\n");
    handler<deepseek_v41> h;
    REQUIRE(!h.feed("<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"write_file\">\n"
                    "<｜DSML｜ parameter name=\"path\" string=\"true\">b.txt</｜DSML｜ parameter>\n"
                    "<｜DSML｜ parameter name=\"content\" string=\"true\">partial "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "partial ");
    REQUIRE(!h.feed("body</｜DSML｜ parameter>\n</｜DSML｜ invoke>\n</｜DSML｜ calls>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"b.txt","content":"partial body"})"));
}

TEST_CASE("deepseek_v41: end of stream, not a call", "[formats][deepseek_v41][finalize]")
{
    // The section's close stripped after </｜DSML｜ invoke>: complete; inside a value: incomplete.
    CHECK(calls(run("<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"f\">\n<｜DSML｜ parameter name=\"a\" string=\"true\">1"
                    "</｜DSML｜ parameter>\n</｜DSML｜ invoke>\n")) == "seg_1 f {\"a\":\"1\"}\n");
    CHECK(calls(run("<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"f\">\n<｜DSML｜ parameter name=\"a\" string=\"true\">1</｜DSML｜ par"))
          == "seg_1 f {} incomplete\n");
    // V4's unspaced markers, an invoke outside a section or without name="…", the opener alone: text.
    for (std::string_view input : {"<｜DSML｜tool_calls><｜DSML｜invoke name=\"f\"></｜DSML｜invoke></｜DSML｜tool_calls>",
                                   "<｜DSML｜ calls><｜DSML｜invoke name=\"f\"></｜DSML｜invoke>", "<｜DSML｜ invoke name=\"f\">",
                                   "<｜DSML｜ calls><｜DSML｜ invoke name=f>x", "<｜DSML｜ calls>", "<｜DSML｜ calls are made"}) {
        INFO(input);
        CHECK(run(input).invocations.empty());
    }
}

TEST_CASE("deepseek_v41: generated inputs at every chunking", "[formats][deepseek_v41][generated]")
{
    constexpr std::string_view pieces[] = {
        "<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"book\">\n<｜DSML｜ parameter name=\"nights\" string=\"false\">4"
        "</｜DSML｜ parameter>\n</｜DSML｜ invoke>\n</｜DSML｜ calls>",
        "<｜DSML｜ calls><｜DSML｜ invoke name=\"write_file\"><｜DSML｜ parameter name=\"content\" string=\"true\">é"
        "</｜DSML｜ parameter>x</｜DSML｜ parameter><｜DSML｜ parameter name=\"path\" string=\"true\">p</｜DSML｜ parameter>"
        "</｜DSML｜ invoke></｜DSML｜ calls>",
        "<｜DSML｜ calls>", "</｜DSML｜ parameter>", "<｜DSML｜ invoke name=\"", "<｜DSML｜", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        run(input);
        run(input, with_schemas(80));
    }
}

} // namespace test_deepseek_v41
