// Nothing fails silently (issue 18 §4): a stream of the wrong dialect, binary or empty ends with
// an error naming the provider; incomplete calls say why; Responses custom tools are complete
// free-form calls; the OpenAI SSE writer finishes every choice whatever feeds it.
#include "catch_compat.hpp"
#include "support/fixtures.hpp"
#include "support/valid_output.hpp"

#include <toolstream/handler/handler.hpp>
#include <toolstream/runtime/runtime_pipeline.hpp>
#include <toolstream/runtime/runtime_policy.hpp>
#include <toolstream/tools/arguments.hpp>
#include <toolstream/writers/openai_sse.hpp>
#include <toolstream/writers/tarko_events.hpp>

#include <boost/describe/class.hpp>

#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace test_no_silent_failure {

namespace ts = toolstream;

namespace {

struct run_result {
    ts::error_code finish;
    ts::stream_summary summary;
    std::vector<ts::tool_invocation> invocations;
};

run_result run(std::string_view provider, std::string_view bytes, std::size_t piece = 0)
{
    auto made = ts::runtime_pipeline<ts::recording_sink>::create(provider, "api_tool_call");
    REQUIRE(made);
    auto& p = **made;
    if (piece == 0)
        piece = bytes.size() + 1;
    for (std::size_t at = 0; at < bytes.size(); at += piece)
        (void)p.write(bytes.substr(at, piece));
    run_result r;
    r.finish = p.finish();
    r.summary = p.summary();
    r.invocations = p.sink().invocations;
    return r;
}

// Dialects that share a shape read each other's streams: no mismatch to find there.
bool same_shape(std::string_view a, std::string_view b)
{
    auto chat = [](std::string_view p) { return p == "openai_chat" || p == "mistral"; };
    return a == b || (chat(a) && chat(b));
}

struct sse_text {
    std::string* out;
    void operator()(std::string_view b) const { out->append(b); }
};

std::size_t count_of(std::string_view hay, std::string_view needle)
{
    std::size_t n = 0;
    for (std::size_t at = hay.find(needle); at != std::string_view::npos; at = hay.find(needle, at + 1))
        ++n;
    return n;
}

struct city_args {
    std::string city;
};
BOOST_DESCRIBE_STRUCT(city_args, (), (city))

} // namespace

TEST_CASE("a fixture read as another provider's stream is an error naming that provider", "[mismatch]")
{
    const auto fixtures = ts::test::load_fixtures();
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: skipped");
        return;
    }
    std::size_t mismatches = 0;
    for (const auto& f : fixtures) {
        const std::string bytes = ts::test::read_file(f.stream_path);
        const std::string own = ts::test::provider_of(f);
        for (auto provider : ts::provider_names) {
            for (std::size_t piece : {std::size_t{0}, std::size_t{13}}) {
                CAPTURE(f.name, provider, piece);
                const auto r = run(provider, bytes, piece);
                if (same_shape(provider, own)) {
                    CHECK(r.finish != ts::error::provider_mismatch);
                    CHECK(r.finish != ts::error::empty_stream);
                    continue;
                }
                // Never a silent success: the wrong dialect is an error, unless the stream is an
                // error response whose `{"error":…}` every dialect reads (then that error shows).
                REQUIRE(r.summary.error.has_value());
                if (f.expected.at("error").is_null()) {
                    CHECK(r.finish == ts::error::provider_mismatch);
                    CHECK(r.summary.error->find(std::string(provider)) != std::string::npos);
                    ++mismatches;
                }
            }
        }
    }
    CHECK(mismatches > 100);
}

TEST_CASE("binary bytes and plain text are not any provider's stream", "[mismatch]")
{
    std::mt19937 rng(4);
    std::string binary(1 << 16, '\0');
    for (char& c : binary)
        c = static_cast<char>(rng());
    for (auto provider : ts::provider_names) {
        for (const std::string& bytes : {binary, std::string("Hello, this is text.\nNo stream here.\n")}) {
            for (std::size_t piece : {std::size_t{0}, std::size_t{1}, std::size_t{1000}}) {
                if (piece == 1 && bytes.size() > 100)
                    continue;
                CAPTURE(provider, piece);
                const auto r = run(provider, bytes, piece);
                CHECK(r.finish == ts::error::provider_mismatch);
                REQUIRE(r.summary.error.has_value());
                CHECK(r.summary.error->find(std::string(provider)) != std::string::npos);
                CHECK(r.summary.choices.at(0).tool_calls.empty());
            }
        }
    }
}

