// The structured outputs policy: Agent TARS's response object streamed in the content channel,
// at every split position and in 1-byte pieces, keys in any order, and its Agent TARS events.
#include <toolstream/concepts.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/policies/structured.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"
#include "writers/tarko_checks.hpp"

#include <boost/json/parse.hpp>

namespace test_structured_policy {

using namespace toolstream;
using toolstream::test::check_chunk_invariance;
using toolstream::test::run_whole;

static_assert(parser_policy<structured>);

namespace {

std::string text_of(const std::vector<owned_segment_event>& events)
{
    std::string s;
    for (const auto& e : events)
        if (e.type == segment_event_type::SEGMENT_CONTENT && e.segment_kind == segment_type::text)
            s += e.delta;
    return s;
}

void check_call(std::string_view input, std::string_view text, std::string_view name, std::string_view raw,
                invocation_status status = invocation_status::complete)
{
    const auto r = run_whole<structured>(input);
    INFO(input << "\n" << test::dump(r.events) << test::dump(r.invocations));
    CHECK(text_of(r.events) == text);
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].name == name);
    CHECK(r.invocations[0].arguments_raw == raw);
    CHECK(r.invocations[0].status == status);
    if (status == invocation_status::complete)
        CHECK(boost::json::value(r.invocations[0].arguments) == boost::json::parse(raw.empty() ? "{}" : raw));
    check_chunk_invariance<structured>(input);
}

// The consumed markup and the text of a run, fed in pieces of `n` bytes.
struct markup_and_text {
    std::string markup, text;
    void operator()(const segment_event& e)
    {
        if (e.type == segment_event_type::SEGMENT_CONTENT && e.segment_kind == segment_type::text)
            text += e.delta;
    }
    void operator()(const consumed_markup& m) { markup += m.bytes; }
};

markup_and_text run_accounted(std::string_view input, std::size_t n)
{
    handler<structured, markup_and_text> h(markup_and_text{});
    for (std::size_t i = 0; i < input.size(); i += n)
        REQUIRE(!h.feed(input.substr(i, n)));
    REQUIRE(!h.finalize());
    return h.sink();
}

} // namespace

TEST_CASE("structured: no byte lost, the object's bytes are markup and the rest is text", "[structured]")
{
    // The input is the markup followed by text the channel carries as is; the decoded content
    // string comes before that text.
    const struct {
        std::string_view input, markup, text;
    } cases[] = {
        {R"(  {"content": "a\nb", "toolCall": {"name": "f", "args": {"x": 1}}}  )",
         R"(  {"content": "a\nb", "toolCall": {"name": "f", "args": {"x": 1}}}  )", "a\nb"},
        {R"({"content": "hi"} and then prose)", R"({"content": "hi"} )", "hiand then prose"},
        {"  Sorry, plain text", "  ", "Sorry, plain text"},
        {R"({"toolCall": {"name": "f", "args": , "x": 1}})", R"({"toolCall": {"name": "f", "args": )", R"(, "x": 1}})"},
    };
    for (const auto& c : cases) {
        for (const std::size_t n : {c.input.size(), std::size_t{1}, std::size_t{3}, std::size_t{7}}) {
            INFO(c.input << " in pieces of " << n);
            const auto r = run_accounted(c.input, n);
            CHECK(r.markup == c.markup);
            CHECK(r.text == c.text);
        }
    }
}

