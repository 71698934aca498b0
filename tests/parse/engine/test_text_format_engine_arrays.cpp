// The text-format engine (text_format_policy) on JSON call objects listed between markers, as
// trait sets written here: a JSON array of call objects (Jamba / Granite shape, with more openers
// and a bare array at the start), call objects one after another (MiniMax shape) and call objects
// keyed by their tool name (Apertus shape). Every input goes through chunk invariance, byte
// conservation and the argument-fragment contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"
#include "parse/engine/text_format_engine_support.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <array>
#include <string>
#include <string_view>

namespace test_text_format_engine_arrays {

using namespace toolstream;
using namespace toolstream::test::engine_support;

// ---- the trait sets ----

// A JSON array of call objects: <tool_calls>[{…}, {…}]</tool_calls>, also in a ```json fence, or
// bare as the output's first non-blank byte.
struct array_format : marker_format {
    static constexpr std::string_view name = "array";
    static constexpr std::string_view call_open = "<tool_calls>";
    static constexpr std::string_view call_close = "</tool_calls>";
    static constexpr text_arguments arguments = text_arguments::json_call;
    static constexpr json_call_list call_list = json_call_list::array;
    static constexpr std::array<call_markers, 2> other_calls{{{"```json", "```"}, {"```", "```"}}};
    static constexpr bool bare_array_at_start = true;
};
using array_calls = text_format_policy<array_format>;

// Call objects one after another: <tool_calls>\n{…}\n{…}\n</tool_calls>.
struct sequence_format : marker_format {
    static constexpr std::string_view name = "sequence";
    static constexpr std::string_view call_open = "<tool_calls>";
    static constexpr std::string_view call_close = "</tool_calls>";
    static constexpr text_arguments arguments = text_arguments::json_call;
    static constexpr json_call_list call_list = json_call_list::sequence;
};
using sequence_calls = text_format_policy<sequence_format>;

// Call objects keyed by their tool name: <|tools|>[{"NAME": {…}}, …]<|/tools|>.
struct keyed_format : marker_format {
    static constexpr std::string_view name = "keyed";
    static constexpr std::string_view call_open = "<|tools|>";
    static constexpr std::string_view call_close = "<|/tools|>";
    static constexpr text_arguments arguments = text_arguments::json_call;
    static constexpr json_call_list call_list = json_call_list::array;
    static constexpr bool call_keyed_by_name = true;
};
using keyed_calls = text_format_policy<keyed_format>;

static_assert(text_format_traits<array_format> && text_format_traits<sequence_format>);
static_assert(parser_policy<array_calls> && parser_policy<sequence_calls> && array_calls::decodes_file_bodies);
static_assert(text_format_traits<keyed_format> && parser_policy<keyed_calls>);

// ---- a JSON array of call objects ----

TEST_CASE("engine/array: several calls in one array, between text", "[engine][array]")
{
    const auto r = run<array_calls>(
        "Let me check. <tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}, "
        "{\"arguments\": {\"zone\": \"CET\"}, \"name\": \"get_time\"}, {\"name\": \"ping\", \"arguments\": \"{}\"}]</tool_calls> done.");
    CHECK(segments(r) == "text \"Let me check. \"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} "
                         "\"{\\\"name\\\": \\\"get_weather\\\", \\\"arguments\\\": {\\\"city\\\": \\\"Paris\\\"}}\"\n"
                         "tool_call {\"tool_name\":\"get_time\"} "
                         "\"{\\\"arguments\\\": {\\\"zone\\\": \\\"CET\\\"}, \\\"name\\\": \\\"get_time\\\"}\"\n"
                         "tool_call {\"tool_name\":\"ping\"} \"{\\\"name\\\": \\\"ping\\\", \\\"arguments\\\": \\\"{}\\\"}\"\n"
                         "text \" done.\"\n");
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Paris\"}\nseg_3 get_time {\"zone\":\"CET\"}\nseg_4 ping {}\n");
    CHECK(r.invocations[0].arguments_raw == R"({"city": "Paris"})");
    // Other openers, each with its own closing marker; the same array inside. A longer opener
    // (```json) is read as itself whatever the chunking, though a shorter one (```) begins it.
    CHECK(calls(run<array_calls>("Here:\n```json\n[{\"name\": \"a\", \"arguments\": {}}]\n```\nok"))
          == "seg_2 a {}\n");
    CHECK(calls(run<array_calls>("```\n[{\"name\": \"a\", \"arguments\": {}}]```")) == "seg_1 a {}\n");
    CHECK(segments(run<array_calls>("```js\n[1]```")) == "text \"```js\\n[1]```\"\n");
}

