// Limits under hostile input: held bytes of the text policies stay within their caps however a
// stream tries to keep them growing, every limit has the default docs/errors.md states, and the
// stream goes on after each limit as documented.
#include <toolstream/handler/handler.hpp>
#include <toolstream/limits.hpp>
#include <toolstream/parse/formats/json_calls.hpp>
#include <toolstream/parse/formats/sentinel.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/providers/openai_responses.hpp>
#include <toolstream/transport/ndjson.hpp>
#include <toolstream/transport/sse.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace test_hostile_limits {

using namespace toolstream;

namespace {

// Feeds `unit` repeated to `total` bytes in random pieces of 1 to 700 bytes; REQUIREs held_bytes()
// to stay within `bound` after every feed and text + content + markup to rebuild the input.
template<class Policy, class Options>
void check_held(const Options& options, std::string_view head, std::string_view unit, std::size_t bound,
                std::size_t total = 256 * 1024)
{
    test::contract_recording_sink sink;
    sink.record_events = false;
    handler<Policy, test::contract_recording_sink> h(std::move(sink), {}, Policy(options));
    std::string input(head);
    while (input.size() < total)
        input += unit;
    std::mt19937 rng(7);
    std::size_t most = 0;
    for (std::size_t at = 0; at < input.size();) {
        const std::size_t n = std::min<std::size_t>(input.size() - at, 1 + rng() % 700);
        (void)h.feed(std::string_view(input).substr(at, n));   // marker_too_long is expected
        at += n;
        most = std::max(most, h.policy().held_bytes());
        if (most > bound) {
            INFO("held " << most << " after " << at << " bytes of " << head << unit << "...");
            REQUIRE(most <= bound);
        }
    }
    (void)h.finalize();
    CHECK(h.sink().bytes == input);
}

} // namespace

TEST_CASE("hostile limits: the documented defaults", "[reliability][limits]")
{
    CHECK(sse_options{}.max_event_size == std::size_t{16} << 20);
    CHECK(ndjson_options{}.max_line_size == std::size_t{64} << 20);
    CHECK(native_call_limits{}.max_calls == 1024);
    CHECK(native_call_limits{}.max_argument_bytes == std::size_t{64} << 20);
    CHECK(native_call_limits{}.max_depth == 64);
    CHECK(xml_options{}.max_tag_size == 4096);
    CHECK(xml_options{}.max_held_body == std::size_t{1} << 20);
    CHECK(json_calls_options{}.max_held == 4096);
    CHECK(sentinel_options{}.max_held == 4096);
    CHECK(detail::chat_stream::max_choices == 128);
    CHECK(provider_converter<gemini>::max_candidates == 128);
    CHECK(detail::openai_tool_calls::max_calls == 4096);
    CHECK(provider_converter<anthropic>::max_blocks == 4096);
    CHECK(provider_converter<openai_responses>::max_items == 4096);
}

TEST_CASE("hostile limits: xml holds less than max(max_tag_size, 64) + 16 bytes outside file bodies",
          "[reliability][limits][xml]")
{
    for (std::size_t cap : {0, 100, 4096}) {
        xml_options o;
        o.max_tag_size = cap;
        const std::size_t bound = std::max<std::size_t>(cap, 64) + 15;
        check_held<xml>(o, "", "<tool", bound);                           // openers, never a whole tag
        check_held<xml>(o, "<tool ", "a=\"1\" ", bound);                  // an opening tag without end
        check_held<xml>(o, "<tool name=\"", "x", bound);                  // an attribute that never closes
        check_held<xml>(o, "<tool name=\"f\">", "</too", bound);          // closing-tag prefixes
        check_held<xml>(o, "<tool name=\"f\"><arg name=\"", "a", bound);  // an argument tag without end
        check_held<xml>(o, "<tool name=\"run_bash\"><arg name=\"timeout_seconds\">", "9", bound);
        check_held<xml>(o, "<tool name=\"f\"><![CDATA[", "]]", bound);    // a section that never closes
        check_held<xml>(o, "", "\n\t \r", bound);                         // whitespace
    }
}