TEST_CASE("structured: content streams as decoded text, toolCall as a call with raw args", "[structured]")
{
    SECTION("content only")
    {
        const std::string_view input = R"({"content": "Hello \"world\"\n\u00e9\ud83d\ude00 {not a call}"})";
        const auto r = run_whole<structured>(input);
        CHECK(text_of(r.events) == "Hello \"world\"\n\xC3\xA9\xF0\x9F\x98\x80 {not a call}");
        CHECK(r.invocations.empty());
        check_chunk_invariance<structured>(input);
    }
    SECTION("Agent TARS's shape, name first")
    {
        check_call(R"({"content": "Let me look.", "toolCall": {"name": "getWeather", "args": {"city": "a}\"b", "n": [1, {"x": null}]}}})",
                   "Let me look.", "getWeather", R"({"city": "a}\"b", "n": [1, {"x": null}]})");
    }
    SECTION("keys in any order: args before name, toolCall before content, unknown keys skipped")
    {
        check_call(R"( {"toolCall": {"args": {"name": "inner"}, "id": 7, "name": "outer"}, "extra": [{"}": "]"}], "content": "after"} )",
                   "after", "outer", R"({"name": "inner"})");
    }
    SECTION("the closing braces cut by the stream: complete once name and args are whole")
    {
        check_call("{\"content\": \"\", \"toolCall\": {\"name\": \"getCurrentLocation\", \"args\": {}\n ", "",
                   "getCurrentLocation", "{}");
    }
    SECTION("the arguments cut: incomplete, fragments as far as they came")
    {
        check_call(R"({"toolCall": {"name": "write", "args": {"text": "abc)", "", "write", R"({"text": "abc)",
                   invocation_status::incomplete);
    }
    SECTION("no args: {}")
    {
        check_call(R"({"toolCall": {"name": "now"}})", "", "now", "{}");
    }
    SECTION("configurable key names")
    {
        structured_options o;
        o.content_key = "say";
        o.tool_call_key = "call";
        o.name_key = "tool";
        o.arguments_key = "input";
        const auto r = run_whole<structured>(R"({"say": "hi", "call": {"input": {"a": 1}, "tool": "t"}})", o);
        CHECK(text_of(r.events) == "hi");
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].name == "t");
        CHECK(r.invocations[0].arguments_raw == R"({"a": 1})");
    }
    SECTION("a value missing after a colon: not the schema's object, the rest is text")
    {
        const std::string_view input = R"({"toolCall": {"name": "f", "args": , "x": 1}})";
        const auto r = run_whole<structured>(input);
        CHECK(r.invocations.empty());
        CHECK(text_of(r.events) == R"(, "x": 1}})");
        check_chunk_invariance<structured>(input);
    }
    SECTION("not the schema's object: text")
    {
        const auto r = run_whole<structured>("Sorry, plain text {\"content\": 1}");
        CHECK(text_of(r.events) == "Sorry, plain text {\"content\": 1}");
        CHECK(r.invocations.empty());
    }
}

TEST_CASE("structured: a 1 MiB argument streams in linear time", "[structured]")
{
    std::string body;
    while (body.size() < (1u << 20))
        body += R"(line with \"quotes\" and } and ] \\ )";
    const std::string args = R"({"path": "big.txt", "content": ")" + body + "\"}";
    const std::string input = R"({"content": "Writing.", "toolCall": {"name": "write_file", "args": )" + args + "}}";
    std::vector<std::string_view> pieces;
    for (std::size_t at = 0; at < input.size(); at += 1000)
        pieces.push_back(std::string_view(input).substr(at, 1000));
    const auto r = test::run_pieces<structured>(pieces);
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].arguments_raw == args);
    CHECK(r.invocations[0].is_complete());
}

TEST_CASE("structured: Agent TARS events at every split position", "[structured][tarko]")
{
    const std::string input = R"({"content": "Checking.", "toolCall": {"args": {"location": "Boston", "q": "é"}, "name": "getWeather"}})";
    auto run = [&](const std::vector<std::string_view>& pieces) {
        std::vector<std::string> lines;
        handler<structured, test::tarko_recording> h(test::make_tarko_recording(lines, {.message_id = "m"}));
        for (auto p : pieces)
            (void)h.feed(p);
        (void)h.finalize();
        const auto calls = test::group_by_call(lines, "m");
        test::check_against_invocations(calls, h.invocations(), h.sink().first().second());
        REQUIRE(calls.size() == 1);
        CHECK(calls.begin()->second.arguments == R"({"location": "Boston", "q": "é"})");
        CHECK(calls.begin()->second.name == "getWeather");   // late: reported on the completion
        CHECK(calls.begin()->second.completes == 1);
        // One feed's bytes of `args` are one fragment: START, at most one event per piece, completion.
        CHECK(calls.begin()->second.events <= 2 + pieces.size());
    };
    run({input});
    for (std::size_t cut = 1; cut < input.size(); ++cut)
        run({std::string_view(input).substr(0, cut), std::string_view(input).substr(cut)});
}

} // namespace test_structured_policy
