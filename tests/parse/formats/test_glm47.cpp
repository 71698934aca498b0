// glm47: vLLM's --tool-call-parser glm47 (Glm47MoeModelToolParser, GLM-4.7) is the parser class
// glm45 names too, so `glm47` is an alias of the glm45 policy. These cases write GLM-4.7's layout
// from vLLM's documented grammar: `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…
// </tool_call>`, the name running straight into its first key, and `<tool_call>NAME</tool_call>`
// for a call without arguments. Every input runs at every split position, in 1-byte and random
// chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/glm45.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/runtime/runtime_policy.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_glm47 {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

template<class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    return test::run_checked<glm45>(input, args...);
}

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{
      "name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"},
      "days":{"type":"integer"},"zip":{"type":"string"}}}}}])", max_held);
}

} // namespace

static_assert(canonical_policy_name("glm47") == "glm45");

TEST_CASE("glm47: the alias makes the glm45 policy", "[formats][glm47]")
{
    auto made = make_policy("glm47");
    REQUIRE(made.has_value());
    CHECK(made->name() == "glm45");
}

TEST_CASE("glm47: names run into their first key; calls without arguments; prose kept", "[formats][glm47]")
{
    constexpr std::string_view input =
        "Looking it up.<tool_call>get_weather<arg_key>city</arg_key><arg_value>Beijing</arg_value>"
        "<arg_key>zip</arg_key><arg_value>100000</arg_value></tool_call><tool_call>get_time</tool_call>"
        "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Hangzhou</arg_value>\n</tool_call> Then done.";
    // A value no schema types is JSON-decoded when it parses (glm45's rule): zip becomes a number.
    const auto r = run(input);
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Beijing\",\"zip\":100000}\nseg_3 get_time {}\n"
                      "seg_4 get_weather {\"city\":\"Hangzhou\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Looking it up. Then done.");
    // With schemas a string-typed value stays as written.
    CHECK(calls(run(input, with_schemas())) == "seg_2 get_weather {\"city\":\"Beijing\",\"zip\":\"100000\"}\n"
                                               "seg_3 get_time {}\nseg_4 get_weather {\"city\":\"Hangzhou\"}\n");
    // Blanks between a key and its value are syntax, as vLLM's `\s*` there.
    CHECK(calls(run("<tool_call>get_weather<arg_key>days</arg_key> \n <arg_value>3</arg_value></tool_call>", with_schemas()))
          == "seg_1 get_weather {\"days\":3}\n");
}

TEST_CASE("glm47: write_file streams its body live", "[formats][glm47]")
{
    const auto r = run("<tool_call>write_file<arg_key>path</arg_key><arg_value>a.py</arg_value><arg_key>content</arg_key>"
                       "<arg_value>x = \"</arg_value>\"\n</arg_value></tool_call>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.py\"} \"x = \\\"</arg_value>\\\"\\n\"\n");
    handler<glm45> h;
    REQUIRE(!h.feed("<tool_call>write_file<arg_key>path</arg_key><arg_value>b.txt</arg_value><arg_key>content</arg_key>"
                    "<arg_value>live "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "live ");
    REQUIRE(!h.feed("body</arg_value></tool_call>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"b.txt","content":"live body"})"));
}

TEST_CASE("glm47: end of stream, not a call", "[formats][glm47][finalize]")
{
    // </tool_call> stripped by a stop sequence after complete arguments: complete.
    CHECK(calls(run("<tool_call>f<arg_key>a</arg_key><arg_value>x</arg_value>")) == "seg_1 f {\"a\":\"x\"}\n");
    // Cut inside a value or a key: incomplete.
    CHECK(calls(run("<tool_call>f<arg_key>a</arg_key><arg_value>ab")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("<tool_call>f<arg_key>a</arg")) == "seg_1 f {} incomplete\n");
    // A name with blanks or markup inside names no call.
    for (std::string_view input : {"<tool_call> is how calls open", "<tool_call>", "<tool_call>get weather</tool_call>",
                                   "a <tool_call>x<y<arg_key>"}) {
        INFO(input);
        CHECK(segments(run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("glm47: generated inputs at every chunking", "[formats][glm47][generated]")
{
    constexpr std::string_view pieces[] = {
        "<tool_call>get_weather<arg_key>days</arg_key><arg_value>3</arg_value></tool_call>",
        "<tool_call>write_file<arg_key>content</arg_key><arg_value>\xc3\xa9</arg_value>x</arg_value><arg_key>path</arg_key>"
        "<arg_value>p</arg_value></tool_call>",
        "<tool_call>now</tool_call>", "<tool_call>", "</arg_value>", "<arg_key>", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        run(input);
        run(input, with_schemas(40));
    }
}

} // namespace test_glm47
