// The formats that write a hermes-style JSON call between markers of their own, as vLLM's
// parsers of the same names read them: longcat `<longcat_tool_call>{"name": …, "arguments": {…}}
// </longcat_tool_call>` (LongcatFlashToolParser), ernie45 `<tool_call>{…}</tool_call>`
// (Ernie45ToolParser), internlm `<|action_start|><|plugin|>{"name": …, "parameters": {…}}
// <|action_end|>` (Internlm2ToolParser). One set of cases for all three; every input runs at every
// split position, in 1-byte and random chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/ernie45.hpp>
#include <toolstream/parse/formats/internlm.hpp>
#include <toolstream/parse/formats/longcat.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_json_in_markers {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

// A format's markers and the key its arguments go under.
template<class Policy>
struct markers;
template<>
struct markers<longcat> {
    static constexpr std::string_view opener = "<longcat_tool_call>", closer = "</longcat_tool_call>", key = "arguments";
};
template<>
struct markers<ernie45> {
    static constexpr std::string_view opener = "<tool_call>", closer = "</tool_call>", key = "arguments";
};
template<>
struct markers<internlm> {
    static constexpr std::string_view opener = "<|action_start|><|plugin|>", closer = "<|action_end|>", key = "parameters";
};

template<class Policy>
struct format {
    static constexpr auto opener = markers<Policy>::opener;
    static constexpr auto closer = markers<Policy>::closer;

    // opener + `{"name": "NAME", "KEY": ARGUMENTS` (+ `}` and the closer when closed)
    static std::string call(std::string_view name, std::string_view arguments, bool closed = true,
                            std::string_view around = "")
    {
        std::string body = std::string(around) + "{\"name\": \"" + std::string(name) + "\", \"" + std::string(markers<Policy>::key)
            + "\": " + std::string(arguments);
        if (closed)
            body += "}" + std::string(around) + std::string(closer);
        return std::string(opener) + body;
    }
    static test::policy_run run(std::string_view input) { return test::run_checked<Policy>(input); }
};

static_assert(test::registered_text_format<longcat> && test::registered_text_format<ernie45>
              && test::registered_text_format<internlm>);
static_assert(longcat::decodes_file_bodies && ernie45::decodes_file_bodies && internlm::decodes_file_bodies);

} // namespace

TEMPLATE_TEST_CASE("json in markers: two calls between prose", "[formats][longcat][ernie45][internlm]", longcat, ernie45,
                   internlm)
{
    using F = format<TestType>;
    const std::string input = "Let me look.\n" + F::call("get_weather", R"({"city": "Paris", "days": 3})", true, "\n") + "\n"
        + F::call("get_time", R"({"zone": "CET"})") + "\nDone.";
    const auto r = F::run(input);
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Paris\",\"days\":3}\nseg_4 get_time {\"zone\":\"CET\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Let me look.\n\n\nDone.");
    // The arguments are the model's raw fragments.
    CHECK(r.invocations[0].arguments_raw == R"({"city": "Paris", "days": 3})");
}

TEMPLATE_TEST_CASE("json in markers: write_file streams its decoded body live; markers in strings end nothing",
                   "[formats][longcat][ernie45][internlm]", longcat, ernie45, internlm)
{
    using F = format<TestType>;
    const std::string markers_text = "# " + std::string(F::opener) + " and " + std::string(F::closer);
    const auto r = F::run(F::call("write_file", "{\"path\": \"a.md\", \"content\": \"" + markers_text + "\\n\\u00e9\"}", true, "\n"));
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.md\"} "
                         + boost::json::serialize(boost::json::string(markers_text + "\n\xc3\xa9")) + "\n");
    handler<TestType> h;
    REQUIRE(!h.feed(F::call("write_file", R"({"path": "a.txt", "content": "part one, )", false)));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "part one, ");
    REQUIRE(!h.feed("part two\"}}" + std::string(F::closer)));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"part one, part two"})"));
}

TEMPLATE_TEST_CASE("json in markers: end of stream, not a call", "[formats][longcat][ernie45][internlm][finalize]", longcat,
                   ernie45, internlm)
{
    using F = format<TestType>;
    // The closing marker taken by a stop sequence: complete once the object is.
    CHECK(calls(F::run(F::call("f", R"({"a": 1}})", false) + "\n")) == "seg_1 f {\"a\":1}\n");
    // Cut inside the object: incomplete.
    CHECK(calls(F::run(F::call("f", R"({"a": "x)", false))) == "seg_1 f {} incomplete\n");
    const auto cut = F::run(F::call("write_file", R"({"path": "p", "content": "ab)", false));
    CHECK(segments(cut) == "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"ab\" incomplete\n");
    for (const std::string& input : {std::string(F::opener) + "not json" + std::string(F::closer), std::string(F::opener),
                                     std::string(F::closer) + " alone"}) {
        INFO(input);
        CHECK(segments(F::run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEMPLATE_TEST_CASE("json in markers: a call closed inside its JSON is invalid, and the next call is read",
                   "[formats][longcat][ernie45][internlm][peers]", longcat, ernie45, internlm)
{
    // Derived from vLLM tests/tool_parsers/test_kimi_k2_tool_parser.py::test_extract_tool_calls_invalid_json
    // (vLLM extracts the call after one its closing marker cut); the malformed inputs these parsers
    // share in vLLM (tests/tool_parsers/common_tests.py, malformed_input_outputs) have no such call.
    using F = format<TestType>;
    const auto r = F::run(F::call("a", R"({"x": 1)", false) + std::string(F::closer) + "\n" + F::call("b", "{}"));
    CHECK(calls(r) == "seg_1 a {} invalid_arguments\nseg_3 b {}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "\n");
}

TEMPLATE_TEST_CASE("json in markers: generated inputs at every chunking", "[formats][longcat][ernie45][internlm][generated]",
                   longcat, ernie45, internlm)
{
    using F = format<TestType>;
    const std::string first = F::call("get_weather", R"({"days": 4})");
    const std::string second = F::call("write_file", "{\"content\": \"\xc3\xa9\\n" + std::string(F::closer) + "\", \"path\": \"p\"}",
                                       true, "\n");
    const std::string_view pieces[] = {first, second, F::opener, F::closer, "{", "\n"};
    for (const auto& input : test::mixed_inputs(pieces, 40))
        F::run(input);
}

} // namespace test_json_in_markers
