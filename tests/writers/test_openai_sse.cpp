// openai_sse_writer: the exact SSE for each kind of output, and what a client reads back.
#include <toolstream/concepts.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/writers/openai_sse.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "writers/openai_sse_reader.hpp"
#include "writers/writer_support.hpp"

#include <string>

namespace test_openai_sse {

using namespace toolstream;
using test::chunk_of;
using test::string_output;
using test::string_sse_writer;

static_assert(byte_output<string_output>);
static_assert(event_sink<string_sse_writer>);
static_assert(std::invocable<string_sse_writer&, const argument_fragment&>);
static_assert(std::invocable<string_sse_writer&, const response_started&>);
static_assert(std::invocable<string_sse_writer&, const choice_finished&>);
static_assert(std::invocable<string_sse_writer&, const usage_reported&>);
static_assert(std::invocable<string_sse_writer&, const provider_failed&>);
static_assert(!std::invocable<string_sse_writer&, const tool_invocation&>);
static_assert(event_sink<openai_completion_builder>);

namespace {

segment_event start_of(std::string_view id, segment_type kind, const boost::json::object* metadata)
{
    segment_event e;
    e.type = segment_event_type::SEGMENT_START;
    e.segment_id = id;
    e.segment_kind = kind;
    e.metadata = metadata;
    return e;
}

segment_event end_of(std::string_view id, segment_type kind, const boost::json::object* metadata)
{
    auto e = start_of(id, kind, metadata);
    e.type = segment_event_type::SEGMENT_END;
    return e;
}

constexpr std::string_view done = "data: [DONE]\n\n";

} // namespace

TEST_CASE("openai sse: text, with the role on the first delta, the finish and [DONE]", "[openai-sse]")
{
    const std::string sse = test::text_to_sse("api_tool_call", {"Hello", " \"world\"\n"});
    CHECK(sse == chunk_of(R"("role":"assistant","content":"Hello")") + chunk_of(R"("content":" \"world\"\n")")
                     + chunk_of("", "\"stop\"") + std::string(done));
}

TEST_CASE("openai sse: reasoning goes in reasoning_content, then content", "[openai-sse]")
{
    handler<api_tool_call, string_sse_writer> h(string_sse_writer{string_output{}, test::fixed_identity()});
    chunk_response c;
    c.reasoning = "Think.";
    (void)h.feed(c);
    c.clear();
    c.content = "Answer";
    (void)h.feed(c);
    (void)h.finalize();
    h.sink()(choice_finished{0, "stop", finish_kind::stop});
    h.sink().done();
    CHECK(h.sink().output().bytes == chunk_of(R"("role":"assistant","reasoning_content":"Think.")")
                                         + chunk_of(R"("content":"Answer")") + chunk_of("", "\"stop\"")
                                         + std::string(done));
}

TEST_CASE("openai sse: native calls stream the provider's fragments verbatim, with index per call",
          "[openai-sse]")
{
    handler<api_tool_call, string_sse_writer> h(string_sse_writer{string_output{}, test::fixed_identity()});
    auto feed = [&](std::size_t index, std::string id, std::string name, std::string args, bool complete) {
        chunk_response c;
        c.tool_calls.push_back({index, std::move(id), std::move(name), std::move(args), complete});
        (void)h.feed(c);
    };
    feed(0, "call_a", "get_weather", "", false);
    feed(0, "", "", R"({"ci)", false);
    feed(1, "call_b", "get_time", R"({"tz":)", false);
    feed(0, "", "", R"(ty":"Paris"})", true);
    feed(1, "", "", R"("UTC"})", true);
    (void)h.finalize();
    h.sink()(choice_finished{0, "tool_calls", finish_kind::tool_calls});
    h.sink()(usage_reported{{10, 5}});
    h.sink().done();
    CHECK(h.sink().output().bytes
          == chunk_of(R"("role":"assistant","tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}])")
              + chunk_of(R"("tool_calls":[{"index":0,"function":{"arguments":"{\"ci"}}])")
              + chunk_of(R"("tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"get_time","arguments":""}}])")
              + chunk_of(R"("tool_calls":[{"index":1,"function":{"arguments":"{\"tz\":"}}])")
              + chunk_of(R"("tool_calls":[{"index":0,"function":{"arguments":"ty\":\"Paris\"}"}}])")
              + chunk_of(R"("tool_calls":[{"index":1,"function":{"arguments":"\"UTC\"}"}}])")
              + chunk_of("", "\"tool_calls\"")
              + test::chunk_prefix
              + R"("choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}})" "\n\n"
              + std::string(done));
}

