// hy_v3: <tool_calls>\n<tool_call>NAME<tool_sep>\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n</tool_call>\n</tool_calls>,
// as vLLM's HYV3ToolParser (Tencent Hy3) reads it, with and without schemas. The cases are written
// from that parser's grammar and documented behaviour. Every input runs at every split position, in
// 1-byte and random chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/hy_v3.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_hy_v3 {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

template<class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    return test::run_checked<hy_v3>(input, args...);
}

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{
      "name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"},
      "days":{"type":"integer"},"metric":{"type":"boolean"},"date":{"type":"string"}}}}}])", max_held);
}

// One call of `name` with its parameters.
std::string call(std::string_view name, std::string_view parameters, bool closed = true)
{
    return "<tool_call>" + std::string(name) + "<tool_sep>" + std::string(parameters) + (closed ? "</tool_call>" : "");
}

std::string parameter(std::string_view key, std::string_view value)
{
    return "\n<arg_key>" + std::string(key) + "</arg_key>\n<arg_value>" + std::string(value) + "</arg_value>";
}

} // namespace

static_assert(test::registered_text_format<hy_v3>);

TEST_CASE("hy_v3: a section of two calls between prose, typed by schemas", "[formats][hy_v3]")
{
    const std::string input = "Checking both cities.\n<tool_calls>\n"
        + call("get_weather", parameter("city", "Beijing") + parameter("days", "3") + "\n") + "\n"
        + call("get_weather", parameter("city", "S\xc3\xa3o Paulo") + parameter("metric", "true") + "\n")
        + "\n</tool_calls>Done.";
    const auto r = run(input);
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Beijing\",\"days\":\"3\"}\n"
                      "seg_3 get_weather {\"city\":\"S\xc3\xa3o Paulo\",\"metric\":\"true\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Checking both cities.\nDone.");
    CHECK(calls(run(input, with_schemas())) == "seg_2 get_weather {\"city\":\"Beijing\",\"days\":3}\n"
                                               "seg_3 get_weather {\"city\":\"S\xc3\xa3o Paulo\",\"metric\":true}\n");
    // A string-typed value stays as written, a date too.
    CHECK(calls(run("<tool_calls>" + call("get_weather", parameter("date", "2026-03-30")) + "</tool_calls>", with_schemas()))
          == "seg_1 get_weather {\"date\":\"2026-03-30\"}\n");
}

TEST_CASE("hy_v3: calls without arguments, on one line or several", "[formats][hy_v3]")
{
    CHECK(calls(run("<tool_calls><tool_call>get_current_date<tool_sep></tool_call></tool_calls>"))
          == "seg_1 get_current_date {}\n");
    CHECK(calls(run("<tool_calls>\n<tool_call>get_current_date<tool_sep>\n</tool_call>\n</tool_calls>"))
          == "seg_1 get_current_date {}\n");
    // Parameters on the same line as the markers; a key is trimmed, a value is kept as written.
    CHECK(calls(run("<tool_calls><tool_call>get_weather<tool_sep><arg_key> city </arg_key><arg_value> Beijing"
                    "</arg_value></tool_call></tool_calls>")) == "seg_1 get_weather {\"city\":\" Beijing\"}\n");
}

TEST_CASE("hy_v3: write_file streams its body live; a literal close stays in it", "[formats][hy_v3]")
{
    const auto r = run("<tool_calls>\n" + call("write_file", parameter("path", "a.xml") + "\n<arg_key>content</arg_key>\n"
                       "<arg_value><v></arg_value></v>\n</arg_value>\n") + "\n</tool_calls>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.xml\"} \"<v></arg_value></v>\\n\"\n");
    handler<hy_v3> h;
    REQUIRE(!h.feed("<tool_calls>\n" + call("write_file", parameter("path", "a.txt") + "\n<arg_key>content</arg_key>\n"
                    "<arg_value>first, ", false)));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "first, ");
    REQUIRE(!h.feed("second</arg_value>\n</tool_call>\n</tool_calls>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"first, second"})"));
}

TEST_CASE("hy_v3: end of stream, not a call", "[formats][hy_v3][finalize]")
{
    // The closing markers stripped after a complete value: complete.
    CHECK(calls(run("<tool_calls>" + call("f", parameter("a", "1"), false))) == "seg_1 f {\"a\":\"1\"}\n");
    // Cut inside a value or a key: incomplete.
    CHECK(calls(run("<tool_calls>" + call("f", "\n<arg_key>a</arg_key>\n<arg_value>12", false))) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("<tool_calls>" + call("f", "\n<arg_key>a</arg_", false))) == "seg_1 f {} incomplete\n");
    // A call outside a section, a name with blanks inside, no <tool_sep>: no call.
    for (std::string_view input : {"<tool_call>f<tool_sep><arg_key>a</arg_key><arg_value>1</arg_value></tool_call>",
                                   "<tool_calls><tool_call>get weather<tool_sep></tool_call></tool_calls>",
                                   "<tool_calls><tool_call>f</tool_call></tool_calls>", "Use <tool_sep> between them."}) {
        INFO(input);
        CHECK(run(input).invocations.empty());
    }
    CHECK(segments(run("Use <tool_call> and <tool_sep>.")) == "text \"Use <tool_call> and <tool_sep>.\"\n");
}

TEST_CASE("hy_v3: generated inputs at every chunking", "[formats][hy_v3][generated]")
{
    const std::string first = "<tool_calls>\n" + call("get_weather", parameter("days", "4") + "\n") + "\n</tool_calls>";
    const std::string second = "<tool_calls>" + call("write_file", "<arg_key>content</arg_key><arg_value>\xc3\xa9</arg_value>x"
        "</arg_value><arg_key>path</arg_key><arg_value>p</arg_value>");
    const std::string third = "<tool_calls>" + call("now", "") + "</tool_calls>";
    const std::string_view pieces[] = {first, second, third, "<tool_calls>", "<tool_sep>", "</arg_value>", "</tool_call>", "\n"};
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        run(input);
        run(input, with_schemas(48));
    }
}

} // namespace test_hy_v3