TEST_CASE("an empty provider stream is not an empty answer", "[mismatch][empty]")
{
    for (auto provider : ts::provider_names) {
        CAPTURE(provider);
        for (std::string_view bytes : {std::string_view(), std::string_view(" \n\r\n\t\n")}) {
            const auto r = run(provider, bytes, 1);
            CHECK(r.finish == ts::error::empty_stream);
            REQUIRE(r.summary.error.has_value());
            CHECK(r.summary.error->find(std::string(provider)) != std::string::npos);
        }
    }
    // A valid empty answer has the dialect's events: it ends normally.
    const auto chat = run("openai_chat",
                          "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"
                          "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                          "data: [DONE]\n\n");
    CHECK(!chat.finish);
    CHECK(!chat.summary.error);
    CHECK(chat.summary.choices.at(0).finish_reason == "stop");
    const auto ollama = run("ollama", R"({"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"})" "\n");
    CHECK(!ollama.finish);
    CHECK(!ollama.summary.error);
    // Plain text: empty input is an empty answer (text has no framing to be missing).
    ts::handler<ts::runtime_policy, ts::recording_sink> h({}, {}, ts::make_policy("xml").value());
    CHECK(!h.finalize());
    CHECK(h.sink().events.empty());
}

TEST_CASE("the OpenAI SSE writer of a mismatched stream writes an error, not a finish", "[mismatch][openai_sse]")
{
    std::string body;
    auto made = ts::runtime_pipeline<ts::openai_sse_writer<sse_text>>::create(
        "gemini", "api_tool_call", ts::openai_sse_writer<sse_text>(sse_text{&body}));
    REQUIRE(made);
    (void)(*made)->write("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\n");
    CHECK((*made)->finish() == ts::error::provider_mismatch);
    (*made)->sink().done();
    CHECK(body.find("\"error\"") != std::string::npos);
    CHECK(body.find("finish_reason\":\"") == std::string::npos);
    CHECK(ts::test::sse_body_problem(body) == "");
}

TEST_CASE("every incomplete native call carries its reason", "[incomplete]")
{
    const std::string cut =
        "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\","
        "\"function\":{\"name\":\"weather\",\"arguments\":\"{\\\"city\\\":\"}}]}}]}\n\n";
    for (std::size_t piece : {std::size_t{0}, std::size_t{1}, std::size_t{7}}) {
        CAPTURE(piece);
        const auto r = run("openai_chat", cut, piece);
        REQUIRE(r.invocations.size() == 1);
        const auto& inv = r.invocations[0];
        CHECK(inv.status == ts::invocation_status::incomplete);
        CHECK(inv.error == "stream ended before the tool call was complete");
        const auto args = ts::arguments_as<city_args>(inv);
        REQUIRE(!args);
        CHECK(args.error().message == "the call is incomplete: stream ended before the tool call was complete");
        CHECK(args.error().code == ts::error::incomplete_call);
        const auto line = boost::json::serialize(ts::to_json(inv));
        CHECK(line.find("\"error\":\"stream ended before the tool call was complete\"") != std::string::npos);
    }
    // Whatever policy ends a tool segment incomplete, its END says why.
    for (auto name : ts::policy_names) {
        CAPTURE(name);
        ts::handler<ts::runtime_policy, ts::recording_sink> h({}, {}, ts::make_policy(name).value());
        (void)h.feed("<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1");
        (void)h.feed("<tool name=\"f\"><arguments><arg name=\"a\">1");
        (void)h.finalize();
        for (const auto& e : h.sink().events)
            if (e.type == ts::segment_event_type::SEGMENT_END && e.status != ts::segment_status::complete)
                CHECK(!e.error.empty());
        for (const auto& inv : h.invocations())
            if (!inv.is_complete())
                CHECK(!inv.error.empty());
    }
}

TEST_CASE("an OpenAI Responses custom tool is a complete free-form call", "[openai_responses][custom_tool]")
{
    const auto dir = ts::test::fixtures_dir();
    if (!dir) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: skipped");
        return;
    }
    const std::string bytes = ts::test::read_file(*dir / "openai_responses" / "custom-tool.sse");
    const std::string input = "SELECT * FROM users WHERE age > 25";
    for (std::size_t piece : {std::size_t{0}, std::size_t{1}, std::size_t{17}}) {
        CAPTURE(piece);
        const auto r = run("openai_responses", bytes, piece);
        CHECK(!r.finish);
        REQUIRE(r.invocations.size() == 1);
        const auto& inv = r.invocations[0];
        CHECK(inv.status == ts::invocation_status::complete);
        CHECK(inv.free_form);
        CHECK(inv.error.empty());
        CHECK(inv.arguments_raw == input);
        CHECK(inv.name == "write_sql");
        CHECK(inv.id == "call_custom_sql_001");
        // The summary keeps the fixture's shape: arguments null (no JSON), the input raw.
        const auto summary = ts::to_json(r.summary, "openai_responses", "sse");
        const auto& call = summary.at("choices").at(0).at("tool_calls").at(0);
        CHECK(call.at("arguments").is_null());
        CHECK(call.at("arguments_raw") == input.c_str());

        // OpenAI SSE: a function call whose arguments text is the input; finish tool_calls.
        std::string body;
        auto sse = ts::runtime_pipeline<ts::openai_sse_writer<sse_text>>::create(
            "openai_responses", "api_tool_call", ts::openai_sse_writer<sse_text>(sse_text{&body}));
        REQUIRE(sse);
        (void)(*sse)->write(bytes);
        (void)(*sse)->finish();
        (*sse)->sink().done();
        CHECK(ts::test::sse_body_problem(body) == "");
        CHECK(body.find("\"finish_reason\":\"tool_calls\"") != std::string::npos);
        CHECK(body.find("\"arguments\":\"SELECT * \"") != std::string::npos);
        CHECK(body.find("\"arguments\":\"WHERE age > 25\"") != std::string::npos);

        // Agent TARS: the call's last event is complete.
        std::vector<std::string> lines;
        auto tarko = ts::tarko_event_sink([&lines](std::string_view l) { lines.emplace_back(l); });
        auto made = ts::runtime_pipeline<decltype(tarko)>::create("openai_responses", "api_tool_call", std::move(tarko));
        REQUIRE(made);
        (void)(*made)->write(bytes);
        (void)(*made)->finish();
        REQUIRE(!lines.empty());
        CHECK(lines.back().find("\"isComplete\":true") != std::string::npos);
    }
}

