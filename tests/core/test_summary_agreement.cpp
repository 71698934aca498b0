// The summary reports each call as its invocation: same name, arguments and status, every policy,
// a cut call's too.
#include <toolstream/registry.hpp>
#include <toolstream/runtime_pipeline.hpp>

#include "catch_compat.hpp"
#include "support/event_log.hpp"

#include <boost/json/serialize.hpp>

#include <cstddef>
#include <string>
#include <string_view>

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
        const bool reads_text = name == "xml" || name == "json" || name == "sentinel";
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

TEST_CASE("summary and invocations: a cut call reports the same arguments and status in both", "[summary]")
{
    // vLLM's tests/tool_parsers/test_apertus_tool_parser.py, test_incomplete_tool_call: the list is
    // cut before the call's object closes. vLLM makes it content; here it is an incomplete call
    // (docs/text_formats.md), whose arguments every output reports alike.
    struct cut_call {
        std::string_view policy, text, arguments;
    };
    const cut_call cuts[] = {
        {"apertus", R"(<|tools_prefix|>[{"get_weather": {"location": "London"})", R"({"location":"London"})"},
        {"granite", R"(<|tool_call|>[{"name": "get_weather", "arguments": {"location": "London"})", R"({"location":"London"})"},
        {"hermes", R"(<tool_call>{"name": "get_weather", "arguments": {"location": "London"})", R"({"location":"London"})"},
        {"hermes", R"(<tool_call>{"name": "get_weather", "arguments": {"location": "Lon)", "null"},   // cut inside
    };
    for (const auto& cut : cuts) {
        for (const std::size_t piece : {std::size_t{1}, std::size_t{7}, cut.text.size()}) {
            INFO(cut.policy << " " << cut.text << " in pieces of " << piece);
            auto made = runtime_pipeline<test::event_log>::create("text", cut.policy);
            REQUIRE(made.has_value());
            auto& p = **made;
            for (std::size_t at = 0; at < cut.text.size(); at += piece)
                REQUIRE(!p.write(cut.text.substr(at, piece)));
            REQUIRE(!p.finish());
            const auto& invocations = p.sink().invocations;
            REQUIRE(invocations.size() == 1);
            CHECK(invocations[0].status == invocation_status::incomplete);
            const auto summary = to_json(p.summary(), "text", "text");
            const auto& call = summary.at("choices").at(0).at("tool_calls").at(0);
            CHECK(boost::json::serialize(call.at("arguments")) == cut.arguments);
            CHECK(to_json(invocations[0]).at("arguments") == call.at("arguments"));
            CHECK(to_json(invocations[0]).at("status") == "incomplete");
        }
    }
}

} // namespace test_summary_agreement
