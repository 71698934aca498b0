// step3p5: vLLM's Step3p5ToolParser (StepFun Step-3.5 / Step-3.7) reads Qwen3-Coder's grammar,
// <tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</tool_call>, and its
// unified Step3p5Parser is Qwen3Parser with other reasoning defaults: every input here gives
// qwen3_coder's events. The cases are written from that grammar. Every input runs at every split
// position, in 1-byte and random chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/step3p5.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <string>
#include <string_view>

namespace test_step3p5 {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{
      "name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"},
      "days":{"type":"integer"},"hourly":{"type":"boolean"}}}}}])", max_held);
}

// The step3p5 run, checked to equal qwen3_coder's.
template<class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    auto r = test::run_checked<step3p5>(input, args...);
    CHECK(segments(r) == segments(test::run_whole<qwen3_coder>(input, args...)));
    return r;
}

} // namespace

static_assert(test::registered_text_format<step3p5>);

TEST_CASE("step3p5: two calls between prose, typed by schemas", "[formats][step3p5]")
{
    constexpr std::string_view input =
        "Let me look.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nShanghai\n</parameter>\n"
        "<parameter=days>\n5\n</parameter>\n<parameter=hourly>\nfalse\n</parameter>\n</function>\n</tool_call>\n"
        "<tool_call>\n<function=list_cities>\n</function>\n</tool_call>\nThat is all.";
    const auto r = run(input);
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Shanghai\",\"days\":\"5\",\"hourly\":\"false\"}\nseg_4 list_cities {}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Let me look.\n\n\nThat is all.");
    CHECK(calls(run(input, with_schemas()))
          == "seg_2 get_weather {\"city\":\"Shanghai\",\"days\":5,\"hourly\":false}\nseg_4 list_cities {}\n");
}

TEST_CASE("step3p5: write_file streams its body live", "[formats][step3p5]")
{
    const auto r = run("<tool_call>\n<function=write_file>\n<parameter=path>\nm.py\n</parameter>\n<parameter=content>\n"
                       "s = \"</parameter>\"\n\n</parameter>\n</function>\n</tool_call>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"m.py\"} \"s = \\\"</parameter>\\\"\\n\"\n");
    handler<step3p5> h;
    REQUIRE(!h.feed("<tool_call>\n<function=write_file>\n<parameter=path>\nn.txt\n</parameter>\n<parameter=content>\nalpha "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "alpha ");
    REQUIRE(!h.feed("beta\n</parameter>\n</function>\n</tool_call>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"n.txt","content":"alpha beta"})"));
}

TEST_CASE("step3p5: end of stream, not a call", "[formats][step3p5][finalize]")
{
    CHECK(calls(run("<tool_call>\n<function=f>\n<parameter=k>\nv\n</parameter>\n</function>\n")) == "seg_1 f {\"k\":\"v\"}\n");
    CHECK(calls(run("<tool_call>\n<function=f>\n<parameter=k>\nv\n</parameter>\n")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("<tool_call>\n<function=f>\n<parameter=k>\nv </param")) == "seg_1 f {} incomplete\n");
    for (std::string_view input : {"<tool_call> wraps calls", "<tool_call>\n<fn=f>\n</tool_call>", "<function f>"}) {
        INFO(input);
        CHECK(segments(run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("step3p5: generated inputs at every chunking", "[formats][step3p5][generated]")
{
    constexpr std::string_view pieces[] = {
        "<tool_call>\n<function=get_weather>\n<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=write_file>\n<parameter=content>\n\xc3\xa9</parameter>x\n</parameter>\n<parameter=path>\np\n"
        "</parameter>\n</function>\n</tool_call>",
        "<function=now>\n</function>", "<tool_call>", "</parameter>", "<parameter=", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 30)) {
        run(input);
        run(input, with_schemas(48));
    }
}

} // namespace test_step3p5