TEST_CASE("the OpenAI SSE writer fed by a handler finishes every choice", "[openai_sse][handler]")
{
    for (std::string_view text : {std::string_view("Just text \xE2\x82\xAC."),
                                  std::string_view("Call: <tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n</tool_call>"),
                                  std::string_view()}) {
        CAPTURE(text);
        std::string body;
        ts::handler<ts::runtime_policy, ts::openai_sse_writer<sse_text>> h(
            ts::openai_sse_writer<sse_text>(sse_text{&body}), {}, ts::make_policy("hermes").value());
        for (std::size_t at = 0; at < text.size(); at += 3)
            (void)h.feed(text.substr(at, 3));
        (void)h.finalize();
        h.sink().done();
        CHECK(ts::test::sse_body_problem(body) == "");
        CHECK(count_of(body, "\"finish_reason\":\"") == 1);
        const bool call = text.find("tool_call") != std::string_view::npos;
        CHECK(body.find(call ? "\"finish_reason\":\"tool_calls\"" : "\"finish_reason\":\"stop\"") != std::string::npos);
        CHECK(body.substr(body.size() - 14) == "data: [DONE]\n\n");
    }
    // A pipeline's own finish is not repeated.
    std::string body;
    auto made = ts::runtime_pipeline<ts::openai_sse_writer<sse_text>>::create(
        "openai_chat", "api_tool_call", ts::openai_sse_writer<sse_text>(sse_text{&body}));
    REQUIRE(made);
    (void)(*made)->write("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"length\"}]}\n\n");
    (void)(*made)->finish();
    (*made)->sink().done();
    CHECK(count_of(body, "\"finish_reason\":\"") == 1);
    CHECK(body.find("\"finish_reason\":\"length\"") != std::string::npos);
}

} // namespace test_no_silent_failure
