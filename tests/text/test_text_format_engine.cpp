// The text-format engine (text_format_policy) proven on formats written as trait sets right here:
// Hermes (a JSON call object between markers), a JSON array of call objects (Jamba / Granite
// shape, with more openers and a bare array at the start), call objects one after another
// (MiniMax shape), call objects keyed by their tool name (Apertus shape), a header-named format with a JSON object and a call id (DeepSeek V3.1 / Kimi
// K2 shape), and a key/value format (Qwen3-Coder shape). Every input goes through chunk invariance (every split position, 1-byte
// chunks, random chunkings), byte conservation and the argument-fragment contract.
#include <toolstream/handler.hpp>
#include <toolstream/engine/text_format.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>

using namespace toolstream;

// ---- the trait sets ----

// Hermes 2 Pro / Qwen2.5 / Qwen3: <tool_call>{"name": …, "arguments": {…}}</tool_call>.
struct hermes_like_format : marker_format {
    static constexpr std::string_view name = "hermes";
    static constexpr std::string_view call_open = "<tool_call>";
    static constexpr std::string_view call_close = "</tool_call>";
    static constexpr text_arguments arguments = text_arguments::json_call;
};
using hermes_like = text_format_policy<hermes_like_format>;

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

// A section of calls, each named by a header that also gives the call id (functions.NAME:IDX).
struct sectioned_format : marker_format {
    static constexpr std::string_view name = "sectioned";
    static constexpr std::string_view section_open = "<|calls|>";
    static constexpr std::string_view section_close = "<|/calls|>";
    static constexpr std::string_view call_open = "<|call|>";
    static constexpr std::string_view header_end = "<|args|>";
    static constexpr std::string_view call_close = "<|/call|>";
    static constexpr text_arguments arguments = text_arguments::json_object;
    static std::optional<call_header> read_header(std::string_view h)
    {
        const auto dot = h.find('.');
        const auto colon = h.rfind(':');
        if (dot == std::string_view::npos || colon == std::string_view::npos || colon < dot)
            return std::nullopt;
        return call_header{std::string(h.substr(dot + 1, colon - dot - 1)), std::string(h)};
    }
};
using sectioned = text_format_policy<sectioned_format>;

// Key/value parameters with raw values: <tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>…
struct key_value_format : marker_format {
    static constexpr std::string_view name = "key_value";
    static constexpr std::string_view call_open = "<tool_call>";
    static constexpr std::string_view header_end = ">";
    static constexpr std::string_view call_close = "</tool_call>";
    static constexpr text_arguments arguments = text_arguments::key_value;
    static constexpr std::string_view parameter_open = "<parameter=";
    static constexpr std::string_view parameter_name_end = ">";
    static constexpr std::string_view value_close = "</parameter>";
    static constexpr std::string_view parameters_close = "</function>";
    static constexpr bool strip_value_newline = true;
    static std::optional<call_header> read_header(std::string_view h)
    {
        const auto at = h.find("<function=");
        if (at == std::string_view::npos || h.substr(0, at).find_first_not_of(" \n") != std::string_view::npos)
            return std::nullopt;
        return call_header{std::string(h.substr(at + 10)), {}};
    }
};
using key_value = text_format_policy<key_value_format>;

static_assert(text_format_traits<hermes_like_format>);
static_assert(text_format_traits<array_format> && text_format_traits<sequence_format>);
static_assert(parser_policy<array_calls> && parser_policy<sequence_calls> && array_calls::decodes_file_bodies);
static_assert(text_format_traits<keyed_format> && parser_policy<keyed_calls>);
static_assert(text_format_traits<sectioned_format>);
static_assert(text_format_traits<key_value_format>);
static_assert(parser_policy<hermes_like> && parser_policy<sectioned> && parser_policy<key_value>);
static_assert(hermes_like::decodes_file_bodies && !key_value::decodes_file_bodies);

namespace {

template<class Policy, class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    test::check_chunk_invariance<Policy>(input, args...);
    test::check_byte_conservation<Policy>(input, args...);
    return test::run_whole<Policy>(input, args...);
}

// One line per segment: type, START metadata (when any), coalesced content, END status (when
// not complete).
std::string segments(const test::policy_run& r)
{
    std::map<std::string, std::string> content;
    for (const auto& e : r.events)
        if (e.type == segment_event_type::SEGMENT_CONTENT)
            content[e.segment_id] += e.delta;
    std::string out;
    for (const auto& e : r.events) {
        if (e.type == segment_event_type::SEGMENT_START) {
            out += std::string(boost::describe::enum_to_string(e.segment_kind, "?"));
            if (!e.metadata.empty())
                out += " " + boost::json::serialize(e.metadata);
            out += " " + boost::json::serialize(boost::json::string(content[e.segment_id]));
        } else if (e.type == segment_event_type::SEGMENT_END) {
            if (e.status != segment_status::complete)
                out += std::string(" ") + boost::describe::enum_to_string(e.status, "?");
            out += "\n";
        }
    }
    return out;
}

