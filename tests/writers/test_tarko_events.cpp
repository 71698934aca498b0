// The Agent TARS `assistant_streaming_tool_call` events: on every recorded stream at every
// chunking, on text-format calls at every split position, and their exact shape.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/json_calls.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/runtime/runtime_pipeline.hpp>
#include <toolstream/writers/tarko_events.hpp>

#include "catch_compat.hpp"
#include "support/fixtures.hpp"
#include "writers/tarko_checks.hpp"

#include <random>

namespace test_tarko_events {

using namespace toolstream;

static_assert(event_sink<tarko_event_sink<test::tarko_lines>>);
static_assert(std::invocable<tarko_event_sink<test::tarko_lines>&, const argument_fragment&>);
static_assert(std::invocable<tarko_event_sink<test::tarko_lines>&, const response_started&>);

namespace {

struct fixture_run {
    std::vector<std::string> lines;
    std::vector<tool_invocation> invocations;   // every call, as the sink got them (incomplete ones too)
    std::vector<std::vector<tool_invocation>> listed;   // per choice, the summary's calls
    test::end_arguments ends;
    std::string message_id;
    std::string response_id;
};

struct response_id_probe {
    std::string* id;
    void operator()(const response_started& r) const { *id = std::string(r.id); }
    void operator()(const tool_invocation&) const {}
};

fixture_run replay(const test::fixture& f, std::string_view bytes, const std::vector<std::size_t>& sizes)
{
    fixture_run run;
    using sink = tee_sink<test::tarko_recording, response_id_probe>;
    auto made = runtime_pipeline<sink>::create(test::provider_of(f), "api_tool_call",
                                               sink{test::make_tarko_recording(run.lines), {&run.response_id}});
    REQUIRE(made);
    auto& p = **made;
    std::size_t at = 0;
    for (std::size_t i = 0; at < bytes.size(); ++i) {
        const std::size_t n = std::min(sizes[i % sizes.size()], bytes.size() - at);
        (void)p.write(bytes.substr(at, n));
        at += n;
    }
    (void)p.finish();
    for (const auto& c : p.summary().choices)
        run.listed.push_back(c.tool_calls);
    run.invocations = p.sink().first().first().first().invocations;
    run.ends = p.sink().first().first().second();
    run.message_id = p.sink().first().second().message_id();
    return run;
}

// The SDK's calls (the expected file) against the events: by position per choice, as the
// summary lists them (a call a broken stream left unfinished is in neither). Ids where the wire
// has them; the raw text where it is the wire's (Gemini and Ollama send objects: the parsed
// arguments are compared).
void check_against_expected(const test::fixture& f, const fixture_run& run,
                            const std::map<std::string, test::tarko_call>& calls)
{
    const auto& choices = f.expected.at("choices").as_array();
    REQUIRE(run.listed.size() == choices.size());
    const bool raw_on_wire = f.provider_dir != "gemini" && f.provider_dir != "ollama";
    for (std::size_t c = 0; c < choices.size(); ++c) {
        const auto& expected = choices[c].at("tool_calls").as_array();
        REQUIRE(run.listed[c].size() == expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k) {
            const auto& e = expected[k].as_object();
            const auto& listed = run.listed[c][k];
            INFO("choice " << c << " call " << k << " " << listed.id);
            REQUIRE(calls.count(listed.id) == 1);
            const auto& got = calls.at(listed.id);
            if (const auto* id = e.at("id").if_string())
                CHECK(listed.id == std::string_view(*id));
            CHECK(got.name == std::string_view(e.at("name").as_string()));
            if (raw_on_wire)
                CHECK(got.arguments == std::string_view(e.at("arguments_raw").as_string()));
            if (!e.at("arguments").is_null())
                CHECK(boost::json::parse(got.arguments.empty() ? "{}" : got.arguments) == e.at("arguments"));
        }
    }
}

} // namespace

TEST_CASE("tarko: every recorded stream gives one event stream per call, the same at every chunking", "[tarko]")
{
    const auto fixtures = test::load_fixtures();
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set or holds no fixtures: skipped");
        return;
    }
    std::size_t with_calls = 0;
    std::size_t completed = 0;
    std::size_t unfinished = 0;
    for (const auto& f : fixtures) {
        const std::string bytes = test::read_file(f.stream_path);
        std::mt19937 rng(static_cast<unsigned>(bytes.size()));
        std::vector<std::size_t> random_sizes;
        for (int i = 0; i < 64; ++i)
            random_sizes.push_back(1 + rng() % 97);
        const auto whole = replay(f, bytes, {bytes.size() + 1});
        INFO(f.name);
        const auto calls = test::group_by_call(whole.lines, whole.message_id);
        test::check_against_invocations(calls, whole.invocations, whole.ends);
        check_against_expected(f, whole, calls);
        if (!whole.response_id.empty())
            CHECK(whole.message_id == whole.response_id);
        else
            CHECK(whole.message_id.starts_with("msg_"));
        with_calls += calls.empty() ? 0 : 1;
        for (const auto& inv : whole.invocations)
            (inv.is_complete() ? completed : unfinished) += 1;
        // Native fragments are the provider's: the very same events at every chunking.
        const auto reference = test::without_message_id(whole.lines);
        for (const auto& sizes : std::vector<std::vector<std::size_t>>{{1}, {7}, {64}, random_sizes}) {
            const auto got = replay(f, bytes, sizes);
            INFO("chunk " << sizes.front());
            CHECK(test::without_message_id(got.lines) == reference);
        }
    }
    CHECK(with_calls >= 15);
    CHECK(completed >= 15);
    CHECK(unfinished >= 2);   // sdk-incomplete-partial-json, spliced-message-start: no completion
}

