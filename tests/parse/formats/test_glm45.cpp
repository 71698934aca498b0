// glm45: <tool_call>NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n</tool_call>, with and
// without schemas. Every input runs at every split position, in 1-byte and random chunks, with
// byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/glm45.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>

namespace test_glm45 {

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
      "days":{"type":"integer"},"hourly":{"type":"boolean"}}}}}])", max_held);
}

} // namespace

static_assert(test::registered_text_format<glm45>);

TEST_CASE("glm45: vLLM's example, two calls, prose kept", "[formats][glm45]")
{
    constexpr std::string_view input =
        "Let me check.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>\xe5\x8c\x97\xe4\xba\xac</arg_value>\n"
        "<arg_key>days</arg_key>\n<arg_value>2</arg_value>\n</tool_call><tool_call>get_weather\n<arg_key>city</arg_key>\n"
        "<arg_value>Shanghai</arg_value>\n<arg_key>hourly</arg_key><arg_value>true</arg_value>\n</tool_call>\nThanks.";
    // Without a schema a value that parses as JSON is decoded, as vLLM's glm45 does.
    CHECK(calls(run(input)) == "seg_2 get_weather {\"city\":\"\xe5\x8c\x97\xe4\xba\xac\",\"days\":2}\n"
                               "seg_3 get_weather {\"city\":\"Shanghai\",\"hourly\":true}\n");
    const auto typed = run(input, with_schemas());
    CHECK(calls(typed) == "seg_2 get_weather {\"city\":\"\xe5\x8c\x97\xe4\xba\xac\",\"days\":2}\n"
                          "seg_3 get_weather {\"city\":\"Shanghai\",\"hourly\":true}\n");
    CHECK(test::content_of_type(typed.events, segment_type::text) == "Let me check.\n\nThanks.");
}

TEST_CASE("glm45: write_file streams its body; a literal </arg_value> stays in it", "[formats][glm45]")
{
    const auto r = run("<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>a.html</arg_value>\n<arg_key>content</arg_key>\n"
                       "<arg_value>\n<p></arg_value> is text</p>\n</tool_call>\n</arg_value>\n</tool_call>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.html\"} "
                         "\"\\n<p></arg_value> is text</p>\\n</tool_call>\\n\"\n");
    handler<glm45> h;
    REQUIRE(!h.feed("<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>a.txt</arg_value>\n<arg_key>content</arg_key>\n"
                    "<arg_value>streamed "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "streamed ");
}

TEST_CASE("glm45: end of stream, not a call", "[formats][glm45][finalize]")
{
    // </tool_call> stripped after complete arguments: complete.
    CHECK(calls(run("<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>x</arg_value>\n")) == "seg_1 f {\"a\":\"x\"}\n");
    CHECK(calls(run("<tool_call>f\n")) == "seg_1 f {}\n");
    // Cut inside a value or a key: incomplete.
    CHECK(calls(run("<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_v")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("<tool_call>f\n<arg_key>a</arg_")) == "seg_1 f {} incomplete\n");
    for (std::string_view input : {"<tool_call> is a tag\nok", "<tool_call>", "<tool_call>a<b\n</tool_call>"}) {
        INFO(input);
        CHECK(segments(run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("glm45: generated inputs at every chunking", "[formats][glm45][generated]")
{
    constexpr std::string_view pieces[] = {
        "<tool_call>get_weather\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>",
        "<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>\xc3\xa9</arg_value>x</arg_value>\n<arg_key>path</arg_key>"
        "<arg_value>p</arg_value></tool_call>",
        "<tool_call>", "</arg_value>", "<arg_key>", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        run(input);
        run(input, with_schemas(40));
    }
}

TEST_CASE("glm45: a 1 MiB write_file streams with a bounded hold", "[formats][glm45][large]")
{
    std::string body;
    while (body.size() < (std::size_t{1} << 20))
        body += "line " + std::to_string(body.size()) + " </arg_value> \xc3\xa9\n";
    const std::string input = "Prose.\n<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>big.txt</arg_value>\n"
                              "<arg_key>content</arg_key>\n<arg_value>" + body + "</arg_value>\n</tool_call>\nAfter.";
    test::check_large_body<glm45>(input, body, 128);
}

} // namespace test_glm45
