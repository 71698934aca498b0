// The summary reports each call as its invocation: same name, arguments and status, every policy;
// a cut call is reported alike by every output (summary, invocations, events, API streams).
#include <toolstream/pipeline/text_pipeline.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/runtime/runtime_pipeline.hpp>
#include <toolstream/writers/anthropic_message_builder.hpp>
#include <toolstream/writers/anthropic_messages.hpp>
#include <toolstream/writers/openai_completion.hpp>
#include <toolstream/writers/openai_response_builder.hpp>
#include <toolstream/writers/openai_responses.hpp>
#include <toolstream/writers/openai_sse.hpp>

#include "catch_compat.hpp"
#include "support/event_log.hpp"
#include "support/events.hpp"
#include "writers/anthropic_sse_reader.hpp"
#include "writers/openai_sse_reader.hpp"
#include "writers/responses_sse_reader.hpp"

#include <boost/json/serialize.hpp>

#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace test_summary_agreement {

using namespace toolstream;

namespace {

std::string content_event(std::string_view text)
{
    boost::json::object delta{{"content", text}};
    boost::json::object choice{{"index", 0}, {"delta", std::move(delta)}};
    return "data: " + boost::json::serialize(boost::json::object{{"choices", boost::json::array{choice}}}) + "\n\n";
}

} // namespace

TEST_CASE("summary: every policy's calls are reported with the invocation's arguments", "[summary]")
{
    // One call in each text format, and a native call beside them.
    const std::string text =
        R"(A <tool name="lookup"><arguments><arg name="q">x</arg></arguments></tool> )"
        R"(B {"tool": {"function": "ls", "parameters": {"dir": "."}}} )"
        R"(C [[SEG_START {"type":"write_file","path":"a.txt"}]]hello[[SEG_END]] end)";
    std::string sse;
    for (std::size_t at = 0; at < text.size(); at += 9)
        sse += content_event(text.substr(at, 9));
    sse += R"(data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_n","function":{"name":"native","arguments":"{\"k\":1}"}}]},"finish_reason":"tool_calls"}]})"
           "\n\n";
    std::size_t checked = 0, expected = 0;
    for (auto name : policy_names) {
        // The native call, and the text call written in the policy's own format, if it has one here.
        // (`auto` settles on the first of them, the xml call, and reads it.)
        const bool reads_text = name == "xml" || name == "json_calls" || name == "sentinel" || name == "auto";
        expected += reads_text ? 2 : 1;
        auto made = runtime_pipeline<test::event_log>::create("openai_chat", name);
        REQUIRE(made.has_value());
        auto& p = **made;
        REQUIRE(!p.write(sse));
        REQUIRE(!p.finish());
        const auto& invocations = p.sink().invocations;
        const auto summary = p.summary();
        INFO(name);
        REQUIRE(summary.choices.size() == 1);
        REQUIRE(summary.choices[0].tool_calls == invocations);
        CHECK(&summary.choices[0].invocations() == &summary.choices[0].tool_calls);   // the handler's spelling
        CHECK(invocations.size() == (reads_text ? 2u : 1u));
        const auto json = to_json(summary, "openai_chat", "sse");
        const auto& calls = json.at("choices").at(0).at("tool_calls").as_array();
        for (std::size_t i = 0; i < invocations.size(); ++i) {
            CHECK(invocations[i].is_complete());
            CHECK(calls[i].at("arguments") == boost::json::value(invocations[i].arguments));
            CHECK(calls[i].at("arguments_raw").as_string() == invocations[i].arguments_raw);
            ++checked;
        }
    }
    CHECK(checked == expected);
}

// Every output of one run: the segment events' JSON, the three API streams, their three bodies.
struct every_output {
    std::vector<boost::json::object> tool_ends;   // the END event of each tool segment, as JSON
    openai_sse_writer<test::responses_output> chat{test::responses_output{}};
    anthropic_sse_writer<test::responses_output> messages{test::responses_output{}};
    openai_responses_writer<test::responses_output> responses{test::responses_output{}};
    openai_completion_builder chat_body{openai_completion_options{}};
    anthropic_message_builder messages_body{anthropic_options{}};
    openai_response_builder responses_body{openai_responses_options{}};

    template<class Event>
    void each(const Event& e)
    {
        auto to = [&e](auto& output) {
            if constexpr (std::invocable<decltype(output)&, const Event&>)
                output(e);
        };
        to(chat), to(messages), to(responses), to(chat_body), to(messages_body), to(responses_body);
    }
    void operator()(const segment_event& e)
    {
        if (e.type == segment_event_type::SEGMENT_END && is_tool_segment(e.segment_kind))
            tool_ends.push_back(to_json(e));
        each(e);
    }
    void operator()(const argument_fragment& f) { each(f); }
    void operator()(const response_started& r) { each(r); }
    void operator()(const choice_finished& c) { each(c); }
};

