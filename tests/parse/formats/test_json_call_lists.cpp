// The formats that write JSON call objects in a JSON array (or one after another) after or inside
// markers, as vLLM's parsers of the same names read them: granite `<|tool_call|>[…]`
// (GraniteToolParser), hunyuan_a13b and jamba `<tool_calls>[…]</tool_calls>`
// (HunyuanA13BToolParser, JambaToolParser), phi4_mini_json `functools[…]`
// (Phi4MiniJsonToolParser), xlam `[TOOL_CALLS][…]` and its other openers (xLAMToolParser); then
// granite-20b-fc `<function_call>{…}` (Granite20bFCToolParser), minimax `<tool_calls>` one object
// per line (MinimaxToolParser), apertus `<|tools_prefix|>[{"NAME": {…}}]<|tools_suffix|>`
// (ApertusToolParser) and the llama4_json alias. Every input runs at every split
// position, in 1-byte and random chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/apertus.hpp>
#include <toolstream/parse/formats/granite.hpp>
#include <toolstream/parse/formats/granite_20b_fc.hpp>
#include <toolstream/parse/formats/hunyuan_a13b.hpp>
#include <toolstream/parse/formats/jamba.hpp>
#include <toolstream/parse/formats/minimax.hpp>
#include <toolstream/parse/formats/phi4_mini_json.hpp>
#include <toolstream/parse/formats/xlam.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_json_call_lists {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

// An array format's opening and closing markers.
template<class Policy>
struct markers;
template<>
struct markers<granite> {
    static constexpr std::string_view opener = "<|tool_call|>", closer = "";
};
template<>
struct markers<hunyuan_a13b> {
    static constexpr std::string_view opener = "<tool_calls>", closer = "</tool_calls>";
};
template<>
struct markers<jamba> {
    static constexpr std::string_view opener = "<tool_calls>", closer = "</tool_calls>";
};
template<>
struct markers<phi4_mini_json> {
    static constexpr std::string_view opener = "functools", closer = "";
};
template<>
struct markers<xlam> {
    static constexpr std::string_view opener = "[TOOL_CALLS]", closer = "";
};

template<class Policy>
struct format {
    static constexpr auto opener = markers<Policy>::opener;
    static constexpr auto closer = markers<Policy>::closer;

    // opener + `[` + the calls, each `{"name": "NAME", "arguments": ARGUMENTS}` (+ `]` and the
    // closer when closed)
    static std::string block(std::initializer_list<std::pair<std::string_view, std::string_view>> list, bool closed = true,
                             std::string_view around = "")
    {
        std::string out = std::string(opener) + std::string(around) + "[";
        for (const auto& [name, arguments] : list) {
            if (out.back() != '[')
                out += ", ";
            out += "{\"name\": \"" + std::string(name) + "\", \"arguments\": " + std::string(arguments);
            if (closed || &name != &(list.end() - 1)->first)
                out += "}";
        }
        if (closed)
            out += "]" + std::string(around) + std::string(closer);
        return out;
    }
    static test::policy_run run(std::string_view input) { return test::run_checked<Policy>(input); }
};

static_assert(test::registered_text_format<granite> && test::registered_text_format<hunyuan_a13b>
              && test::registered_text_format<jamba> && test::registered_text_format<phi4_mini_json>
              && test::registered_text_format<xlam> && test::registered_text_format<granite_20b_fc>
              && test::registered_text_format<minimax> && test::registered_text_format<apertus>);
static_assert(granite::decodes_file_bodies && xlam::decodes_file_bodies && minimax::decodes_file_bodies);

} // namespace

// ---- the array formats ----

