// qwen3_xml: vLLM's Qwen3XMLToolParser reads Qwen3-Coder's grammar, <tool_call>\n<function=NAME>\n
// <parameter=K>\nV\n</parameter>\n</function>\n</tool_call>, as its qwen3_coder parser does (vLLM's tests
// run both over the same cases): every input here gives qwen3_coder's events. Every input runs at
// every split position, in 1-byte and random chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/qwen3_xml.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace test_qwen3_xml {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{
      "name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"},
      "days":{"type":"integer"}}}}}])", max_held);
}

// The qwen3_xml run, checked to equal qwen3_coder's.
template<class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    auto r = test::run_checked<qwen3_xml>(input, args...);
    CHECK(segments(r) == segments(test::run_whole<qwen3_coder>(input, args...)));
    return r;
}

} // namespace

static_assert(test::registered_text_format<qwen3_xml>);

TEST_CASE("qwen3_xml: two calls between prose, typed by schemas", "[formats][qwen3_xml]")
{
    constexpr std::string_view input =
        "Checking.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nS\xc3\xa3o Paulo\n</parameter>\n"
        "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n</function>\n"
        "</tool_call>\nDone.";
    const auto r = run(input);
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"S\xc3\xa3o Paulo\",\"days\":\"3\"}\nseg_4 get_time {}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Checking.\n\n\nDone.");
    CHECK(calls(run(input, with_schemas())) == "seg_2 get_weather {\"city\":\"S\xc3\xa3o Paulo\",\"days\":3}\nseg_4 get_time {}\n");
}

TEST_CASE("qwen3_xml: write_file streams its body live", "[formats][qwen3_xml]")
{
    const auto r = run("<tool_call>\n<function=write_file>\n<parameter=path>\na.xml\n</parameter>\n<parameter=content>\n"
                       "<x></parameter></x>\n</parameter>\n</function>\n</tool_call>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.xml\"} \"<x></parameter></x>\"\n");
    handler<qwen3_xml> h;
    REQUIRE(!h.feed("<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nfirst, "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "first, ");
    REQUIRE(!h.feed("second\n</parameter>\n</function>\n</tool_call>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"first, second"})"));
}

TEST_CASE("qwen3_xml: end of stream, not a call", "[formats][qwen3_xml][finalize]")
{
    CHECK(calls(run("<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n")) == "seg_1 f {\"a\":\"1\"}\n");
    CHECK(calls(run("<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("<tool_call>\n<function=f>\n<parameter=a>\nx </para")) == "seg_1 f {} incomplete\n");
    for (std::string_view input : {"<tool_call> is a tag", "<tool_call>\n<func=f>\n</tool_call>"}) {
        INFO(input);
        CHECK(segments(run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("qwen3_xml: generated inputs at every chunking", "[formats][qwen3_xml][generated]")
{
    constexpr std::string_view pieces[] = {
        "<tool_call>\n<function=get_weather>\n<parameter=days>\n4\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=write_file>\n<parameter=content>\n\xc3\xa9</parameter>x\n</parameter>\n<parameter=path>\np\n"
        "</parameter>\n</function>\n</tool_call>",
        "<tool_call>", "</parameter>", "<parameter=", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 30)) {
        run(input);
        run(input, with_schemas(40));
    }
}

} // namespace test_qwen3_xml