// One line per invocation: id, name, arguments, status when not complete.
std::string calls(const test::policy_run& r)
{
    std::string out;
    for (const auto& inv : r.invocations) {
        out += inv.id + " " + inv.name + " " + boost::json::serialize(inv.arguments);
        if (inv.status != invocation_status::complete)
            out += std::string(" ") + boost::describe::enum_to_string(inv.status, "?");
        out += "\n";
    }
    return out;
}

} // namespace

// ---- Hermes ----

TEST_CASE("engine/hermes: calls between text, \"arguments\" or \"parameters\"", "[engine][hermes]")
{
    const auto r = run<hermes_like>(
        "Let me check. <tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n"
        "</tool_call> and <tool_call>{\"name\":\"search\",\"parameters\":{\"q\":\"a b\"}}</tool_call> done.");
    CHECK(segments(r)
          == "text \"Let me check. \"\n"
             "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"name\\\": \\\"get_weather\\\", \\\"arguments\\\": "
             "{\\\"city\\\": \\\"Paris\\\", \\\"days\\\": 3}}\"\n"
             "text \" and \"\n"
             "tool_call {\"tool_name\":\"search\"} \"{\\\"name\\\":\\\"search\\\",\\\"parameters\\\":{\\\"q\\\":\\\"a b\\\"}}\"\n"
             "text \" done.\"\n");
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Paris\",\"days\":3}\nseg_4 search {\"q\":\"a b\"}\n");
    CHECK(r.invocations[0].arguments_raw == R"({"city": "Paris", "days": 3})");   // the raw fragments
}