TEMPLATE_TEST_CASE("json call lists: two calls in one array, between prose", "[formats][granite][hunyuan_a13b][jamba][phi4_mini_json][xlam]",
                   granite, hunyuan_a13b, jamba, phi4_mini_json, xlam)
{
    using F = format<TestType>;
    const std::string input = "Let me look.\n"
        + F::block({{"get_weather", R"({"city": "Paris", "days": 3})"}, {"get_time", R"({"zone": "CET"})"}}, true, "\n") + "\nDone.";
    const auto r = F::run(input);
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Paris\",\"days\":3}\nseg_3 get_time {\"zone\":\"CET\"}\n");
    // Blanks before a closing marker are its syntax; with none, what follows `]` is text.
    CHECK(test::content_of_type(r.events, segment_type::text) == (F::closer.empty() ? "Let me look.\n\n\nDone." : "Let me look.\n\nDone."));
    CHECK(r.invocations[0].arguments_raw == R"({"city": "Paris", "days": 3})");   // the model's raw fragments
    // An empty array calls nothing; it is markup.
    CHECK(segments(F::run(std::string(F::opener) + "[]" + std::string(F::closer) + "x")) == "text \"x\"\n");
}

TEMPLATE_TEST_CASE("json call lists: write_file streams its decoded body live; markers in strings end nothing",
                   "[formats][granite][hunyuan_a13b][jamba][phi4_mini_json][xlam]", granite, hunyuan_a13b, jamba, phi4_mini_json, xlam)
{
    using F = format<TestType>;
    const std::string markers_text = "# " + std::string(F::opener) + " [{]} and " + std::string(F::closer);
    const auto r = F::run(F::block({{"write_file", "{\"path\": \"a.md\", \"content\": \"" + markers_text + "\\n\\u00e9\"}"}}));
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.md\"} "
                         + boost::json::serialize(boost::json::string(markers_text + "\n\xc3\xa9")) + "\n");
    handler<TestType> h;
    REQUIRE(!h.feed(F::block({{"f", "{}"}, {"write_file", R"({"path": "a.txt", "content": "part one, )"}}, false)));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "part one, ");
    CHECK(h.invocations().size() == 1);   // the first call ENDed where its object closed
    REQUIRE(!h.feed("part two\"}}]" + std::string(F::closer)));
    REQUIRE(h.invocations().size() == 2);
    CHECK(h.invocations()[1].arguments == boost::json::parse(R"({"path":"a.txt","content":"part one, part two"})"));
}

TEMPLATE_TEST_CASE("json call lists: end of stream, not a call", "[formats][granite][hunyuan_a13b][jamba][phi4_mini_json][xlam][finalize]",
                   granite, hunyuan_a13b, jamba, phi4_mini_json, xlam)
{
    using F = format<TestType>;
    // The closing marker taken by a stop sequence: complete once the array is.
    CHECK(calls(F::run(F::block({{"f", R"({"a": 1})"}}, false) + "}]\n")) == "seg_1 f {\"a\":1}\n");
    // Cut inside the second object: the first is complete, the second incomplete.
    CHECK(calls(F::run(F::block({{"f", "{}"}, {"g", R"({"a": "x)"}}, false))) == "seg_1 f {}\nseg_2 g {} incomplete\n");
    const auto cut = F::run(F::block({{"write_file", R"({"path": "p", "content": "ab)"}}, false));
    CHECK(segments(cut) == "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"ab\" incomplete\n");
    // An element that is not an object ends the array: the calls before it stand.
    const auto ended = F::run(std::string(F::opener) + "[{\"name\": \"f\", \"arguments\": {}}, 42]");
    CHECK(calls(ended) == "seg_1 f {}\n");
    CHECK(test::content_of_type(ended.events, segment_type::text) == "42]");
    for (const std::string& input : {std::string(F::opener) + " not json" + std::string(F::closer), std::string(F::opener),
                                     std::string(F::opener) + "[1, 2]", std::string(F::opener) + "{\"name\": \"f\"}",
                                     std::string(F::closer) + " alone"}) {
        INFO(input);
        CHECK(segments(F::run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEMPLATE_TEST_CASE("json call lists: an element left unclosed ends at the marker after the array",
                   "[formats][granite][hunyuan_a13b][jamba][phi4_mini_json][xlam][peers]", granite, hunyuan_a13b, jamba,
                   phi4_mini_json, xlam)
{
    // Derived from vLLM tests/tool_parsers/test_kimi_k2_tool_parser.py::test_extract_tool_calls_invalid_json
    // (vLLM extracts the call after one whose JSON a marker cut). The closing marker, or the next
    // opening where the format has none, ends the element outside a string: its call ENDs
    // invalid_arguments and the next block is read.
    using F = format<TestType>;
    const auto r = F::run(F::block({{"a", R"({"x": 1})"}}, false) + std::string(F::closer) + F::block({{"b", "{}"}}));
    CHECK(calls(r) == "seg_1 a {} invalid_arguments\nseg_2 b {}\n");
    // Within one array nothing tells where the element should have closed: it takes the next
    // element, up to the bracket that closes it.
    const auto one = F::run(std::string(F::opener) + R"([{"name": "a", "arguments": {"x": 1}, {"name": "b", "arguments": {}}])"
                            + std::string(F::closer));
    CHECK(calls(one) == "seg_1 a {} invalid_arguments\n");
}

TEMPLATE_TEST_CASE("json call lists: generated inputs at every chunking", "[formats][granite][hunyuan_a13b][jamba][phi4_mini_json][xlam][generated]",
                   granite, hunyuan_a13b, jamba, phi4_mini_json, xlam)
{
    using F = format<TestType>;
    const std::string first = F::block({{"get_weather", R"({"days": 4})"}, {"f", R"("{\"a\": [1]}")"}});
    const std::string second = F::block({{"write_file", "{\"content\": \"\xc3\xa9\\n]" + std::string(F::closer) + "\", \"path\": \"p\"}"}},
                                        true, "\n");
    const std::string_view pieces[] = {first, second, F::opener, F::closer, "[", "]", "{", ",", "\n", "text "};
    for (const auto& input : test::mixed_inputs(pieces, 40))
        F::run(input);
}

// ---- each array format's own openers ----

TEST_CASE("granite: <tool_call> (Granite 3.1) and a bare array at the start", "[formats][granite]")
{
    CHECK(calls(test::run_checked<granite>("<tool_call>[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]")) == "seg_1 f {\"a\":1}\n");
    const auto bare = test::run_checked<granite>(" [{\"arguments\": {}, \"name\": \"f\"}, {\"name\": \"g\", \"arguments\": {}}]");
    CHECK(calls(bare) == "seg_2 f {}\nseg_3 g {}\n");
    // A bare array after prose is text, as in vLLM.
    const std::string prose = "Sure: [{\"name\": \"f\", \"arguments\": {}}]";
    CHECK(segments(test::run_checked<granite>(prose)) == "text " + boost::json::serialize(boost::json::string(prose)) + "\n");
    // Both markers: the first is text, the second opens the calls.
    const auto both = test::run_checked<granite>("<|tool_call|><tool_call>[{\"name\": \"f\", \"arguments\": {}}]");
    CHECK(calls(both) == "seg_2 f {}\n");
    CHECK(test::content_of_type(both.events, segment_type::text) == "<|tool_call|>");
}

TEST_CASE("hunyuan_a13b: arguments written as a JSON string", "[formats][hunyuan_a13b]")
{
    const auto r = test::run_checked<hunyuan_a13b>(
        R"(<tool_calls>[{"name": "f", "arguments": "{\"city\": \"Paris\"}"}, {"name": "g", "arguments": {}}]</tool_calls>)");
    CHECK(calls(r) == "seg_1 f {\"city\":\"Paris\"}\nseg_2 g {}\n");
}

TEST_CASE("hunyuan_a13b: no call opens inside <think>", "[formats][hunyuan_a13b]")
{
    // Derived from vllm vllm/tool_parsers/hunyuan_a13b_tool_parser.py, preprocess_model_output,
    // which skips a <tool_calls> that stands inside a <think>…</think> block (vLLM's tests have no
    // such case): the block stays text, and the call after it is read.
    const std::string think = "<think>\nMaybe <tool_calls>[{\"name\": \"a\", \"arguments\": {}}]</tool_calls>\n</think>\n";
    const auto r = test::run_checked<hunyuan_a13b>(
        think + R"(<tool_calls>[{"name": "get_weather", "arguments": {"city": "Boston"}}]</tool_calls>)");
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Boston\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == think);
}

TEST_CASE("phi4_mini_json: \"parameters\", and prose about functools", "[formats][phi4_mini_json]")
{
    CHECK(calls(test::run_checked<phi4_mini_json>(R"(functools[{"name": "f", "parameters": {"q": "a]b"}}])"))
          == "seg_1 f {\"q\":\"a]b\"}\n");
    const std::string prose = "Use functools.reduce, or functools [1, 2] in a list.";
    CHECK(segments(test::run_checked<phi4_mini_json>(prose)) == "text " + boost::json::serialize(boost::json::string(prose)) + "\n");
}

TEST_CASE("xlam: a bare array, fences, <tool_call> and [TOOL_CALLS]", "[formats][xlam]")
{
    CHECK(calls(test::run_checked<xlam>("[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]")) == "seg_1 f {\"a\":1}\n");
    const auto fenced = test::run_checked<xlam>("Calling.\n```json\n[{\"name\": \"f\", \"arguments\": \"{}\"}]\n```\nDone.");
    CHECK(calls(fenced) == "seg_2 f {}\n");
    CHECK(test::content_of_type(fenced.events, segment_type::text) == "Calling.\n\nDone.");
    CHECK(calls(test::run_checked<xlam>("```\n[{\"name\": \"f\", \"arguments\": {}}]```")) == "seg_1 f {}\n");
    CHECK(calls(test::run_checked<xlam>("<tool_call>[{\"name\": \"f\", \"arguments\": {}}]</tool_call>")) == "seg_1 f {}\n");
    // A fence of code, or of a JSON object, is prose; so is a bare array after prose.
    for (std::string_view input : {"```python\nx = [1]\n```", "```json\n{\"name\": \"f\", \"arguments\": {}}\n```",
                                   "Here [{\"name\": \"f\", \"arguments\": {}}]"}) {
        INFO(input);
        CHECK(segments(test::run_checked<xlam>(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

// ---- one object per opening, or one object per line ----

TEST_CASE("granite_20b_fc: <function_call> before each call", "[formats][granite_20b_fc]")
{
    const auto r = test::run_checked<granite_20b_fc>(
        "Checking. <function_call> {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n"
        "<function_call> {\"name\": \"write_file\", \"arguments\": {\"path\": \"a\", \"content\": \"x\\ny\"}} ok");
    CHECK(segments(r) == "text \"Checking. \"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"name\\\": \\\"get_weather\\\", \\\"arguments\\\": {\\\"city\\\": \\\"Oslo\\\"}}\"\n"
                         "text \"\\n\"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"a\"} \"x\\ny\"\n"
                         "text \" ok\"\n");
    CHECK(calls(test::run_checked<granite_20b_fc>("<function_call>{\"name\": \"f\", \"arguments\": {\"a\": \"c")) ==
          "seg_1 f {} incomplete\n");
    for (std::string_view input : {"<function_call> is a marker", "<function_call>[{\"name\": \"f\"}]"}) {
        INFO(input);
        CHECK(segments(test::run_checked<granite_20b_fc>(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("minimax: <tool_calls> then one call object per line", "[formats][minimax]")
{
    const auto r = test::run_checked<minimax>(
        "<think>plan</think>\n<tool_calls>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n"
        "{\"name\": \"write_file\", \"arguments\": {\"path\": \"a\", \"content\": \"</tool_calls>\\n\"}}\n</tool_calls>\nDone.");
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Oslo\"}\nseg_3 write_file {\"path\":\"a\",\"content\":\"</tool_calls>\\n\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "<think>plan</think>\n\nDone.");
    CHECK(test::content_of_type(r.events, segment_type::write_file) == "</tool_calls>\n");
    // Cut: the calls read are complete, the open one incomplete.
    CHECK(calls(test::run_checked<minimax>("<tool_calls>\n{\"name\": \"f\", \"arguments\": {}}\n{\"name\": \"g\", \"arguments\": {\"a")) ==
          "seg_1 f {}\nseg_2 g {} incomplete\n");
    // Anything but another object ends the calls; the rest is text.
    const auto ended = test::run_checked<minimax>("<tool_calls>\n{\"name\": \"f\", \"arguments\": {}}\nnot a call</tool_calls>");
    CHECK(calls(ended) == "seg_1 f {}\n");
    CHECK(test::content_of_type(ended.events, segment_type::text) == "\nnot a call</tool_calls>");
    CHECK(segments(test::run_checked<minimax>("<tool_calls>[]")) == "text \"<tool_calls>[]\"\n");
}

TEST_CASE("minimax and granite_20b_fc: a call left unclosed ends at the next marker", "[formats][minimax][granite_20b_fc][peers]")
{
    // Derived from vLLM tests/tool_parsers/test_kimi_k2_tool_parser.py::test_extract_tool_calls_invalid_json:
    // granite_20b_fc has no closing marker, so the next `<function_call>` ends the object.
    const auto g = test::run_checked<granite_20b_fc>(
        "<function_call> {\"name\": \"a\", \"arguments\": {\"x\": 1 <function_call> {\"name\": \"b\", \"arguments\": {}}");
    CHECK(calls(g) == "seg_1 a {} invalid_arguments\nseg_2 b {}\n");
    // vLLM tests/tool_parsers/test_minimax_tool_parser.py::test_extract_tool_calls_invalid_json skips a
    // line that does not parse and reads the next. An object left unclosed takes the lines after it
    // up to `</tool_calls>` (an object may span lines here), ENDs invalid_arguments, and the next
    // block is read.
    const auto m = test::run_checked<minimax>(
        "<tool_calls>\n{\"name\": \"a\", \"arguments\": {\"city\": \"Seattle\"}\n{\"name\": \"b\", \"arguments\": {}}\n</tool_calls>"
        "<tool_calls>\n{\"name\": \"c\", \"arguments\": {}}\n</tool_calls>");
    CHECK(calls(m) == "seg_1 a {} invalid_arguments\nseg_2 c {}\n");
}

TEST_CASE("minimax and granite_20b_fc: generated inputs at every chunking", "[formats][minimax][granite_20b_fc][generated]")
{
    constexpr std::string_view pieces[] = {
        "<tool_calls>\n{\"name\": \"a\", \"arguments\": {\"x\": \"}\\n{\"}}\n{\"name\":\"write_file\",\"arguments\":{\"path\":\"p\",\"content\":\"\xc3\xa9\"}}\n</tool_calls>",
        "<function_call> {\"name\": \"b\", \"arguments\": {\"y\": [1]}}", "<function_call>", "<tool_calls>", "</tool_calls>",
        "{\"name\": \"c\", \"arguments\": {}}", "\n", "words ",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        test::run_checked<minimax>(input);
        test::run_checked<granite_20b_fc>(input);
    }
}

// ---- call objects keyed by their tool name ----

TEST_CASE("apertus: calls keyed by their tool name, between prose", "[formats][apertus]")
{
    const auto r = test::run_checked<apertus>(
        "Let me check.<|tools_prefix|>[{\"get_weather\": {\"city\": \"Paris\", \"days\": 3}}, {\"get_time\": {}}]<|tools_suffix|>\nDone.");
    CHECK(segments(r) == "text \"Let me check.\"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"get_weather\\\": {\\\"city\\\": \\\"Paris\\\", \\\"days\\\": 3}}\"\n"
                         "tool_call {\"tool_name\":\"get_time\"} \"{\\\"get_time\\\": {}}\"\n"
                         "text \"\\nDone.\"\n");
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Paris\",\"days\":3}\nseg_3 get_time {}\n");
    CHECK(r.invocations[0].arguments_raw == R"({"city": "Paris", "days": 3})");
}

TEST_CASE("apertus: write_file streams its decoded body live; markers in strings end nothing", "[formats][apertus]")
{
    handler<apertus> h;
    REQUIRE(!h.feed(R"(<|tools_prefix|>[{"write_file": {"path": "a.md", "content": "<|tools_suffix|>]} )"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "<|tools_suffix|>]} ");
    REQUIRE(!h.feed(R"(\u00e9"}}]<|tools_suffix|>)"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.md","content":"<|tools_suffix|>]} \u00e9"})"));
}

TEST_CASE("apertus: end of stream, not a call", "[formats][apertus][finalize]")
{
    CHECK(calls(test::run_checked<apertus>(R"(<|tools_prefix|>[{"f": {"a": 1}}])")) == "seg_1 f {\"a\":1}\n");
    CHECK(calls(test::run_checked<apertus>(R"(<|tools_prefix|>[{"f": {}}, {"g": {"a": "x)")) == "seg_1 f {}\nseg_2 g {} incomplete\n");
    // An object whose value is no arguments object, or with no key, ENDs invalid_arguments.
    CHECK(calls(test::run_checked<apertus>(R"(<|tools_prefix|>[{"f": [1]}, {}]<|tools_suffix|>)"))
          == "seg_1 f {} invalid_arguments\nseg_2  {} invalid_arguments\n");
    for (std::string_view input : {"<|tools_prefix|>{\"f\": {}}<|tools_suffix|>", "<|tools_prefix|>", "<|tools_prefix|>[\"f\"]",
                                   "<|tools_suffix|> alone"}) {
        INFO(input);
        CHECK(segments(test::run_checked<apertus>(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("apertus: an element left unclosed ends at <|tools_suffix|>", "[formats][apertus][peers]")
{
    // vLLM tests/tool_parsers/test_apertus_tool_parser.py::test_incomplete_tool_call (cut there, and
    // vLLM reads the arguments from the partial JSON), with <|tools_suffix|> and a next block
    // written: the suffix outside a string ends the element, its call ENDs invalid_arguments (its
    // bytes kept), and the next block is read.
    const auto r = test::run_checked<apertus>(R"(<|tools_prefix|>[{"get_weather": {"location": "London"}<|tools_suffix|>)"
                                              R"(<|tools_prefix|>[{"get_time": {}}]<|tools_suffix|>)");
    CHECK(calls(r) == "seg_1 get_weather {} invalid_arguments\nseg_2 get_time {}\n");
    CHECK(r.invocations[0].arguments_raw == R"({"location": "London"})");
}

TEST_CASE("apertus: generated inputs at every chunking", "[formats][apertus][generated]")
{
    constexpr std::string_view pieces[] = {
        "<|tools_prefix|>[{\"a\": {\"x\": [1, \"]}\"]}}, {\"write_file\": {\"content\": \"\xc3\xa9\\n\", \"path\": \"p\"}}]<|tools_suffix|>",
        "<|tools_prefix|>[{\"b\": \"{}\"}]", "<|tools_prefix|>", "<|tools_suffix|>", "[", "]", "{\"c\": {}}", ",", "\n", "text ",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40))
        test::run_checked<apertus>(input);
}

TEST_CASE("llama4_json is llama3_json, as vLLM registers one parser class under both names", "[formats][llama3_json]")
{
    STATIC_REQUIRE(canonical_policy_name("llama4_json") == "llama3_json");
}

} // namespace test_json_call_lists
