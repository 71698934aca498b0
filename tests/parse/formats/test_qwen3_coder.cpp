// qwen3_coder: <tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</tool_call>,
// with and without tool schemas, alone and with qwen3 reasoning. Every input runs at every split
// position, in 1-byte and random chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/qwen3_coder.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>

namespace test_qwen3_coder {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

// vLLM's pair for Qwen3-Coder: --tool-call-parser qwen3_coder --reasoning-parser qwen3.
using qwen3_coder_qwen3 = reasoning_policy<qwen3_coder, qwen3_reasoning>;

template<class Policy = qwen3_coder, class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    return test::run_checked<Policy>(input, args...);
}

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([
      {"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{
        "city":{"type":"string"},"days":{"type":"integer"},"ratio":{"type":"number"},"metric":{"type":"boolean"},
        "options":{"type":"object"},"tags":{"type":"array"},"note":{"type":["string","null"]},"gone":{"type":"null"}}}}},
      {"type":"function","function":{"name":"run_bash","parameters":{"type":"object","properties":{
        "command":{"type":"string"},"timeout_seconds":{"type":"integer"},"background":{"type":"boolean"}}}}}
    ])", max_held);
}

constexpr std::string_view weather =
    "Checking.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nS\xc3\xa3o Paulo\n</parameter>\n"
    "<parameter=days>\n3\n</parameter>\n<parameter=ratio>\n0.5\n</parameter>\n<parameter=metric>\nTrue\n</parameter>\n"
    "<parameter=options>\n{\"lang\": \"pt\"}\n</parameter>\n<parameter=tags>\n[1, \"a\"]\n</parameter>\n"
    "<parameter=note>\nnull\n</parameter>\n<parameter=extra>\n7\n</parameter>\n</function>\n</tool_call>\nDone.";

} // namespace

static_assert(test::registered_text_format<qwen3_coder> && parser_policy<qwen3_coder_qwen3>);
static_assert(!qwen3_coder::decodes_file_bodies);

TEST_CASE("qwen3_coder: values are strings without schemas", "[formats][qwen3_coder]")
{
    const auto r = run(weather);
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"S\xc3\xa3o Paulo\",\"days\":\"3\",\"ratio\":\"0.5\",\"metric\":\"True\","
                      "\"options\":\"{\\\"lang\\\": \\\"pt\\\"}\",\"tags\":\"[1, \\\"a\\\"]\",\"note\":\"null\",\"extra\":\"7\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Checking.\n\nDone.");
}

TEST_CASE("qwen3_coder: schemas type the values as vLLM does", "[formats][qwen3_coder][schemas]")
{
    const auto r = run(weather, with_schemas());
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"S\xc3\xa3o Paulo\",\"days\":3,\"ratio\":5E-1,\"metric\":true,"
                      "\"options\":{\"lang\":\"pt\"},\"tags\":[1,\"a\"],\"note\":null,\"extra\":\"7\"}\n");
    // A nullable string's "null" is null (vLLM); a plain string's streams as written.
    // A value that does not convert stays a string; an unknown tool's values are strings.
    const auto bad = run("<tool_call>\n<function=get_weather>\n<parameter=days>\nthree\n</parameter>\n"
                         "<parameter=options>\n[1]\n</parameter>\n<parameter=gone>\nx\n</parameter>\n</function>\n</tool_call>"
                         "<tool_call>\n<function=other>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
                         with_schemas());
    CHECK(calls(bad) == "seg_1 get_weather {\"days\":\"three\",\"options\":\"[1]\",\"gone\":\"x\"}\nseg_2 other {\"days\":\"3\"}\n");
    // run_bash: the command streams as the shell segment; its options are typed into the arguments.
    const auto bash = run("<tool_call>\n<function=run_bash>\n<parameter=command>\nls -la\n</parameter>\n<parameter=timeout_seconds>\n"
                          "30\n</parameter>\n<parameter=background>\nfalse\n</parameter>\n</function>\n</tool_call>",
                          with_schemas());
    CHECK(segments(bash) == "run_bash {\"tool_name\":\"run_bash\"} \"ls -la\"\n");
    CHECK(calls(bash) == "seg_1 run_bash {\"command\":\"ls -la\",\"background\":false,\"timeout_seconds\":30}\n");
}

TEST_CASE("qwen3_coder: a string value streams, a typed one is held to its close", "[formats][qwen3_coder][schemas]")
{
    handler<qwen3_coder, test::contract_recording_sink> h(test::contract_recording_sink{}, {}, qwen3_coder(with_schemas()));
    REQUIRE(!h.feed("<tool_call>\n<function=get_weather>\n<parameter=city>\nLong city name, "));
    CHECK(test::content_of_type(h.events(), segment_type::tool_call).find("Long city name, ") != std::string::npos);
    CHECK(h.policy().held_bytes() < 16);
    REQUIRE(!h.feed("more\n</parameter>\n<parameter=days>\n12"));
    CHECK(h.policy().held_bytes() >= 2);   // "12" waits for its type
    REQUIRE(!h.feed("34\n</parameter>\n</function>\n</tool_call>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"city":"Long city name, more","days":1234})"));

    // Past the hold cap a typed value streams as a string, and the cap is reported.
    const std::string digits(60, '7');
    const std::string input = "<tool_call>\n<function=get_weather>\n<parameter=days>\n" + digits
        + "\n</parameter>\n</function>\n</tool_call>";
    handler<qwen3_coder, test::contract_recording_sink> capped(test::contract_recording_sink{}, {}, qwen3_coder(with_schemas(40)));
    CHECK(capped.feed(input) == error::marker_too_long);
    REQUIRE(!capped.finalize());
    REQUIRE(capped.invocations().size() == 1);
    CHECK(capped.invocations()[0].arguments == boost::json::parse("{\"days\":\"" + digits + "\"}"));
    run(input, with_schemas(40));
}

