// llama3_json and kimi_k2 against vLLM's llama3_json and kimi_k2 tool parsers: a call after prose,
// objects that are not calls, a call with invalid JSON arguments between good ones. Every input
// runs at every split position, in 1-byte and random chunks, with byte conservation.
#include <toolstream/parse/formats/kimi_k2.hpp>
#include <toolstream/parse/formats/llama3_json.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

namespace test_json_peers {

using namespace toolstream;
using test::calls;
using test::segments;

TEST_CASE("llama3_json: a call after prose, as vLLM's Llama3JsonToolParser finds it", "[formats][llama3_json][peers]")
{
    const auto r = test::run_checked<llama3_json>(
        "I will check the weather. {\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\"}}");
    CHECK(segments(r) == "text \"I will check the weather. \"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"name\\\": \\\"get_weather\\\", \\\"parameters\\\": {\\\"city\\\": \\\"Oslo\\\"}}\"\n");
    // "arguments" as well as "parameters", blanks anywhere; two calls after prose.
    CHECK(calls(test::run_checked<llama3_json>("Two: { \"name\" : \"a\" ,\n\"arguments\" : {}}; {\"name\":\"b\",\"parameters\":{\"x\":1}}"))
          == "seg_2 a {}\nseg_3 b {\"x\":1}\n");
}

TEST_CASE("llama3_json: a JSON object that is not a call is content (vLLM)", "[formats][llama3_json][peers]")
{
    // A model asked for JSON output: no parameters/arguments key, invalid JSON, a name that is
    // not a string: the answer's content, every byte text.
    for (std::string_view input : {"{\"name\": \"Ada\", \"born\": 1815}", "{\"name\": \"Ada\"}", "{\"name\": Ada, \"parameters\": {}}",
                                   "{\"result\": {\"name\": 3}}", "Here: {\"name\": \"x\", \"value\": [1, 2]} done"}) {
        INFO(input);
        const auto r = test::run_checked<llama3_json>(input);
        CHECK(r.invocations.empty());
        CHECK(segments(r) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("kimi_k2: a call with invalid JSON arguments does not drop the calls after it (vLLM)", "[formats][kimi_k2][peers]")
{
    const auto r = test::run_checked<kimi_k2>(
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\": oops}<|tool_call_end|>"
        "<|tool_call_begin|>functions.g:1<|tool_call_argument_begin|>{\"b\": 2}<|tool_call_end|><|tool_calls_section_end|>");
    // The broken call is reported (kept as designed: vLLM passes its raw text on), the next one is whole.
    CHECK(calls(r) == "functions.f:0 f {} invalid_arguments\nfunctions.g:1 g {\"b\":2}\n");
}

} // namespace test_json_peers