TEST_CASE("openai sse: a write_file from the xml policy is a function call whose arguments are its fragments",
          "[openai-sse]")
{
    const std::string text = "Saving. <tool name=\"write_file\"><arguments><arg name=\"path\">a.py</arg>"
                             "<arg name=\"content\">__START_CONTENT__\nprint(\"hi\")\n__END_CONTENT__</arg>"
                             "</arguments></tool>";
    CHECK(test::text_to_sse("xml", {text})
          == chunk_of(R"("role":"assistant","content":"Saving. ")")
              + chunk_of(R"("tool_calls":[{"index":0,"id":"seg_2","type":"function","function":{"name":"write_file","arguments":""}}])")
              + chunk_of(R"("tool_calls":[{"index":0,"function":{"arguments":"{\"path\":\"a.py\",\"content\":\"print(\\\"hi\\\")\\n"}}])")
              + chunk_of(R"("tool_calls":[{"index":0,"function":{"arguments":"\"}"}}])")
              + chunk_of("", "\"tool_calls\"") + std::string(done));
    // What a client assembles is the same at every split.
    for (const auto& pieces : test::chunkings(text, 4)) {
        const auto read = test::read_openai_sse(test::text_to_sse("xml", pieces));
        INFO(read.violations.size());
        REQUIRE(read.violations.empty());
        const auto calls = read.calls_of(0);
        REQUIRE(calls.size() == 1);
        CHECK(calls[0].name == "write_file");
        CHECK(boost::json::parse(calls[0].arguments)
              == boost::json::parse(R"({"path":"a.py","content":"print(\"hi\")\n"})"));
        CHECK(read.choices.at(0).content == "Saving. ");
        CHECK(read.choices.at(0).finish_reason == "tool_calls");
    }
}

TEST_CASE("openai sse: a call named only at its END is held, then written whole with its name", "[openai-sse]")
{
    const boost::json::object none;
    const boost::json::object named{{"tool_name", "lookup"}};
    auto run = [&](std::size_t max_held, bool name_at_end) {
        auto options = test::fixed_identity();
        options.max_held_call_bytes = max_held;
        string_sse_writer w{string_output{}, options};
        w(start_of("seg_1", segment_type::tool_call, &none));
        w(argument_fragment{"seg_1", segment_type::tool_call, R"({"q":)", 0});
        w(argument_fragment{"seg_1", segment_type::tool_call, R"("x"})", 0});
        w(end_of("seg_1", segment_type::tool_call, name_at_end ? &named : &none));
        w(start_of("seg_2", segment_type::tool_call, &named));
        w(end_of("seg_2", segment_type::tool_call, &named));
        w(choice_finished{0, {}, finish_kind::tool_calls});
        w.done();
        return std::move(w.output().bytes);
    };
    SECTION("held: one delta with the name and every fragment")
    {
        CHECK(run(1024, true)
              == chunk_of(R"("role":"assistant","tool_calls":[{"index":0,"id":"seg_1","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"x\"}"}}])")
                  + chunk_of(R"("tool_calls":[{"index":1,"id":"seg_2","type":"function","function":{"name":"lookup","arguments":""}}])")
                  + chunk_of("", "\"tool_calls\"") + std::string(done));
    }
    SECTION("past the bound: written without a name, which follows once at END")
    {
        const std::string sse = run(3, true);
        CHECK(sse
              == chunk_of(R"("role":"assistant","tool_calls":[{"index":0,"id":"seg_1","type":"function","function":{"arguments":"{\"q\":"}}])")
                  + chunk_of(R"("tool_calls":[{"index":0,"function":{"arguments":"\"x\"}"}}])")
                  + chunk_of(R"("tool_calls":[{"index":0,"function":{"name":"lookup","arguments":""}}])")
                  + chunk_of(R"("tool_calls":[{"index":1,"id":"seg_2","type":"function","function":{"name":"lookup","arguments":""}}])")
                  + chunk_of("", "\"tool_calls\"") + std::string(done));
        // A client that concatenates names (openai-python) gets it right: the name comes once.
        const auto read = test::read_openai_sse(sse);
        CHECK(read.violations.empty());
        CHECK(read.calls_of(0)[0].name == "lookup");
        CHECK(read.calls_of(0)[0].name_deltas == 1);
    }
    SECTION("never named: not written, and the next call takes index 0")
    {
        CHECK(run(1024, false)
              == chunk_of(R"("role":"assistant","tool_calls":[{"index":0,"id":"seg_2","type":"function","function":{"name":"lookup","arguments":""}}])")
                  + chunk_of("", "\"tool_calls\"") + std::string(done));
    }
}

