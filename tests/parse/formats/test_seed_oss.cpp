// seed_oss: <seed:think>…</seed:think> (the seed_oss reasoning parser) and <seed:tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>
// \n</function>\n</seed:tool_call>, as vLLM's seed_oss tool and reasoning parsers document them (the
// qwen3_coder grammar in Seed wrappers). Every input runs at every split position, in 1-byte and
// random chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/seed_oss.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace test_seed_oss {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

// vLLM's pair: --tool-call-parser seed_oss --reasoning-parser seed_oss.
using seed_oss_thinking = reasoning_policy<seed_oss, seed_oss_reasoning>;

template<class Policy = seed_oss, class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    return test::run_checked<Policy>(input, args...);
}

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{
      "name":"get_weather","parameters":{"type":"object","properties":{"location":{"type":"string"},
      "days":{"type":"integer"},"celsius":{"type":"boolean"}}}}}])", max_held);
}

} // namespace

static_assert(test::registered_text_format<seed_oss>);

TEST_CASE("seed_oss: reasoning, prose and two calls", "[formats][seed_oss]")
{
    constexpr std::string_view input =
        "<seed:think>The user wants weather; <seed:tool_call> here is thought.</seed:think>Let me check.\n"
        "<seed:tool_call>\n<function=get_weather>\n<parameter=location>\nBeijing\n</parameter>\n<parameter=days>\n3\n"
        "</parameter>\n</function>\n</seed:tool_call>\n<seed:tool_call>\n<function=get_weather>\n<parameter=location>\n"
        "\xe4\xb8\x8a\xe6\xb5\xb7\n</parameter>\n<parameter=celsius>\ntrue\n</parameter>\n</function>\n</seed:tool_call>Done.";
    const auto r = run<seed_oss_thinking>(input);
    CHECK(test::content_of_type(r.events, segment_type::reasoning) == "The user wants weather; <seed:tool_call> here is thought.");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Let me check.\n\nDone.");
    CHECK(calls(r) == "seg_3 get_weather {\"location\":\"Beijing\",\"days\":\"3\"}\n"
                      "seg_5 get_weather {\"location\":\"\xe4\xb8\x8a\xe6\xb5\xb7\",\"celsius\":\"true\"}\n");
    // vLLM converts each value by the tool's schema.
    CHECK(calls(run(input.substr(input.find("Let me")), with_schemas()))
          == "seg_2 get_weather {\"location\":\"Beijing\",\"days\":3}\n"
             "seg_4 get_weather {\"location\":\"\xe4\xb8\x8a\xe6\xb5\xb7\",\"celsius\":true}\n");
    // Qwen's own wrapper is text here; a bare <function=…> inside it is a call, as vLLM's seed_oss
    // parser reads one without <seed:tool_call> (qwen3_coder's rule, inherited).
    const std::string_view qwen = "<tool_call>\n<function=f>\n</function>\n</tool_call>";
    CHECK(segments(run(qwen)) == "text \"<tool_call>\\n\"\n"
                                 "tool_call {\"tool_name\":\"f\"} \"\\n</function>\"\n"
                                 "text \"\\n</tool_call>\"\n");
}

TEST_CASE("seed_oss: a region open from the start ends at a call", "[formats][seed_oss][reasoning]")
{
    const reasoning_syntax open = with_thinking_open(seed_oss_reasoning::syntax, true);
    const auto r = run<seed_oss_thinking>("thinking</seed:think>ok", open);
    CHECK(segments(r) == "reasoning \"thinking\"\ntext \"ok\"\n");
    const auto at_call = run<seed_oss_thinking>("thinking\n<seed:tool_call>\n<function=f>\n</function>\n</seed:tool_call>", open);
    CHECK(test::content_of_type(at_call.events, segment_type::reasoning) == "thinking\n");
    CHECK(calls(at_call) == "seg_2 f {}\n");
    // The reasoning parser of the same name, for other formats.
    const auto* syntax = find_reasoning_parser("seed_oss");
    REQUIRE(syntax != nullptr);
    CHECK(syntax->open == "<seed:think>");
    CHECK(syntax->close == "</seed:think>");
}

TEST_CASE("seed_oss: write_file streams its body live; a literal </parameter> stays in it", "[formats][seed_oss]")
{
    const auto r = run("<seed:tool_call>\n<function=write_file>\n<parameter=path>\nsrc/a.py\n</parameter>\n<parameter=content>\n"
                       "s = '</parameter> and </seed:tool_call>'\n</parameter>\n</function>\n</seed:tool_call>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"src/a.py\"} "
                         "\"s = '</parameter> and </seed:tool_call>'\"\n");
    handler<seed_oss> h;
    REQUIRE(!h.feed("<seed:tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nfirst, "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "first, ");
    REQUIRE(!h.feed("second\n</parameter>\n</function>\n</seed:tool_call>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"first, second"})"));
}

TEST_CASE("seed_oss: end of stream, not a call", "[formats][seed_oss][finalize]")
{
    // </seed:tool_call> taken by the stop sequence: complete.
    CHECK(calls(run("<seed:tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n")) == "seg_1 f {\"a\":\"1\"}\n");
    // Cut before </function> or inside a value: incomplete.
    CHECK(calls(run("<seed:tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n")) == "seg_1 f {} incomplete\n");
    CHECK(segments(run("<seed:tool_call>\n<function=f>\n<parameter=a>\nx </para"))
          == "tool_call {\"tool_name\":\"f\"} \"\\n<parameter=a>\\nx </para\" incomplete\n");
    for (std::string_view input : {"<seed:tool_call> is a tag", "<seed:tool_call>\n<func=f>", "</seed:think> alone"}) {
        INFO(input);
        CHECK(segments(run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("seed_oss: generated inputs at every chunking", "[formats][seed_oss][generated]")
{
    constexpr std::string_view pieces[] = {
        "<seed:tool_call>\n<function=get_weather>\n<parameter=days>\n4\n</parameter>\n</function>\n</seed:tool_call>",
        "<seed:tool_call>\n<function=write_file>\n<parameter=content>\n\xc3\xa9</parameter>x\n</parameter>\n<parameter=path>\n"
        "p\n</parameter>\n</function>\n</seed:tool_call>",
        "<seed:think>r</seed:think>", "<seed:tool_call>", "</parameter>", "<parameter=", "</seed:think>", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        run(input);
        run(input, with_schemas(40));
        run<seed_oss_thinking>(input);
    }
}

} // namespace test_seed_oss