// The one call of a finished run, as each output reports it: `arguments` read from the text the
// API streams carry, `status` in each one's own terms.
template<class Policy>
void check_outputs_agree(const std::vector<std::string_view>& pieces, std::string_view arguments)
{
    text_pipeline<Policy, every_output> p{every_output{}};
    for (auto piece : pieces)
        REQUIRE(!p.write(piece));
    REQUIRE(!p.finish());
    auto& out = p.sink();
    out.chat.done();
    out.messages.done();
    out.responses.done();
    out.messages_body.done();

    // The invocation and the summary.
    const auto& invocations = p.choice(0).invocations();
    REQUIRE(invocations.size() == 1);
    const tool_invocation& inv = invocations[0];
    CHECK(inv.status == invocation_status::incomplete);
    CHECK(boost::json::serialize(reported_arguments(inv)) == arguments);
    CHECK(to_json(inv).at("arguments") == reported_arguments(inv));
    CHECK(to_json(inv).at("status") == "incomplete");
    const auto summary = to_json(p.summary(), "text", "text");
    CHECK(summary.at("choices").at(0).at("tool_calls").at(0).at("arguments") == reported_arguments(inv));

    // The events: END says incomplete and reports the arguments.
    REQUIRE(out.tool_ends.size() == 1);
    const auto& end = out.tool_ends[0].at("payload").as_object();
    CHECK(end.at("status") == "incomplete");
    CHECK(end.at("arguments") == reported_arguments(inv));

    // The API streams and bodies carry the argument text itself; read as above, it is the same.
    const auto chat = test::read_openai_sse(out.chat.output().bytes);
    REQUIRE(chat.calls_of(0).size() == 1);
    CHECK(chat.calls_of(0)[0].arguments == inv.arguments_raw);
    CHECK(chat.choices.at(0).finish_reason == "stop");   // not tool_calls: no call to run
    const auto chat_body = out.chat_body.completion();
    const auto& chat_call = chat_body.at("choices").at(0).at("message").at("tool_calls").at(0);
    CHECK(chat_call.at("function").at("arguments").as_string() == inv.arguments_raw);
    CHECK(chat_body.at("choices").at(0).at("finish_reason") == "stop");

    const auto messages = test::read_anthropic_sse(out.messages.output().bytes);
    REQUIRE(messages.json_texts.size() == 1);
    CHECK(messages.json_texts[0] == inv.arguments_raw);
    REQUIRE(messages.error.has_value());
    CHECK(messages.error->find("is incomplete") != std::string::npos);
    CHECK(out.messages_body.failed());
    CHECK(out.messages_body.error_message() == *messages.error);
    const auto reported = reported_arguments(inv);
    if (reported.is_object())   // a Messages `input` is an object: cut inside, the SDKs' partial parse
        CHECK(out.messages_body.message().at("content").at(0).at("input") == reported);

    const auto responses = test::read_responses_sse(out.responses.output().bytes);
    REQUIRE(responses.items.size() == 1);
    CHECK(responses.items[0].text == inv.arguments_raw);
    CHECK(responses.items[0].done.at("status") == "incomplete");
    CHECK(responses.items[0].done.at("arguments").as_string() == inv.arguments_raw);
    const auto responses_body = out.responses_body.response();
    CHECK(responses_body.at("output").at(0).at("arguments").as_string() == inv.arguments_raw);
    CHECK(responses_body.at("output").at(0).at("status") == "incomplete");
}

TEST_CASE("every output reports a cut call with the same arguments and status, at every chunking", "[summary]")
{
    // vLLM's tests/tool_parsers/test_apertus_tool_parser.py, test_incomplete_tool_call: the list is
    // cut before the call's object closes. vLLM makes it content; here it is an incomplete call
    // (docs/text_formats.md), whose arguments every output reports alike. Granite and hermes alike,
    // and a call cut inside its arguments, which read as null (not JSON).
    struct cut_call {
        std::string_view policy, text, arguments;
    };
    const cut_call cuts[] = {
        {"apertus", R"(<|tools_prefix|>[{"get_weather": {"location": "London"})", R"({"location":"London"})"},
        {"granite", R"(<|tool_call|>[{"name": "get_weather", "arguments": {"location": "London"})", R"({"location":"London"})"},
        {"hermes", R"(<tool_call>{"name": "get_weather", "arguments": {"location": "London"})", R"({"location":"London"})"},
        {"hermes", R"(<tool_call>{"name": "get_weather", "arguments": {"location": "Lon)", "null"},
        {"hermes", R"(<tool_call>{"name": "get_weather", )", "{}"},
    };
    for (const auto& cut : cuts) {
        for (const auto& pieces : test::chunkings(cut.text)) {
            INFO(cut.policy << " " << cut.text << " in " << pieces.size() << " pieces, the first " << pieces[0]);
            if (cut.policy == "apertus")
                check_outputs_agree<apertus>(pieces, cut.arguments);
            else if (cut.policy == "granite")
                check_outputs_agree<granite>(pieces, cut.arguments);
            else
                check_outputs_agree<hermes>(pieces, cut.arguments);
        }
    }
}

} // namespace test_summary_agreement
