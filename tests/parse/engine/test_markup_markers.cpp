// The engine's markup_markers: markers that are syntax wherever they stand outside a call (Cohere
// wraps its answer in `<|START_RESPONSE|>` … `<|END_RESPONSE|>`), proven on a trait set written
// here. Every input goes through chunk invariance, byte conservation and the argument-fragment
// contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <array>
#include <string>
#include <string_view>

namespace test_markup_markers {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

// <call>{"name": …, "arguments": {…}}</call>, the answer between <answer> and </answer>.
struct answer_format : marker_format {
    static constexpr std::string_view name = "answer_markers";
    static constexpr std::string_view call_open = "<call>";
    static constexpr std::string_view call_close = "</call>";
    static constexpr text_arguments arguments = text_arguments::json_call;
    static constexpr std::array<std::string_view, 2> markup_markers{"<answer>", "</answer>"};
};
using answer_markers = text_format_policy<answer_format>;

static_assert(text_format_traits<answer_format> && parser_policy<answer_markers>);

test::policy_run run(std::string_view input) { return test::run_checked<answer_markers>(input); }

} // namespace

TEST_CASE("engine/markup_markers: consumed as markup wherever they stand outside a call", "[engine][markup_markers]")
{
    const auto r = run("<answer>It is sunny.</answer> <answer>Check: <call>{\"name\": \"f\", \"arguments\": {\"a\": \"</answer>\"}}</call></answer>");
    CHECK(test::content_of_type(r.events, segment_type::text) == "It is sunny. Check: ");
    CHECK(calls(r) == "seg_2 f {\"a\":\"</answer>\"}\n");   // inside a call, the call's bytes
    CHECK(segments(r).starts_with("text \"It is sunny. Check: \"\n"));   // one text segment across the markers
    const auto t = run("<answer></answer>");
    CHECK(t.events.empty());
    CHECK(t.invocations.empty());
}

TEST_CASE("engine/markup_markers: near-misses and a prefix cut off are text", "[engine][markup_markers][finalize]")
{
    for (std::string_view input : {"<answer", "an <answe r> here", "</answer", "<Answer>", "<answer >"}) {
        INFO(input);
        const auto t = run(input);
        CHECK(test::content_of_type(t.events, segment_type::text) == input);
    }
    CHECK(test::content_of_type(run("a<answer>b<answe").events, segment_type::text) == "ab<answe");
    CHECK(calls(run("<answer><call>{\"name\": \"f\", \"arguments\": {\"a\": 1")) == "seg_1 f {} incomplete\n");
    constexpr std::string_view pieces[] = {"<answer>", "</answer>", "text ", "<call>{\"name\": \"f\", \"arguments\": {}}</call>", "<answ"};
    for (const std::string& input : test::mixed_inputs(pieces, 30)) {
        INFO(input);
        test::check_chunk_invariance<answer_markers>(input);
        test::check_byte_conservation<answer_markers>(input);
    }
}

} // namespace test_markup_markers