TEST_CASE("openai sse: n > 1 choices keep their indexes, roles and finishes", "[openai-sse]")
{
    auto line = [](int index, std::string_view delta, std::string_view finish = "null") {
        return R"(data: {"id":"chatcmpl-9","model":"gpt-x","choices":[{"index":)" + std::to_string(index)
            + R"(,"delta":)" + std::string(delta) + R"(,"finish_reason":)" + std::string(finish) + "}]}\n\n";
    };
    const std::string upstream = line(0, R"({"role":"assistant","content":"A"})") + line(1, R"({"role":"assistant","content":"B"})")
        + line(1, R"({"content":"b"})") + line(0, R"({"content":"a"})") + line(0, "{}", "\"stop\"")
        + line(1, "{}", "\"length\"") + "data: [DONE]\n\n";
    const auto out = test::provider_to_openai("openai_chat", "api_tool_call", upstream, 3);
    const auto read = test::read_openai_sse(out.sse.output().bytes);
    CHECK(read.violations.empty());
    REQUIRE(read.choices.size() == 2);
    CHECK(read.choices.at(0).content == "Aa");
    CHECK(read.choices.at(1).content == "Bb");
    CHECK(read.choices.at(0).finish_reason.has_value());
    CHECK(read.choices.at(1).finish_reason.has_value());
    CHECK(out.sse.output().bytes.find(R"("choices":[{"index":1,"delta":{"role":"assistant","content":"B"})")
          != std::string::npos);
}

TEST_CASE("openai sse: the provider's id and model, else a generated chatcmpl- id", "[openai-sse]")
{
    string_sse_writer given{string_output{}};
    given(response_started{"resp_1", "gpt-x"});
    given(choice_finished{0, {}, finish_kind::stop});
    CHECK(given.id() == "resp_1");
    CHECK(given.model() == "gpt-x");
    CHECK(given.created() > 1'600'000'000);

    string_sse_writer made{string_output{}};
    made(response_started{});
    made(choice_finished{0, {}, finish_kind::length});
    made.done();
    CHECK(made.id().rfind("chatcmpl-", 0) == 0);
    CHECK(made.id().size() == 9 + 24);
    const auto read = test::read_openai_sse(made.output().bytes);
    CHECK(read.violations.empty());
    CHECK(read.id == made.id());
    CHECK(read.choices.at(0).finish_reason == "length");
    CHECK(read.choices.at(0).role_seen);   // a choice with no output still says who it is
}

TEST_CASE("openai sse: each finish kind, and an error finish is an error", "[openai-sse]")
{
    for (auto [kind, name] : {std::pair{finish_kind::stop, "stop"}, {finish_kind::tool_calls, "tool_calls"},
                              {finish_kind::length, "length"}, {finish_kind::content_filter, "content_filter"}}) {
        string_sse_writer w{string_output{}, test::fixed_identity()};
        w(choice_finished{0, {}, kind});
        w(choice_finished{0, {}, finish_kind::stop});   // one finish per choice
        CHECK(w.output().bytes == chunk_of(R"("role":"assistant")", "\"" + std::string(name) + "\""));
    }
    string_sse_writer w{string_output{}, test::fixed_identity()};
    w(choice_finished{0, "error", finish_kind::error});
    w.done();
    CHECK(w.failed());
    CHECK(w.output().bytes
          == R"(data: {"error":{"message":"the provider ended the response with an error","type":"server_error","param":null,"code":null}})" "\n\n");
}

TEST_CASE("openai sse: a provider error is written where it happened, and the stream ends there", "[openai-sse]")
{
    const std::string upstream =
        R"(data: {"id":"c","model":"m","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]})" "\n\n"
        R"(data: {"error":{"message":"The server had an error","type":"server_error"}})" "\n\n";
    for (std::size_t chunk : {0, 1, 7}) {
        auto out = test::provider_to_openai("openai_chat", "api_tool_call", upstream, chunk);
        out.sse.done();
        const std::string& sse = out.sse.output().bytes;
        const std::string tail =
            R"(data: {"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}})" "\n\n";
        REQUIRE(sse.size() > tail.size());
        CHECK(sse.substr(sse.size() - tail.size()) == tail);
        CHECK(sse.find("[DONE]") == std::string::npos);
        const auto read = test::read_openai_sse(sse);
        CHECK(read.violations.empty());
        CHECK(read.choices.at(0).content == "Hi");
        REQUIRE(read.error);
        CHECK(out.completion.failed());
        CHECK(out.completion.error_body().at("error").at("message") == "The server had an error");
    }
}

