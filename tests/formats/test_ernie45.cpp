// ernie45: <tool_call>{"name": …, "arguments": {…}}</tool_call>, as vLLM's --tool-call-parser ernie45 documents it
// (vLLM's Ernie45ToolParser). Every input runs at every split position, in 1-byte and random chunks, with byte
// conservation and the argument contract.
#include <toolstream/handler.hpp>
#include <toolstream/policies/formats/ernie45.hpp>
#include <toolstream/registry.hpp>

#include "catch_compat.hpp"
#include "formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

constexpr std::string_view opener = "<tool_call>";
constexpr std::string_view closer = "</tool_call>";

test::policy_run run(std::string_view input)
{
    return test::run_checked<ernie45>(input);
}

// <tool_call> + body + </tool_call>
std::string call(std::string_view body, bool closed = true)
{
    return std::string(opener) + std::string(body) + (closed ? std::string(closer) : std::string());
}

} // namespace

static_assert(text_format_traits<ernie45_format>);
static_assert(parser_policy<ernie45>);
static_assert(ernie45::decodes_file_bodies);
static_assert(detail::index_of(policy_names, "ernie45") < policy_names.size());

TEST_CASE("ernie45: two calls between prose", "[formats][ernie45]")
{
    const std::string input = "Let me look.\n" + call("\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n")
        + "\n" + call("{\"name\": \"get_time\", \"arguments\": {\"zone\": \"CET\"}}") + "\nDone.";
    const auto r = run(input);
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Paris\",\"days\":3}\nseg_4 get_time {\"zone\":\"CET\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Let me look.\n\n\nDone.");
    // The arguments are the model's raw fragments.
    CHECK(r.invocations[0].arguments_raw == R"({"city": "Paris", "days": 3})");
}

TEST_CASE("ernie45: write_file streams its decoded body live; markers in strings end nothing", "[formats][ernie45]")
{
    const std::string body = "# " + std::string(opener) + " and " + std::string(closer) + "\\n\\u00e9\"";
    const auto r = run(call("\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.md\", \"content\": \"" + body + "}}\n"));
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.md\"} "
                         + boost::json::serialize(boost::json::string("# " + std::string(opener) + " and " + std::string(closer) + "\n\xc3\xa9")) + "\n");
    handler<ernie45> h;
    REQUIRE(!h.feed(call("{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.txt\", \"content\": \"part one, ", false)));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "part one, ");
    REQUIRE(!h.feed("part two\"}}" + std::string(closer)));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"part one, part two"})"));
}

TEST_CASE("ernie45: end of stream, not a call", "[formats][ernie45][finalize]")
{
    // The closing marker taken by a stop sequence: complete once the object is.
    CHECK(calls(run(call("{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n", false))) == "seg_1 f {\"a\":1}\n");
    // Cut inside the object: incomplete.
    CHECK(calls(run(call("{\"name\": \"f\", \"arguments\": {\"a\": \"x", false))) == "seg_1 f {} incomplete\n");
    const auto cut = run(call("{\"name\": \"write_file\", \"arguments\": {\"path\": \"p\", \"content\": \"ab", false));
    CHECK(segments(cut) == "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"ab\" incomplete\n");
    for (const std::string& input : {call("not json"), std::string(opener), std::string(closer) + " alone"}) {
        INFO(input);
        CHECK(segments(run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("ernie45: generated inputs at every chunking", "[formats][ernie45][generated]")
{
    const std::string first = call("{\"name\": \"get_weather\", \"arguments\": {\"days\": 4}}");
    const std::string second = call("\n{\"name\": \"write_file\", \"arguments\": {\"content\": \"\xc3\xa9\\n" + std::string(closer)
                                    + "\", \"path\": \"p\"}}\n");
    const std::string_view pieces[] = {first, second, opener, closer, "{", "\n"};
    for (const auto& input : test::mixed_inputs(pieces, 40))
        run(input);
}
