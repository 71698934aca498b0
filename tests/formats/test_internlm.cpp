// internlm: <|action_start|><|plugin|>{"name": …, "arguments": {…}}<|action_end|>, as vLLM's --tool-call-parser internlm documents it
// (vLLM's Internlm2ToolParser). Every input runs at every split position, in 1-byte and random chunks, with byte
// conservation and the argument contract.
#include <toolstream/handler.hpp>
#include <toolstream/policies/formats/internlm.hpp>
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

constexpr std::string_view opener = "<|action_start|><|plugin|>";
constexpr std::string_view closer = "<|action_end|>";

test::policy_run run(std::string_view input)
{
    return test::run_checked<internlm>(input);
}

// <|action_start|><|plugin|> + body + <|action_end|>
std::string call(std::string_view body, bool closed = true)
{
    return std::string(opener) + std::string(body) + (closed ? std::string(closer) : std::string());
}

} // namespace

static_assert(text_format_traits<internlm_format>);
static_assert(parser_policy<internlm>);
static_assert(internlm::decodes_file_bodies);
static_assert(detail::index_of(policy_names, "internlm") < policy_names.size());

TEST_CASE("internlm: two calls between prose", "[formats][internlm]")
{
    const std::string input = "Let me look.\n" + call("\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3}}\n")
        + "\n" + call("{\"name\": \"get_time\", \"parameters\": {\"zone\": \"CET\"}}") + "\nDone.";
    const auto r = run(input);
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Paris\",\"days\":3}\nseg_4 get_time {\"zone\":\"CET\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Let me look.\n\n\nDone.");
    // The arguments are the model's raw fragments.
    CHECK(r.invocations[0].arguments_raw == R"({"city": "Paris", "days": 3})");
}

TEST_CASE("internlm: write_file streams its decoded body live; markers in strings end nothing", "[formats][internlm]")
{
    const std::string body = "# " + std::string(opener) + " and " + std::string(closer) + "\\n\\u00e9\"";
    const auto r = run(call("\n{\"name\": \"write_file\", \"parameters\": {\"path\": \"a.md\", \"content\": \"" + body + "}}\n"));
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.md\"} "
                         + boost::json::serialize(boost::json::string("# " + std::string(opener) + " and " + std::string(closer) + "\n\xc3\xa9")) + "\n");
    handler<internlm> h;
    REQUIRE(!h.feed(call("{\"name\": \"write_file\", \"parameters\": {\"path\": \"a.txt\", \"content\": \"part one, ", false)));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "part one, ");
    REQUIRE(!h.feed("part two\"}}" + std::string(closer)));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"part one, part two"})"));
}

TEST_CASE("internlm: end of stream, not a call", "[formats][internlm][finalize]")
{
    // The closing marker taken by a stop sequence: complete once the object is.
    CHECK(calls(run(call("{\"name\": \"f\", \"parameters\": {\"a\": 1}}\n", false))) == "seg_1 f {\"a\":1}\n");
    // Cut inside the object: incomplete.
    CHECK(calls(run(call("{\"name\": \"f\", \"parameters\": {\"a\": \"x", false))) == "seg_1 f {} incomplete\n");
    const auto cut = run(call("{\"name\": \"write_file\", \"parameters\": {\"path\": \"p\", \"content\": \"ab", false));
    CHECK(segments(cut) == "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"ab\" incomplete\n");
    for (const std::string& input : {call("not json"), std::string(opener), std::string(closer) + " alone"}) {
        INFO(input);
        CHECK(segments(run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("internlm: generated inputs at every chunking", "[formats][internlm][generated]")
{
    const std::string first = call("{\"name\": \"get_weather\", \"parameters\": {\"days\": 4}}");
    const std::string second = call("\n{\"name\": \"write_file\", \"parameters\": {\"content\": \"\xc3\xa9\\n" + std::string(closer)
                                    + "\", \"path\": \"p\"}}\n");
    const std::string_view pieces[] = {first, second, opener, closer, "{", "\n"};
    for (const auto& input : test::mixed_inputs(pieces, 40))
        run(input);
}