TEST_CASE("openai sse: tool progress and results as choices:[] chunks, or as comments", "[openai-sse]")
{
    const boost::json::value data{{"current", 2}, {"total", 3}};
    auto run = [&](extension_encoding encoding) {
        auto options = test::fixed_identity();
        options.extensions = encoding;
        string_sse_writer w{string_output{}, options};
        w.progress({"web_search", "call_1", tool_phase::step, "searching", nullptr, 0});
        w.progress({"web_search", "call_1", tool_phase::progress, "2/3: Found 10 results", &data, 1677858242500});
        w.progress({"web_search", "", tool_phase::error, "quota", nullptr, 0});
        w.progress({"web_search", "call_1", tool_phase::complete, "done", nullptr, 0});
        w.result({"call_1", "web_search", "65\xC2\xB0" "F, \"cloudy\"\n", false});
        w.result({"call_2", "", "failed", true});
        w(choice_finished{0, {}, finish_kind::stop});
        w.done();
        w.progress({"late", "", tool_phase::step, "", nullptr, 0});   // after done(): nothing
        return std::move(w.output().bytes);
    };
    const std::string members[] = {
        R"("tool_progress":{"tool":"web_search","tool_call_id":"call_1","phase":"step","message":"searching"})",
        R"("tool_progress":{"tool":"web_search","tool_call_id":"call_1","phase":"progress","message":"2/3: Found 10 results","data":{"current":2,"total":3},"timestamp":1677858242500})",
        R"("tool_progress":{"tool":"web_search","phase":"error","message":"quota"})",
        R"("tool_progress":{"tool":"web_search","tool_call_id":"call_1","phase":"complete","message":"done"})",
        "\"tool_result\":{\"tool_call_id\":\"call_1\",\"name\":\"web_search\",\"content\":\"65\xC2\xB0" "F, \\\"cloudy\\\"\\n\"}",
        R"("tool_result":{"tool_call_id":"call_2","content":"failed","is_error":true})"};
    SECTION("chunks")
    {
        std::string expected;
        for (const auto& m : members)
            expected += test::chunk_prefix + R"("choices":[],)" + m + "}\n\n";
        CHECK(run(extension_encoding::chunk) == expected + chunk_of(R"("role":"assistant")", "\"stop\"") + std::string(done));
    }
    SECTION("comments")
    {
        std::string expected;
        for (const auto& m : members) {
            const auto colon = m.find("\":");
            expected += ": " + m.substr(1, colon - 1) + " " + m.substr(colon + 2) + "\n\n";
        }
        CHECK(run(extension_encoding::comment) == expected + chunk_of(R"("role":"assistant")", "\"stop\"") + std::string(done));
    }
    for (auto encoding : {extension_encoding::chunk, extension_encoding::comment}) {
        const auto read = test::read_openai_sse(run(encoding));
        CHECK(read.violations.empty());
        REQUIRE(read.progress.size() == 4);
        REQUIRE(read.results.size() == 2);
        CHECK(read.progress[1].at("data").at("total") == 3);
        CHECK(read.results[0].at("content") == "65\xC2\xB0" "F, \"cloudy\"\n");
        CHECK(read.choices.at(0).content.empty());   // never glued into the assistant's text
    }
}

TEST_CASE("openai sse: comments, and nothing after done()", "[openai-sse]")
{
    string_sse_writer w{string_output{}, test::fixed_identity()};
    w.comment("keep-alive\nnext");
    w.done();
    w.done();
    w(choice_finished{0, {}, finish_kind::stop});
    CHECK(w.closed());
    CHECK(!w.failed());
    // done() finishes the choice nothing finished: the stream is complete even with no content.
    CHECK(w.output().bytes == ": keep-alive next\n\n" + test::chunk_prefix
                                  + R"("choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":"stop"}]})" "\n\n"
                                  + std::string(done));
}

} // namespace test_openai_sse