TEST_CASE("qwen3_coder: write_file streams its raw body; a literal </parameter> stays in it (mid-line markup too)", "[formats][qwen3_coder]")
{
    const auto r = run("I'll write it.\n<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/t\xc3\xa9st.xml\n</parameter>\n"
                       "<parameter=content>\nx <parameter=x>\nv\n</parameter> literal\n</function>\n\xe2\x82\xac \"q\"\\n\n\n"
                       "</parameter>\n</function>\n</tool_call>\nWritten.");
    CHECK(segments(r) == "text \"I'll write it.\\n\"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"src/t\xc3\xa9st.xml\"} "
                         "\"x <parameter=x>\\nv\\n</parameter> literal\\n</function>\\n\xe2\x82\xac \\\"q\\\"\\\\n\\n\"\n"
                         "text \"\\nWritten.\"\n");
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].arguments.at("content") == "x <parameter=x>\nv\n</parameter> literal\n</function>\n\xe2\x82\xac \"q\"\\n\n");

    // Live: the body is out before its parameter closes.
    handler<qwen3_coder> h;
    REQUIRE(!h.feed("<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nfirst half, "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "first half, ");
    REQUIRE(!h.feed("second half\n</parameter>\n</function>\n</tool_call>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"first half, second half"})"));
}

TEST_CASE("qwen3_coder: end of stream, not a call", "[formats][qwen3_coder][finalize]")
{
    // The stop sequence took </tool_call>: complete.
    CHECK(calls(run("<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n")) == "seg_1 f {\"a\":\"1\"}\n");
    // Cut before </function>, or inside a value: incomplete, every byte kept.
    CHECK(calls(run("<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n")) == "seg_1 f {} incomplete\n");
    CHECK(segments(run("<tool_call>\n<function=f>\n<parameter=a>\nx </para"))
          == "tool_call {\"tool_name\":\"f\"} \"\\n<parameter=a>\\nx </para\" incomplete\n");
    for (std::string_view input : {"<tool_call> is a tag", "<tool_call>\n<func=f>\n</tool_call>", "<tool_call>\n<function=a b>",
                                   "</parameter>"}) {
        INFO(input);
        CHECK(segments(run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("qwen3_coder + qwen3 reasoning", "[formats][qwen3_coder][reasoning]")
{
    const auto r = run<qwen3_coder_qwen3>("Need weather.</think>\n\n<tool_call>\n<function=get_weather>\n<parameter=days>\n2\n"
                                          "</parameter>\n</function>\n</tool_call>");
    CHECK(segments(r) == "reasoning \"Need weather.\"\ntext \"\\n\\n\"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"\\n<parameter=days>\\n2\\n</parameter>\\n</function>\"\n");
    CHECK(calls(r) == "seg_3 get_weather {\"days\":\"2\"}\n");
    const auto inside = run<qwen3_coder_qwen3>("<think>try <tool_call> maybe</think>ok");
    CHECK(inside.invocations.empty());
    CHECK(test::content_of_type(inside.events, segment_type::text) == "ok");
}

TEST_CASE("qwen3_coder: generated inputs at every chunking", "[formats][qwen3_coder][generated]")
{
    constexpr std::string_view pieces[] = {
        "<tool_call>\n<function=get_weather>\n<parameter=days>\n4\n</parameter>\n<parameter=city>\nRio\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=write_file>\n<parameter=content>\n\xc3\xa9</parameter>x\n</parameter>\n<parameter=path>\np\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=run_bash>\n<parameter=command>\necho 1\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>", "</parameter>", "<parameter=", "</function>", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40)) {
        run(input);
        run(input, with_schemas(40));
    }
}

TEST_CASE("qwen3_coder: a 1 MiB write_file streams with a bounded hold", "[formats][qwen3_coder][large]")
{
    std::string body;
    while (body.size() < (std::size_t{1} << 20))
        body += "line " + std::to_string(body.size()) + " </parameter> \"q\" \xc3\xa9\n";
    const std::string input = "Prose.\n<tool_call>\n<function=write_file>\n<parameter=path>\nbig.txt\n</parameter>\n"
                              "<parameter=content>\n" + body + "\n</parameter>\n</function>\n</tool_call>\nAfter.";
    test::check_large_body<qwen3_coder>(input, body, 128);
}

} // namespace test_qwen3_coder