TEST_CASE("engine/hermes: a write_file call streams its decoded body as a file segment", "[engine][hermes]")
{
    const std::string input = "Writing.\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"src/a.py\", "
                              "\"content\": \"def f():\\n    return \\\"</tool_call>\\\" \\u00e9\\n\"}}\n</tool_call>\nDone.";
    const auto r = run<hermes_like>(input);
    CHECK(segments(r) == "text \"Writing.\\n\"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"src/a.py\"} "
                         "\"def f():\\n    return \\\"</tool_call>\\\" \xc3\xa9\\n\"\n"
                         "text \"\\nDone.\"\n");
    CHECK(calls(r) == "seg_2 write_file {\"path\":\"src/a.py\",\"content\":\"def f():\\n    return \\\"</tool_call>\\\" "
                      "\xc3\xa9\\n\"}\n");

    // The body streams: it is out before the call ends, and START waited for the path only.
    handler<hermes_like> h;
    REQUIRE(!h.feed(R"(<tool_call>{"name": "patch_file", "arguments": {"patch": "@@ -1 +1 @@\n-a)"));
    CHECK(h.events().empty());   // START waits for the path
    REQUIRE(!h.feed(R"(\n+b\n", "path": "p.txt")"));
    CHECK(test::content_of_type(h.events(), segment_type::patch_file) == "@@ -1 +1 @@\n-a\n+b\n");
    CHECK(h.invocations().empty());
    REQUIRE(!h.feed("}}</tool_call>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"patch":"@@ -1 +1 @@\n-a\n+b\n","path":"p.txt"})"));
}

TEST_CASE("engine/hermes: markers inside JSON strings end nothing", "[engine][hermes]")
{
    const auto r = run<hermes_like>(R"(<tool_call>{"name": "note", "arguments": {"text": "use <tool_call> and </tool_call> or </think>", "n": "}"}}</tool_call>tail)");
    CHECK(calls(r) == "seg_1 note {\"text\":\"use <tool_call> and </tool_call> or </think>\",\"n\":\"}\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "tail");
}

TEST_CASE("engine/hermes: what is not a call stays text byte for byte", "[engine][hermes]")
{
    for (std::string_view input : {"<tool_call> is how I call tools", "<tool_call", "a <tool_cal b", "<tool_call>\n\n",
                                   "<tool_call>[1]</tool_call>", "<think", "{\"name\": \"x\"}"}) {
        const auto r = run<hermes_like>(input);
        INFO(input);
        CHECK(segments(r) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("engine/hermes: bad calls END invalid_arguments, with the reason", "[engine][hermes]")
{
    const auto r = run<hermes_like>("<tool_call>{\"arguments\": {}}</tool_call><tool_call>{\"name\": \"x\", \"arguments\": 5}</tool_call>"
                               "<tool_call>{\"name\": \"y\", \"arguments\": {\"a\": 1,}}</tool_call>"
                               "<tool_call>{\"name\": \"z\", \"arguments\": \"{\\\"k\\\": [1]}\"}</tool_call>"
                               "<tool_call>{\"name\": \"write_file\", \"arguments\": {\"path\": \"a\", \"content\": 7}}</tool_call>");
    CHECK(calls(r) == "seg_1  {} invalid_arguments\nseg_2 x {} invalid_arguments\nseg_3 y {} invalid_arguments\n"
                      "seg_4 z {\"k\":[1]}\nseg_5 write_file {} invalid_arguments\n");
    CHECK(r.invocations[0].error == "tool call has no name");
}

TEST_CASE("engine/hermes §7: what a cut stream held is content or text, never lost", "[engine][hermes][finalize]")
{
    // Complete arguments whose </tool_call> was stripped: the call is complete, the partial
    // closing marker is text.
    CHECK(segments(run<hermes_like>("<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_c"))
          == "tool_call {\"tool_name\":\"a\"} \"{\\\"name\\\":\\\"a\\\",\\\"arguments\\\":{}}\"\ntext \"</tool_c\"\n");
    // Cut inside the arguments: incomplete, every byte in the call's content.
    const auto cut = run<hermes_like>("<tool_call>{\"name\":\"a\",\"arguments\":{\"q\":\"</tool");
    CHECK(segments(cut) == "tool_call {\"tool_name\":\"a\"} \"{\\\"name\\\":\\\"a\\\",\\\"arguments\\\":{\\\"q\\\":\\\"</tool\" incomplete\n");
    CHECK(calls(cut) == "seg_1 a {} incomplete\n");
    // Cut before the name: the call STARTs at the end, without one.
    CHECK(segments(run<hermes_like>("x <tool_call>{\"arguments\":{\"a\":1},\"na"))
          == "text \"x \"\ntool_call \"{\\\"arguments\\\":{\\\"a\\\":1},\\\"na\" incomplete\n");
}

TEST_CASE("engine/hermes: generated inputs at every chunking", "[engine][hermes][generated]")
{
    constexpr std::string_view pieces[] = {
        "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": [1, {\"y\": \"}]\"}]}}</tool_call>",
        "<tool_call>\n{\"name\":\"write_file\",\"arguments\":{\"path\":\"p\",\"content\":\"l1\\nl2 \\\"q\\\" \\ud83d\\ude00\"}}\n</tool_call>",
        "<tool_call>{\"arguments\":{\"k\":\"v\"},\"name\":\"late\"}</tool_call>",
        "<think>maybe <tool_call>{\"name\":\"no\"}</tool_call></think>",
        "<tool_call>{\"name\":\"run_bash\",\"parameters\":{\"command\":\"ls -la\",\"background\":true}}</tool_call>",
        "<tool_call> not json </tool_call>",
        "</think>", "<tool_call>", "</tool_call>", "{\"name\":", "plain words ", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 60))
        run<hermes_like>(input);
    for (const auto& input : test::mixed_inputs(pieces, 20, 5))
        run<hermes_like>(input, text_format_options{.max_held = 16, .max_held_body = 24, .schemas = {}});
}

TEST_CASE("engine/hermes: a 1 MiB body streams in pieces and holds nothing back", "[engine][hermes][large]")
{
    std::string body;
    while (body.size() < (std::size_t{1} << 20))
        body += "line " + std::to_string(body.size()) + " \\\"quoted\\\" \\u00e9\\n";
    const std::string input = "<tool_call>{\"name\":\"write_file\",\"arguments\":{\"path\":\"big.txt\",\"content\":\"" + body
        + "\"}}</tool_call>";
    handler<hermes_like, test::contract_recording_sink> h(test::quiet_sink());
    std::size_t most = 0;
    for (std::size_t at = 0; at < input.size(); at += 4096) {
        REQUIRE(!h.feed(std::string_view(input).substr(at, 4096)));
        most = std::max(most, h.policy().held_bytes());
    }
    REQUIRE(!h.finalize());
    CHECK(most < 64);
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].is_complete());
    const auto decoded = boost::json::parse("\"" + body + "\"");
    CHECK(h.invocations()[0].arguments.at("content") == decoded);
    test::check_byte_conservation<hermes_like>(input.substr(0, 70000));
}

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

// ---- a sectioned format: header names, ids, a JSON object ----

TEST_CASE("engine/sectioned: a section of calls named by headers, ids kept", "[engine][sectioned]")
{
    const auto r = run<sectioned>(
        "Calling.<|calls|><|call|>functions.get_weather:0<|args|>{\"city\": \"Oslo\"}<|/call|>\n"
        "<|call|>functions.write_file:1<|args|>{\"content\": \"a\\tb\", \"path\": \"t.txt\"}<|/call|><|/calls|> After.");
    CHECK(segments(r) == "text \"Calling.\"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"city\\\": \\\"Oslo\\\"}\"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"t.txt\"} \"a\\tb\"\n"
                         "text \" After.\"\n");
    CHECK(calls(r) == "functions.get_weather:0 get_weather {\"city\":\"Oslo\"}\n"
                      "functions.write_file:1 write_file {\"path\":\"t.txt\",\"content\":\"a\\tb\"}\n");
}

TEST_CASE("engine/sectioned: a header that names nothing, or is too long, is text", "[engine][sectioned]")
{
    CHECK(segments(run<sectioned>("<|calls|><|call|>nodot<|args|>{}<|/call|><|/calls|>x"))
          == "text \"<|call|>nodot<|args|>{}<|/call|><|/calls|>x\"\n");
    const std::string long_header = "<|calls|><|call|>functions." + std::string(40, 'n') + ":0<|args|>{}<|/call|>";
    handler<sectioned> h(recording_sink{}, {}, sectioned(text_format_options{.max_held = 32, .max_held_body = 1024, .schemas = {}}));
    CHECK(h.feed(long_header) == error::marker_too_long);
    REQUIRE(!h.finalize());
    CHECK(h.invocations().empty());
}

TEST_CASE("engine/sectioned §7: cut inside arguments, and before the closing markers", "[engine][sectioned][finalize]")
{
    CHECK(calls(run<sectioned>("<|calls|><|call|>functions.f:0<|args|>{\"a\": \"<|/cal"))
          == "functions.f:0 f {} incomplete\n");
    CHECK(segments(run<sectioned>("<|calls|><|call|>functions.f:0<|args|>{\"a\": 1}<|/ca"))
          == "tool_call {\"tool_name\":\"f\"} \"{\\\"a\\\": 1}\"\ntext \"<|/ca\"\n");
}

// ---- key/value parameters ----

TEST_CASE("engine/key_value: raw values stream as JSON string fragments", "[engine][key_value]")
{
    const auto r = run<key_value>("Let me. <tool_call>\n<function=search>\n<parameter=query>\nx < y \"q\"\n</parameter>\n"
                                  "<parameter=limit>\n5\n</parameter>\n</function>\n</tool_call> ok");
    CHECK(calls(r) == "seg_2 search {\"query\":\"x < y \\\"q\\\"\",\"limit\":\"5\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Let me.  ok");
}

TEST_CASE("engine/key_value: a closing marker inside a value does not end it", "[engine][key_value]")
{
    const auto r = run<key_value>("<tool_call><function=write_file><parameter=path>a.xml</parameter>"
                                  "<parameter=content>\n<p>x</parameter> y</p>\n</parameter>\n</parameter>\n"
                                  "</function></tool_call>");
    CHECK(calls(r) == "seg_1 write_file {\"path\":\"a.xml\",\"content\":\"<p>x</parameter> y</p>\\n</parameter>\"}\n");
    // Blanks after the marker are looked at (up to 64): a marker followed by more value is value.
    handler<key_value> h(recording_sink{}, {}, key_value(text_format_options{.max_held = 24, .max_held_body = 1024,
                                                                          .schemas = {}}));
    const std::string blanks(30, ' ');
    CHECK(!h.feed("<tool_call><function=f><parameter=a>v</parameter>" + blanks + "w</parameter></function></tool_call>"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::object{{"a", "v</parameter>" + blanks + "w"}});
}

TEST_CASE("engine/key_value: a write_file body streams raw, START waits for the path", "[engine][key_value]")
{
    const auto r = run<key_value>("<tool_call>\n<function=write_file>\n<parameter=content>\nline 1\n\"line\" 2\n</parameter>\n"
                                  "<parameter=path>\n/tmp/a.txt\n</parameter>\n</function>\n</tool_call>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"/tmp/a.txt\"} \"line 1\\n\\\"line\\\" 2\"\n");
    CHECK(calls(r) == "seg_1 write_file {\"path\":\"/tmp/a.txt\",\"content\":\"line 1\\n\\\"line\\\" 2\"}\n");
    // §7: a value cut at a partial closing marker keeps it.
    CHECK(segments(run<key_value>("<tool_call><function=f><parameter=a>\nv\n</param"))
          == "tool_call {\"tool_name\":\"f\"} \"<parameter=a>\\nv\\n</param\" incomplete\n");
    CHECK(segments(run<key_value>("<tool_call><function=write_file><parameter=path>p</parameter><parameter=content>body __E"))
          == "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"body __E\" incomplete\n");
}
