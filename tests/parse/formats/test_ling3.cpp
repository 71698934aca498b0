// ling3: vLLM's Ling3ToolParser reads GLM-4.7's grammar with its GLM-4.7 parser engine:
// <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call>, the name running into its
// first key or a line break, and <tool_call>NAME</tool_call> without arguments. That engine keeps a
// value no schema types a string (glm45 here JSON-decodes it). The cases are written from that grammar.
// Every input runs at every split position, in 1-byte and random chunks, with byte conservation and
// the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/ling3.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <string>
#include <string_view>

namespace test_ling3 {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

template<class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    return test::run_checked<ling3>(input, args...);
}

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{
      "name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"},
      "days":{"type":"integer"},"units":{"type":"array"}}}}}])", max_held);
}

} // namespace

static_assert(test::registered_text_format<ling3>);

TEST_CASE("ling3: calls between prose; untyped values stay strings, typed ones are converted", "[formats][ling3]")
{
    constexpr std::string_view input =
        "On it.<tool_call>get_weather<arg_key>city</arg_key><arg_value>Hangzhou</arg_value><arg_key>days</arg_key>"
        "<arg_value>2</arg_value><arg_key>units</arg_key><arg_value>[\"C\"]</arg_value></tool_call>"
        "<tool_call>get_time</tool_call>\n<tool_call>get_weather\n<arg_key>days</arg_key>\n<arg_value>7</arg_value>\n</tool_call>"
        " Next.";
    const auto r = run(input);
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Hangzhou\",\"days\":\"2\",\"units\":\"[\\\"C\\\"]\"}\nseg_3 get_time {}\n"
                      "seg_5 get_weather {\"days\":\"7\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "On it.\n Next.");
    CHECK(calls(run(input, with_schemas())) == "seg_2 get_weather {\"city\":\"Hangzhou\",\"days\":2,\"units\":[\"C\"]}\n"
                                               "seg_3 get_time {}\nseg_5 get_weather {\"days\":7}\n");
    // With every value typed, ling3 and glm45 agree.
    CHECK(segments(run(input, with_schemas())) == segments(test::run_whole<glm45>(input, with_schemas())));
}

TEST_CASE("ling3: write_file streams its body live", "[formats][ling3]")
{
    const auto r = run("<tool_call>write_file<arg_key>path</arg_key><arg_value>t.md</arg_value><arg_key>content</arg_key>"
                       "<arg_value># </arg_value> title\n</arg_value></tool_call>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"t.md\"} \"# </arg_value> title\\n\"\n");
    handler<ling3> h;
    REQUIRE(!h.feed("<tool_call>write_file<arg_key>path</arg_key><arg_value>u.txt</arg_value><arg_key>content</arg_key>"
                    "<arg_value>one "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "one ");
    REQUIRE(!h.feed("two</arg_value></tool_call>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"u.txt","content":"one two"})"));
}

TEST_CASE("ling3: end of stream, not a call", "[formats][ling3][finalize]")
{
    CHECK(calls(run("<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value>")) == "seg_1 f {\"a\":\"1\"}\n");
    CHECK(calls(run("<tool_call>f<arg_key>a</arg_key><arg_value>1")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("<tool_call>f<arg_key>a</arg")) == "seg_1 f {} incomplete\n");
    for (std::string_view input : {"<tool_call> then a name", "<tool_call>get weather</tool_call>", "x <arg_key>k</arg_key>"}) {
        INFO(input);
        CHECK(segments(run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("ling3: generated inputs at every chunking", "[formats][ling3][generated]")
{
    constexpr std::string_view pieces[] = {
        "<tool_call>get_weather<arg_key>days</arg_key><arg_value>3</arg_value></tool_call>",
        "<tool_call>write_file<arg_key>content</arg_key><arg_value>\xc3\xa9</arg_value>x</arg_value><arg_key>path</arg_key>"
        "<arg_value>p</arg_value></tool_call>",
        "<tool_call>now</tool_call>", "<tool_call>", "</arg_value>", "<arg_key>", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 30)) {
        run(input);
        run(input, with_schemas(40));
    }
}

} // namespace test_ling3
