// Broken explicit call markup, kept as designed: vLLM and SGLang turn a <tool_call> with invalid
// JSON, or a DeepSeek call cut inside its JSON, into plain content; toolstream reports a call that
// is not complete, its raw text kept. The OpenAI SSE writer streams calls as they come, so such a
// call is already out as a tool call when it breaks: it stays one, and the replay CLI finishes the
// choice with "stop" when no call completed (docs/text_formats.md).
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/deepseek_v3.hpp>
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/writers/openai_sse.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"
#include "writers/writer_support.hpp"

#include <string>
#include <string_view>

namespace test_broken_calls {

using namespace toolstream;
using test::calls;
using test::segments;

TEST_CASE("broken call markup: an incomplete call with its raw text (vLLM/SGLang: content)", "[formats][peers][broken]")
{
    // <tool_call> with invalid JSON: vLLM's hermes returns the output as content.
    const auto bad = test::run_checked<hermes>("Sure. <tool_call>{\"name\": \"f\", \"arguments\": {\"a\": tru}}</tool_call>");
    CHECK(calls(bad) == "seg_2 f {} invalid_arguments\n");
    CHECK(test::content_of_type(bad.events, segment_type::tool_call) == "{\"name\": \"f\", \"arguments\": {\"a\": tru}}");
    // A DeepSeek call cut inside its JSON: vLLM streams it as content.
    const auto cut = test::run_checked<deepseek_v3>(
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\": \"x");
    CHECK(calls(cut) == "seg_1 f {} incomplete\n");
    CHECK(test::content_of_type(cut.events, segment_type::tool_call).find("{\"a\": \"x") != std::string::npos);
}

TEST_CASE("broken call markup through the OpenAI SSE writer: a tool call, finish stop", "[formats][peers][broken][openai-sse]")
{
    for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
        INFO(chunk);
        handler<hermes, test::string_sse_writer> h(test::string_sse_writer{test::string_output{}, test::fixed_identity()});
        const std::string_view input = "Hi <tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"x";
        for (std::size_t at = 0; at < input.size(); at += chunk)
            REQUIRE(!h.feed(input.substr(at, chunk)));
        REQUIRE(!h.finalize());
        REQUIRE(h.invocations().size() == 1);
        CHECK(!h.invocations()[0].is_complete());
        // What the replay CLI does: "tool_calls" only when a call completed.
        h.sink()(choice_finished{0, {}, finish_kind::stop});
        h.sink().done();
        const std::string& sse = h.sink().output().bytes;
        CHECK(sse.find("\"content\":\"") != std::string::npos);
        CHECK(sse.find("\"name\":\"f\"") != std::string::npos);
        CHECK(sse.find("<tool_call>") == std::string::npos);   // the markup is not content
        CHECK(sse.find("\"finish_reason\":\"stop\"") != std::string::npos);
    }
}

} // namespace test_broken_calls