TEST_CASE("engine/array: write_file inside the array streams its decoded body live", "[engine][array]")
{
    handler<array_calls> h;
    REQUIRE(!h.feed(R"(<tool_calls>[{"name": "get_time", "arguments": {}}, {"name": "write_file", "arguments": )"
                    R"({"path": "a.txt", "content": "part one,\n )"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "part one,\n ");
    REQUIRE(h.invocations().size() == 1);   // the first call ENDed where its object closed
    REQUIRE(!h.feed(R"(part two \"</tool_calls>]\""}}, {"name": "f", "arguments": {"k": [1]}}])"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "part one,\n part two \"</tool_calls>]\"");
    REQUIRE(h.invocations().size() == 3);
    REQUIRE(!h.feed("</tool_calls>"));
    REQUIRE(!h.finalize());
    CHECK(h.invocations()[1].arguments == boost::json::parse(R"({"path":"a.txt","content":"part one,\n part two \"</tool_calls>]\""})"));
    const std::string input = R"(<tool_calls>[{"name": "write_file", "arguments": {"path": "p", "content": "x\u00e9\n"}}]</tool_calls>)";
    CHECK(segments(run<array_calls>(input)) == "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"x\xc3\xa9\\n\"\n");
}

TEST_CASE("engine/array: an array cut off", "[engine][array][finalize]")
{
    // Cut inside the second object: the first is complete, the second incomplete.
    CHECK(calls(run<array_calls>(R"(<tool_calls>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": "cut)"))
          == "seg_1 a {}\nseg_2 b {} incomplete\n");
    // Cut between objects, or after the array: the calls read are complete; a partial closing
    // marker is text.
    CHECK(calls(run<array_calls>(R"(<tool_calls>[{"name": "a", "arguments": {}}, )")) == "seg_1 a {}\n");
    CHECK(segments(run<array_calls>(R"(<tool_calls>[{"name": "a", "arguments": {}}] </tool_ca)"))
          == "tool_call {\"tool_name\":\"a\"} \"{\\\"name\\\": \\\"a\\\", \\\"arguments\\\": {}}\"\ntext \" </tool_ca\"\n");
    // Cut before the array's first object is known: text.
    CHECK(segments(run<array_calls>("<tool_calls>[ ")) == "text \"<tool_calls>[ \"\n");
}

