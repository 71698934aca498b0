// minimax_m2: <minimax:tool_call><invoke name="NAME"><parameter name="K">V</parameter></invoke>
// </minimax:tool_call>, with and without schemas. Every input runs at every split position, in
// 1-byte and random chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/minimax_m2.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>

namespace test_minimax_m2 {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

template<class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    return test::run_checked<minimax_m2>(input, args...);
}

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{
      "name":"search","parameters":{"type":"object","properties":{"query":{"type":"string"},
      "limit":{"type":"integer"},"filters":{"type":"object"}}}}}])", max_held);
}

} // namespace

static_assert(test::registered_text_format<minimax_m2>);

TEST_CASE("minimax_m2: a section of two calls, prose kept", "[formats][minimax_m2]")
{
    constexpr std::string_view input =
        "Searching.\n<minimax:tool_call>\n<invoke name=\"search\">\n<parameter name=\"query\">caf\xc3\xa9 \"x\"</parameter>\n"
        "<parameter name=\"limit\">5</parameter>\n<parameter name=\"filters\">{\"open\": true}</parameter>\n</invoke>\n"
        "<invoke name=\"get_time\">\n</invoke>\n</minimax:tool_call>\nDone.";
    CHECK(calls(run(input)) == "seg_2 search {\"query\":\"caf\xc3\xa9 \\\"x\\\"\",\"limit\":\"5\",\"filters\":\"{\\\"open\\\": true}\"}\n"
                               "seg_3 get_time {}\n");
    const auto typed = run(input, with_schemas());
    CHECK(calls(typed) == "seg_2 search {\"query\":\"caf\xc3\xa9 \\\"x\\\"\",\"limit\":5,\"filters\":{\"open\":true}}\nseg_3 get_time {}\n");
    CHECK(test::content_of_type(typed.events, segment_type::text) == "Searching.\n\nDone.");
}

TEST_CASE("minimax_m2: write_file streams its body; a literal </parameter> stays in it (mid-line markup too)", "[formats][minimax_m2]")
{
    const auto r = run("<minimax:tool_call>\n<invoke name=\"write_file\">\n<parameter name=\"path\">t.xml</parameter>\n"
                       "<parameter name=\"content\">\nx <parameter name=\"a\">1</parameter> kept\n</invoke>\n</parameter>\n"
                       "</invoke>\n</minimax:tool_call>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"t.xml\"} "
                         "\"x <parameter name=\\\"a\\\">1</parameter> kept\\n</invoke>\"\n");
    handler<minimax_m2> h;
    REQUIRE(!h.feed("<minimax:tool_call><invoke name=write_file><parameter name=path>a</parameter><parameter name=content>live "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "live ");
}

TEST_CASE("minimax_m2: end of stream, not a call", "[formats][minimax_m2][finalize]")
{
    CHECK(calls(run("<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">1</parameter>\n</invoke>\n"))
          == "seg_1 f {\"a\":\"1\"}\n");
    CHECK(calls(run("<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">1</parameter>\n"))
          == "seg_1 f {} incomplete\n");
    const auto other = run("<minimax:tool_call> not a call");
    CHECK(other.invocations.empty());
    CHECK(test::content_of_type(other.events, segment_type::text) == "not a call");
}

TEST_CASE("minimax_m2: generated inputs at every chunking", "[formats][minimax_m2][generated]")
{
    constexpr std::string_view pieces[] = {
        "<minimax:tool_call>\n<invoke name=\"search\">\n<parameter name=\"limit\">3</parameter>\n</invoke>\n</minimax:tool_call>",
        "<minimax:tool_call><invoke name=\"write_file\"><parameter name=\"content\">\xc3\xa9</parameter>x</parameter>"
        "<parameter name=\"path\">p</parameter></invoke></minimax:tool_call>",
        "<minimax:tool_call>", "</parameter>", "<invoke name=", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        run(input);
        run(input, with_schemas(40));
    }
}

TEST_CASE("minimax_m2: a 1 MiB write_file streams with a bounded hold", "[formats][minimax_m2][large]")
{
    std::string body;
    while (body.size() < (std::size_t{1} << 20))
        body += "line " + std::to_string(body.size()) + " </parameter> \xc3\xa9\n";
    const std::string input = "Prose.\n<minimax:tool_call>\n<invoke name=\"write_file\">\n<parameter name=\"path\">big.txt</parameter>\n"
                              "<parameter name=\"content\">" + body + "</parameter>\n</invoke>\n</minimax:tool_call>\nAfter.";
    // The line break before </parameter> is syntax.
    test::check_large_body<minimax_m2>(input, std::string_view(body).substr(0, body.size() - 1), 128);
}

} // namespace test_minimax_m2