namespace {

template<class Policy>
std::vector<std::string> text_events(const std::vector<std::string_view>& pieces, std::vector<tool_invocation>& invocations,
                                     test::end_arguments& ends)
{
    std::vector<std::string> lines;
    handler<Policy, test::tarko_recording> h(test::make_tarko_recording(lines, {.message_id = "m1"}));
    for (auto piece : pieces)
        (void)h.feed(piece);
    (void)h.finalize();
    invocations = h.invocations();
    ends = h.sink().first().second();
    return lines;
}

// Per call the events join to the same text at every split position and in 1-byte pieces;
// every check of the whole run holds at each.
template<class Policy>
void check_text_at_every_split(std::string_view input, std::size_t expected_calls)
{
    std::vector<tool_invocation> invocations;
    test::end_arguments ends;
    const auto whole = text_events<Policy>({input}, invocations, ends);
    const auto calls = test::group_by_call(whole, "m1");
    REQUIRE(invocations.size() == expected_calls);
    test::check_against_invocations(calls, invocations, ends);
    std::map<std::string, std::string> reference;
    for (const auto& [id, c] : calls)
        reference[id] = c.arguments;
    auto check = [&](const std::vector<std::string_view>& pieces) {
        std::vector<tool_invocation> inv;
        test::end_arguments e;
        const auto lines = text_events<Policy>(pieces, inv, e);
        const auto got = test::group_by_call(lines, "m1");
        test::check_against_invocations(got, inv, e);
        std::map<std::string, std::string> joined;
        for (const auto& [id, c] : got)
            joined[id] = c.arguments;
        CHECK(joined == reference);
    };
    for (std::size_t cut = 1; cut < input.size(); ++cut)
        check({input.substr(0, cut), input.substr(cut)});
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < input.size(); ++i)
        bytes.push_back(input.substr(i, 1));
    check(bytes);
}

} // namespace

TEST_CASE("tarko: text-format calls at every split position", "[tarko]")
{
    SECTION("json call with a brace and a name inside a string argument")
    {
        check_text_at_every_split<json_calls>(
            R"(Sure. {"tool": {"function": "note", "parameters": {"text": "a}b \"name\": \"x\" é", "n": 1}}} done)", 1);
    }
    SECTION("xml write_file: the body is streamed as JSON string text")
    {
        check_text_at_every_split<xml>(
            "Hi <tool name=\"write_file\"><arguments><arg name=\"path\">a.py</arg><arg name=\"content\">"
            "__START_CONTENT__\nprint(\"é\")\n__END_CONTENT__</arg></arguments></tool> and <tool name=\"read\">"
            "<arguments><arg name=\"p\">x</arg></arguments></tool>",
            2);
    }
    SECTION("a call cut by the end of the stream gets no completion")
    {
        std::vector<tool_invocation> invocations;
        test::end_arguments ends;
        const auto lines = text_events<json_calls>({R"({"tool": {"function": "note", "parameters": {"text": "ab)"},
                                                   invocations, ends);
        REQUIRE(invocations.size() == 1);
        CHECK(invocations[0].status == invocation_status::incomplete);
        const auto calls = test::group_by_call(lines, "m1");
        test::check_against_invocations(calls, invocations, ends);
        CHECK(calls.begin()->second.completes == 0);
    }
}