TEST_CASE("engine/array: an element that is not an object ends the array", "[engine][array]")
{
    // Before any object: the opener is text.
    for (std::string_view input : {"<tool_calls>[42]</tool_calls>", "<tool_calls>[\"a\"]", "<tool_calls>[[{\"name\": \"a\"}]]",
                                   "<tool_calls>{\"name\": \"a\", \"arguments\": {}}</tool_calls>", "<tool_calls> no"}) {
        INFO(input);
        CHECK(segments(run<array_calls>(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
    // After one: the calls read stand, the rest is text.
    const auto r = run<array_calls>(R"(<tool_calls>[{"name": "a", "arguments": {}}, 42, {"name": "b", "arguments": {}}]</tool_calls>)");
    CHECK(calls(r) == "seg_1 a {}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == R"(42, {"name": "b", "arguments": {}}]</tool_calls>)");
    // A missing comma is not the array either.
    const auto no_comma = run<array_calls>(R"(<tool_calls>[{"name": "a", "arguments": {}} {"name": "b"}])");
    CHECK(calls(no_comma) == "seg_1 a {}\n");
    CHECK(test::content_of_type(no_comma.events, segment_type::text) == R"({"name": "b"}])");
    // An object that is not a call is a call without a name.
    CHECK(calls(run<array_calls>(R"(<tool_calls>[{"city": "Paris"}]</tool_calls>)")) == "seg_1  {} invalid_arguments\n");
}

TEST_CASE("engine/array: blanks and commas between elements are syntax", "[engine][array]")
{
    const auto r = run<array_calls>("<tool_calls> \n[ \n{\"name\": \"a\", \"arguments\": {}}\n ,\n\t{\"name\": \"b\", \"arguments\": {}} ,"
                                    "{\"name\": \"c\", \"arguments\": {}} , ]\n</tool_calls>\n");
    CHECK(calls(r) == "seg_1 a {}\nseg_2 b {}\nseg_3 c {}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "\n");
    // An empty array is markup, and calls nothing.
    const auto empty = run<array_calls>("<tool_calls>[ ]</tool_calls>x");
    CHECK(segments(empty) == "text \"x\"\n");
}

TEST_CASE("engine/array: a bare array opens only at the start of the output", "[engine][array]")
{
    CHECK(segments(run<array_calls>(" \n[{\"name\": \"a\", \"arguments\": {\"k\": 1}}] and more"))
          == "text \" \\n\"\ntool_call {\"tool_name\":\"a\"} \"{\\\"name\\\": \\\"a\\\", \\\"arguments\\\": {\\\"k\\\": 1}}\"\n"
             "text \" and more\"\n");
    for (std::string_view input : {"x [{\"name\": \"a\", \"arguments\": {}}]", "[1, 2]", "[] [{\"name\": \"a\", \"arguments\": {}}]",
                                   "<tool_calls> [{\"name\": \"a\", \"arguments\": {}}]"}) {
        INFO(input);
        const auto r = run<array_calls>(input);
        if (input.starts_with("[]"))
            CHECK(segments(r) == "text \" [{\\\"name\\\": \\\"a\\\", \\\"arguments\\\": {}}]\"\n");   // one block, then text
        else if (input.starts_with("<tool_calls>"))
            CHECK(calls(r) == "seg_1 a {}\n");
        else
            CHECK(segments(r) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("engine/sequence: call objects one after another", "[engine][sequence]")
{
    const auto r = run<sequence_calls>("I will.\n<tool_calls>\n{\"name\": \"a\", \"arguments\": {\"x\": 1}}\n"
                                       "{\"name\": \"write_file\", \"arguments\": {\"path\": \"p\", \"content\": \"b\\n\"}}\n</tool_calls>\nDone.");
    CHECK(segments(r) == "text \"I will.\\n\"\n"
                         "tool_call {\"tool_name\":\"a\"} \"{\\\"name\\\": \\\"a\\\", \\\"arguments\\\": {\\\"x\\\": 1}}\"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"b\\n\"\n"
                         "text \"\\nDone.\"\n");
    // Anything but an object after the blanks ends the calls; the blanks stay text.
    const auto ended = run<sequence_calls>("<tool_calls>{\"name\": \"a\", \"arguments\": {}}  x</tool_calls>");
    CHECK(calls(ended) == "seg_1 a {}\n");
    CHECK(test::content_of_type(ended.events, segment_type::text) == "  x</tool_calls>");
    CHECK(calls(run<sequence_calls>("<tool_calls>{\"name\": \"a\", \"arguments\": {}}\n{\"name\": \"b\", \"arg")) ==
          "seg_1 a {}\nseg_2 b {} incomplete\n");
}

TEST_CASE("engine/keyed: a call object's first key is its tool name", "[engine][keyed]")
{
    const auto r = run<keyed_calls>("Calling. <|tools|>[{\"get_weather\": {\"city\": \"Paris\"}}, {\"a\\u0062\": {}}, "
                                    "{\"write_file\": {\"path\": \"p\", \"content\": \"x\\n\"}}]<|/tools|> done.");
    CHECK(segments(r) == "text \"Calling. \"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"get_weather\\\": {\\\"city\\\": \\\"Paris\\\"}}\"\n"
                         "tool_call {\"tool_name\":\"ab\"} \"{\\\"a\\\\u0062\\\": {}}\"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"x\\n\"\n"
                         "text \" done.\"\n");
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Paris\"}\nseg_3 ab {}\nseg_4 write_file {\"path\":\"p\",\"content\":\"x\\n\"}\n");
    // The body streams before the call ends.
    handler<keyed_calls> h;
    REQUIRE(!h.feed(R"(<|tools|>[{"write_file": {"path": "a.txt", "content": "part one, )"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "part one, ");
    REQUIRE(!h.feed(R"(part two"}}]<|/tools|>)"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"part one, part two"})"));
    // Only the first key names the call; a value that is no object is no arguments.
    CHECK(calls(run<keyed_calls>(R"(<|tools|>[{"f": {"a": 1}, "name": "g", "arguments": {}}, {"h": 5}, {"": {}}, {}])"))
          == "seg_1 f {\"a\":1}\nseg_2 h {} invalid_arguments\nseg_3  {} invalid_arguments\nseg_4  {} invalid_arguments\n");
    CHECK(calls(run<keyed_calls>(R"(<|tools|>[{"f": {"a": "cut)")) == "seg_1 f {} incomplete\n");
}

TEST_CASE("engine/array and sequence: generated inputs at every chunking", "[engine][array][sequence][generated]")
{
    constexpr std::string_view pieces[] = {
        "<tool_calls>[{\"name\": \"a\", \"arguments\": {\"x\": [1, {\"y\": \"}]\"}]}}, {\"name\":\"b\",\"arguments\":{}}]</tool_calls>",
        "<tool_calls>\n[{\"name\":\"write_file\",\"arguments\":{\"path\":\"p\",\"content\":\"l1\\n]\\\"q\\\" \\ud83d\\ude00\"}}]\n</tool_calls>",
        "<tool_calls>{\"name\": \"c\", \"arguments\": {}}\n{\"name\": \"d\", \"arguments\": {}}\n</tool_calls>",
        "[{\"name\": \"e\", \"arguments\": {}}]", "```json\n[{\"name\": \"f\", \"arguments\": {}}]```",
        "```\n[{\"name\": \"g\", \"arguments\": {}}]\n```", "```py\nx = [1]\n```", "```", "```json",
        "<|tools|>[{\"k\": {\"v\": \"]}\"}}, {\"write_file\": {\"path\": \"p\", \"content\": \"\\u00e9\"}}]<|/tools|>",
        "<|tools|>", "<|/tools|>", "<tool_calls>", "</tool_calls>", "[", "]", ",", "{\"name\":", "42", "plain words ", "\n", " ",
    };
    for (const auto& input : test::mixed_inputs(pieces, 60)) {
        run<array_calls>(input);
        run<sequence_calls>(input);
        run<keyed_calls>(input);
    }
    for (const auto& input : test::mixed_inputs(pieces, 20, 5)) {
        run<array_calls>(input, text_format_options{.max_held = 16, .max_held_body = 24, .schemas = {}});
        run<sequence_calls>(input, text_format_options{.max_held = 16, .max_held_body = 24, .schemas = {}});
    }
}

} // namespace test_text_format_engine_arrays
