// kimi_k3: inputs written from vLLM's documented behaviour (kimi_k3_tool_parser.py: calls in an
// XTML `tools` channel, `<|open|>call tool="NAME" index="N"<|sep|>`, arguments
// `<|open|>argument key="K" type="T"<|sep|>V<|close|>argument<|sep|>`, a `type="string"` value raw
// and any other type JSON-decoded, falling back to the raw text; the answer in a `response`
// channel; `&quot;`/`&amp;` escaped in attributes). Every case runs at every split position, in
// 1-byte and random chunks, with byte conservation.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/kimi_k3.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_kimi_k3 {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<kimi_k3> && !kimi_k3::decodes_file_bodies);

namespace {

template<class Policy = kimi_k3, class... Options>
test::policy_run run(std::string_view input, const Options&... options)
{
    return test::run_checked<Policy>(input, options...);
}

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{"name":"get_weather","parameters":{"type":"object",
      "properties":{"city":{"type":"string"},"days":{"type":"integer"}}}}}])", max_held);
}

constexpr std::string_view two_calls =
    "<|open|>tools<|sep|>\n<|open|>call tool=\"get_weather\" index=\"1\"<|sep|>"
    "<|open|>argument key=\"city\" type=\"string\"<|sep|>Paris, \"FR\"<|close|>argument<|sep|>"
    "<|open|>argument key=\"days\" type=\"integer\"<|sep|>3<|close|>argument<|sep|><|close|>call<|sep|>\n"
    "<|open|>call tool=\"search\" index=\"2\"<|sep|>"
    "<|open|>argument key=\"filters\" type=\"object\"<|sep|>{\"stars\": [4, 5], \"open\": true}<|close|>argument<|sep|>"
    "<|open|>argument key=\"note\"<|sep|>null<|close|>argument<|sep|><|close|>call<|sep|>\n<|close|>tools<|sep|>";

} // namespace

TEST_CASE("kimi_k3: calls in the tools channel, the answer around them", "[formats][kimi_k3]")
{
    const auto r = run("<|open|>response<|sep|>Checking both.<|close|>response<|sep|>" + std::string(two_calls)
                       + "<|close|>message<|sep|>");
    // type="string" (or none) raw; other types JSON-decoded.
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Paris, \\\"FR\\\"\",\"days\":3}\n"
                      "seg_3 search {\"filters\":{\"stars\":[4,5],\"open\":true},\"note\":\"null\"}\n");
    CHECK(segments(r).starts_with("text \"Checking both.\"\n"));
    CHECK(test::content_of_type(r.events, segment_type::text) == "Checking both.");
    // The response markers are markup wherever they stand; the answer may come without its opener.
    CHECK(segments(run("Hi<|close|>response<|sep|> there<|open|>response<|sep|>!")) == "text \"Hi there!\"\n");
    // A call with no arguments, a tool name and key with escaped quotes and ampersands.
    CHECK(calls(run("<|open|>tools<|sep|><|open|>call tool=\"now\" index=\"1\"<|sep|><|close|>call<|sep|><|close|>tools<|sep|>"))
          == "seg_1 now {}\n");
    CHECK(calls(run("<|open|>tools<|sep|><|open|>call tool=\"a&amp;b\"<|sep|><|open|>argument key=\"say &quot;hi&quot;\" "
                    "type=\"string\"<|sep|>x<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>"))
          == "seg_1 a&b {\"say \\\"hi\\\"\":\"x\"}\n");
}

TEST_CASE("kimi_k3: the type attribute, with and without schemas", "[formats][kimi_k3]")
{
    constexpr std::string_view input =
        "<|open|>tools<|sep|><|open|>call tool=\"get_weather\" index=\"1\"<|sep|>"
        "<|open|>argument key=\"city\" type=\"integer\"<|sep|>42<|close|>argument<|sep|>"
        "<|open|>argument key=\"days\" type=\"string\"<|sep|>2<|close|>argument<|sep|>"
        "<|open|>argument key=\"units\" type=\"object\"<|sep|>metric<|close|>argument<|sep|>"
        "<|open|>argument key=\"hours\" type=\"array\"<|sep|> [1, 2] <|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>";
    // Without schemas the attribute decides; JSON that does not parse stays the raw text.
    CHECK(calls(run(input)) == "seg_1 get_weather {\"city\":42,\"days\":\"2\",\"units\":\"metric\",\"hours\":[1,2]}\n");
    // A schema's type comes first: city is a string and days an integer whatever the attribute says.
    CHECK(calls(run(input, with_schemas())) == "seg_1 get_weather {\"city\":\"42\",\"days\":2,\"units\":\"metric\",\"hours\":[1,2]}\n");
}