TEST_CASE("tarko: exact lines, names, message ids and UTF-8 held whole", "[tarko]")
{
    std::vector<std::string> lines;
    tarko_event_sink sink{test::tarko_lines{&lines}};
    sink(response_started{"chatcmpl-1", "m"});
    boost::json::object meta{{"tool_name", "getWeather"}};
    segment_event start;
    start.segment_id = "call_1";
    start.segment_kind = segment_type::tool_call;
    start.metadata = &meta;
    sink(start);
    sink(argument_fragment{"call_1", segment_type::tool_call, "{\"city\":\"Z\xC3"});
    sink(argument_fragment{"call_1", segment_type::tool_call, "\xBCrich\"}"});
    segment_event end = start;
    end.type = segment_event_type::SEGMENT_END;
    sink(end);
    sink(argument_fragment{"call_1", segment_type::tool_call, "late"});   // after END: ignored
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == R"({"type":"assistant_streaming_tool_call","toolCallId":"call_1","toolName":"getWeather","arguments":"","isComplete":false,"messageId":"chatcmpl-1"})");
    CHECK(lines[1] == R"({"type":"assistant_streaming_tool_call","toolCallId":"call_1","toolName":"getWeather","arguments":"{\"city\":\"Z","isComplete":false,"messageId":"chatcmpl-1"})");
    CHECK(lines[2] == "{\"type\":\"assistant_streaming_tool_call\",\"toolCallId\":\"call_1\",\"toolName\":\"getWeather\",\"arguments\":\"\xC3\xBCrich\\\"}\",\"isComplete\":false,\"messageId\":\"chatcmpl-1\"}");
    CHECK(lines[3] == R"({"type":"assistant_streaming_tool_call","toolCallId":"call_1","toolName":"getWeather","arguments":"","isComplete":true,"messageId":"chatcmpl-1"})");

    SECTION("a name that comes late is first reported on the completion")
    {
        lines.clear();
        segment_event unnamed = start;
        unnamed.segment_id = "seg_2";
        unnamed.metadata = nullptr;
        sink(unnamed);
        segment_event named_end = end;
        named_end.segment_id = "seg_2";
        sink(named_end);
        REQUIRE(lines.size() == 2);
        CHECK(boost::json::parse(lines[0]).at("toolName").as_string() == "");
        CHECK(boost::json::parse(lines[1]).at("toolName").as_string() == "getWeather");
    }
    SECTION("a new response starts a new message; without an id one is generated")
    {
        sink(response_started{"", "m"});
        CHECK(sink.message_id().starts_with("msg_"));
        CHECK(sink.message_id().size() == 20);
        tarko_event_sink fixed{test::tarko_lines{&lines}, {.message_id = "turn-7"}};
        fixed(response_started{"chatcmpl-2", "m"});
        CHECK(fixed.message_id() == "turn-7");
    }
}

TEST_CASE("tarko: the README's pipeline prints the README's lines", "[tarko]")
{
    std::vector<std::string> lines;
    auto print = [&lines](std::string_view line) { lines.emplace_back(line); };
    using sink = tee_sink<recording_sink, tarko_event_sink<decltype(print)>>;
    pipeline<openai_chat, api_tool_call, sink> p{sink{{}, tarko_event_sink{print}}};
    (void)p.write(R"(data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"getWeather","arguments":"{\"city\":\"Z"}}]}}]})"
                  "\n\n"
                  R"(data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ürich\"}"}}]},"finish_reason":"tool_calls"}]})"
                  "\n\ndata: [DONE]\n\n");
    (void)p.finish();
    const std::vector<std::string> readme{
        R"({"type":"assistant_streaming_tool_call","toolCallId":"call_1","toolName":"getWeather","arguments":"","isComplete":false,"messageId":"chatcmpl-1"})",
        R"({"type":"assistant_streaming_tool_call","toolCallId":"call_1","toolName":"getWeather","arguments":"{\"city\":\"Z","isComplete":false,"messageId":"chatcmpl-1"})",
        R"({"type":"assistant_streaming_tool_call","toolCallId":"call_1","toolName":"getWeather","arguments":"ürich\"}","isComplete":false,"messageId":"chatcmpl-1"})",
        R"({"type":"assistant_streaming_tool_call","toolCallId":"call_1","toolName":"getWeather","arguments":"","isComplete":true,"messageId":"chatcmpl-1"})"};
    CHECK(lines == readme);
    CHECK(p.sink().first().invocations.size() == 1);
}

} // namespace test_tarko_events
