// qwen3: vLLM's unified Qwen3Parser (vllm/parser/qwen3.py, which its qwen3_coder, qwen3_xml and
// mimo tool-parser names load) reads qwen3_coder's calls, `<tool_call>\n<function=NAME>\n
// <parameter=K>\nV\n</parameter>\n</function>\n</tool_call>`, after `<think>` reasoning open from the
// start that `</think>` or a `<tool_call>` ends. Here `qwen3` is an alias of the qwen3_coder
// policy, paired with the qwen3 reasoning parser; the inputs follow that documented grammar.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/qwen3_coder.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/runtime/runtime_policy.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"
#include "support/events.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace test_qwen3 {

using namespace toolstream;
using test::calls;

namespace {

using qwen3_parser = reasoning_policy<qwen3_coder, qwen3_reasoning>;

// `input` through the policy the names `qwen3` (both the format and the reasoning parser) make,
// at every chunking, must give what the static pair gives.
test::policy_run run_named_qwen3(std::string_view input)
{
    const auto expected = test::run_checked<qwen3_parser>(input);
    for (const auto& pieces : test::chunkings(input, 4)) {
        auto made = make_policy("qwen3", "qwen3");
        REQUIRE(made.has_value());
        handler<runtime_policy> h(recording_sink{}, {}, std::move(*made));
        for (const auto piece : pieces)
            REQUIRE(!test::with_exact_copy(piece, [&](std::string_view p) { return h.feed(p); }));
        REQUIRE(!h.finalize());
        REQUIRE(test::coalesce(h.events()) == expected.events);
        REQUIRE(h.invocations() == expected.invocations);
    }
    return expected;
}

} // namespace

static_assert(canonical_policy_name("qwen3") == "qwen3_coder");

TEST_CASE("qwen3: the alias makes the qwen3_coder policy", "[formats][qwen3]")
{
    auto made = make_policy("qwen3");
    REQUIRE(made.has_value());
    CHECK(made->name() == "qwen3_coder");
}

TEST_CASE("qwen3: reasoning, then calls, as the unified parser reads them", "[formats][qwen3]")
{
    // Reasoning open from the start, closed by </think>; two calls; prose between.
    const auto r = run_named_qwen3(
        "Plan: look up the weather.\n</think>\n\nChecking.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nLima\n"
        "</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n</function>\n</tool_call>");
    CHECK(test::content_of_type(r.events, segment_type::reasoning) == "Plan: look up the weather.\n");
    CHECK(calls(r) == "seg_3 get_weather {\"city\":\"Lima\"}\nseg_5 get_time {}\n");
    // A <tool_call> with a call body ends reasoning left open.
    const auto implicit = run_named_qwen3("thinking\n<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>");
    CHECK(test::content_of_type(implicit.events, segment_type::reasoning) == "thinking\n");
    CHECK(calls(implicit) == "seg_2 f {\"a\":\"1\"}\n");
    // A bare <function=…> call in the content.
    CHECK(calls(run_named_qwen3("</think>Sure. <function=f>\n<parameter=a>\nx\n</parameter>\n</function>")) == "seg_2 f {\"a\":\"x\"}\n");
}

} // namespace test_qwen3