TEST_CASE("hostile limits: a file body waiting for its path holds at most max_held_body more",
          "[reliability][limits][xml]")
{
    for (std::size_t held : {0, 1000}) {
        xml_options o;
        o.max_held_body = held;
        const std::size_t bound = 64 + 15 + held;
        check_held<xml>(o, "<tool name=\"write_file\"><arg name=\"content\">", "body ", bound);
        check_held<xml>(o, "<tool name=\"patch_file\"><arg name=\"patch\">__START_PATCH__\n", "+x\n", bound);
        check_held<xml>(o, "<tool name=\"write_file\"><arg name=\"content\">a</arg>", "<arg name=\"b\">c</arg>", bound);
    }
}

TEST_CASE("hostile limits: json and sentinel hold at most max_held bytes", "[reliability][limits]")
{
    for (std::size_t cap : {16, 64, 4096}) {
        json_calls_options j;
        j.max_held = cap;
        check_held<json_calls>(j, "", "{", cap);
        check_held<json_calls>(j, "{", " \n\t", cap);                        // whitespace inside a signature
        check_held<json_calls>(j, "[", "[", cap);
        check_held<json_calls>(j, "{\"name\":", " ", cap);                   // a call whose name never comes
        check_held<json_calls>(j, "{\"name\":\"", "n", cap);                 // a name that never ends
        check_held<json_calls>(j, "{\"tool_calls\":[{\"name\":\"f\",\"arguments\":{\"a\":\"", "x", cap);
        sentinel_options s;
        s.max_held = cap;
        check_held<sentinel>(s, "", "[[SEG_STAR", cap);
        check_held<sentinel>(s, "[[SEG_START ", "{\"a\":[", cap);      // a header that never ends
        check_held<sentinel>(s, "[[SEG_START {\"type\":\"write_file\",\"path\":\"", "p", cap);
        check_held<sentinel>(s, "[[SEG_START {\"type\":\"text\"}]]", "[[SEG_EN", cap);
    }
}

TEST_CASE("hostile limits: after a native limit the other calls go on", "[reliability][limits]")
{
    native_call_limits limits;
    limits.max_argument_bytes = 64;
    handler<api_tool_call> h(recording_sink{}, handler_options{.segment_id_prefix = {}, .choice = 0, .native_limits = limits});
    chunk_response c;
    c.tool_calls = {{0, "a", "write_file", R"({"path":"a","content":")", false},
                    {1, "b", "get_weather", R"({"city":)", false}};
    REQUIRE(!h.feed(c));
    c.tool_calls = {{0, "", "", std::string(100, 'x'), false}, {1, "", "", R"("Paris"})", true}};
    CHECK(h.feed(c) == error::arguments_too_large);   // call 0 ends; call 1 still completes
    c.tool_calls = {{0, "", "", "\"}", true}};
    CHECK(!h.feed(c));                                  // ignored: call 0 has ended
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 2);
    const auto& file = h.invocations()[0];
    CHECK(file.id == "a");
    CHECK(file.status == invocation_status::invalid_arguments);
    CHECK(file.arguments_raw == R"({"path":"a","content":")");
    const auto& weather = h.invocations()[1];
    CHECK(weather.is_complete());
    CHECK(weather.arguments.at("city") == "Paris");
}

TEST_CASE("hostile limits: a choice past the converter's bounds is skipped, the others go on", "[reliability][limits]")
{
    pipeline_options options;
    options.collect_text = true;
    pipeline<openai_chat> p(recording_sink{}, options);
    std::string body;
    for (std::size_t index : {0, 500, 1}) {
        body += R"(data: {"choices":[{"index":)" + std::to_string(index) + R"(,"delta":{"content":"c)"
            + std::to_string(index) + "\"}}]}\n\n";
    }
    CHECK(p.write(body) == error::invalid_payload);
    CHECK(!p.finish());
    const auto summary = p.summary();
    REQUIRE(summary.choices.size() == 2);
    CHECK(summary.choices[0].text == "c0");
    CHECK(summary.choices[1].text == "c1");
    CHECK(summary.error == make_error_code(error::invalid_payload).message());
}

} // namespace test_hostile_limits