TEST_CASE("kimi_k3: write_file streams its body live; a literal close stays in it", "[formats][kimi_k3]")
{
    const auto r = run("Writing.<|open|>tools<|sep|><|open|>call tool=\"write_file\" index=\"1\"<|sep|>"
                       "<|open|>argument key=\"path\" type=\"string\"<|sep|>a.md<|close|>argument<|sep|>"
                       "<|open|>argument key=\"content\" type=\"string\"<|sep|>x<|close|>argument<|sep|> y\n<|close|>argument<|sep|>"
                       "<|close|>call<|sep|><|close|>tools<|sep|>Done.");
    CHECK(segments(r) == "text \"Writing.\"\nwrite_file {\"tool_name\":\"write_file\",\"path\":\"a.md\"} \"x<|close|>argument<|sep|> y\\n\"\n"
                         "text \"Done.\"\n");
    handler<kimi_k3> h;
    REQUIRE(!h.feed("<|open|>tools<|sep|><|open|>call tool=\"write_file\" index=\"1\"<|sep|>"
                    "<|open|>argument key=\"path\" type=\"string\"<|sep|>a.txt<|close|>argument<|sep|>"
                    "<|open|>argument key=\"content\" type=\"string\"<|sep|>first, "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "first, ");
    REQUIRE(!h.feed("second\\n<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"first, second\\n"})"));
}

TEST_CASE("kimi_k3: end of stream, near-misses", "[formats][kimi_k3][finalize]")
{
    // The channel's close stripped after <|close|>call<|sep|>: complete.
    CHECK(calls(run("<|open|>tools<|sep|><|open|>call tool=\"f\"<|sep|><|open|>argument key=\"a\" type=\"integer\"<|sep|>1"
                    "<|close|>argument<|sep|><|close|>call<|sep|>")) == "seg_1 f {\"a\":1}\n");
    // Cut before it, inside a value, or inside a held JSON value: incomplete, never complete.
    for (std::string_view input : {"<|open|>tools<|sep|><|open|>call tool=\"f\"<|sep|><|open|>argument key=\"a\" type=\"string\"<|sep|>1"
                                   "<|close|>argument<|sep|>",
                                   "<|open|>tools<|sep|><|open|>call tool=\"f\"<|sep|><|open|>argument key=\"a\" type=\"string\"<|sep|>1<|clo",
                                   "<|open|>tools<|sep|><|open|>call tool=\"f\"<|sep|><|open|>argument key=\"a\" type=\"object\"<|sep|>{\"b\": "}) {
        INFO(input);
        const auto r = run(input);
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].status == invocation_status::incomplete);
    }
    // Not calls: a call outside the tools channel, no tool attribute, no blank after `call`,
    // prose after the channel's opener, markers spelled otherwise.
    for (std::string_view input : {"<|open|>call tool=\"f\"<|sep|><|close|>call<|sep|>",
                                   "<|open|>tools<|sep|><|open|>call name=\"f\"<|sep|><|close|>call<|sep|>",
                                   "<|open|>tools<|sep|><|open|>calltool=\"f\"<|sep|><|close|>call<|sep|>",
                                   "<|open|>tools<|sep|> and prose", "<|open|>tool<|sep|><|open|>call tool=\"f\"<|sep|>"}) {
        INFO(input);
        CHECK(run(input).invocations.empty());
    }
    for (std::string_view input : {"<|open|> response <|sep|>", "<|open|>respons<|sep|>", "<|close|>response", "<|open|>call"}) {
        INFO(input);
        CHECK(test::content_of_type(run(input).events, segment_type::text) == input);
    }
}

TEST_CASE("kimi_k3: after the kimi_k3 reasoning parser", "[formats][kimi_k3][reasoning]")
{
    const reasoning_syntax* k3 = find_reasoning_parser("kimi_k3");
    REQUIRE(k3 != nullptr);
    const auto r = test::run_checked<reasoning_policy<kimi_k3>>(
        "Weather first.<|close|>think<|sep|><|open|>response<|sep|>Looking.<|close|>response<|sep|>" + std::string(two_calls), *k3);
    CHECK(test::content_of_type(r.events, segment_type::reasoning) == "Weather first.");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Looking.");
    CHECK(r.invocations.size() == 2);
}

TEST_CASE("kimi_k3: generated inputs at every chunking", "[formats][kimi_k3][generated]")
{
    constexpr std::string_view pieces[] = {
        two_calls,
        "<|open|>tools<|sep|><|open|>call tool=\"write_file\"<|sep|><|open|>argument key=\"content\" type=\"string\"<|sep|>é"
        "<|close|>argument<|sep|>x<|close|>argument<|sep|><|open|>argument key=\"path\"<|sep|>p<|close|>argument<|sep|>"
        "<|close|>call<|sep|><|close|>tools<|sep|>",
        "<|open|>response<|sep|>", "<|close|>response<|sep|>", "<|close|>argument<|sep|>", "<|open|>call tool=\"", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        run(input);
        run(input, with_schemas(80));
    }
}

} // namespace test_kimi_k3
