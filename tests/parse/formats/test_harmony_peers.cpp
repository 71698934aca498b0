// harmony (alias openai) against vLLM's openai tool parser and llama.cpp's gpt-oss parser: a recipient
// in the role header is a call, as well as one after the channel. Every input runs at every split
// position, in 1-byte and random chunks, with byte conservation.
#include <toolstream/parse/formats/harmony.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

namespace test_harmony_peers {

using namespace toolstream;
using test::calls;
using test::segments;

TEST_CASE("harmony: a recipient in the role header is a call (vLLM, llama.cpp)", "[formats][harmony][peers]")
{
    // The recipient before the channel, a whole message.
    const auto role = test::run_checked<harmony>(
        "<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant to=functions.get_weather<|channel|>commentary "
        "<|constrain|>json<|message|>{\"city\": \"Tokyo\"}<|call|>");
    CHECK(test::content_of_type(role.events, segment_type::reasoning) == "Need weather.");
    CHECK(calls(role) == "seg_2 get_weather {\"city\":\"Tokyo\"}\n");
    // The completion began inside the prompt's `<|start|>assistant`: the role part's recipient
    // comes first (llama.cpp's raw completion); the blank before it is text.
    CHECK(segments(test::run_checked<harmony>(" to=functions.f<|channel|>commentary json<|message|>{\"a\": 1}<|call|>"))
          == "text \" \"\ntool_call {\"tool_name\":\"f\"} \"{\\\"a\\\": 1}\"\n");
    // After the channel, as before.
    CHECK(calls(test::run_checked<harmony>("<|start|>assistant<|channel|>commentary to=functions.g <|constrain|>json<|message|>{}"))
          == "seg_1 g {}\n");
    // `to=` in an answer's prose is text.
    CHECK(segments(test::run_checked<harmony>("<|channel|>final<|message|>Send it to=me")) == "text \"Send it to=me\"\n");
    CHECK(segments(test::run_checked<harmony>("Say to=x")) == "text \"Say to=x\"\n");
}

TEST_CASE("harmony: a call message left unclosed ends at <|call|>; the next message is read", "[formats][harmony][peers]")
{
    // Derived from vLLM tests/tool_parsers/test_openai_tool_parser.py::test_extract_tool_calls_multiple_tools:
    // vLLM reads each message to its end token whatever its content (`foo` is still a call) and
    // the messages after it. Here `<|call|>` outside a string ends the JSON: the call ENDs
    // invalid_arguments with the bytes it had, and the next message's call is read.
    const auto r = test::run_checked<harmony>(
        "<|channel|>commentary to=functions.get_current_weather <|constrain|>json<|message|>{\"location\": \"Tokyo\"<|call|>"
        "<|start|>assistant<|channel|>commentary to=functions.get_user_location <|constrain|>json<|message|>{\"location\": \"Tokyo\"}<|call|>");
    CHECK(calls(r) == "seg_1 get_current_weather {} invalid_arguments\nseg_2 get_user_location {\"location\":\"Tokyo\"}\n");
    CHECK(r.invocations[0].arguments_raw == R"({"location": "Tokyo")");
}

} // namespace test_harmony_peers
