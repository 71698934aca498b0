// Every byte of output is valid UTF-8 JSON (issue 18 §3): split characters are held back by the
// segment writer, bytes that are not UTF-8 become U+FFFD in every JSON writer, at every chunking.
#include "catch_compat.hpp"
#include "support/valid_output.hpp"

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/runtime/runtime_pipeline.hpp>
#include <toolstream/runtime/runtime_policy.hpp>
#include <toolstream/stream_summary.hpp>
#include <toolstream/writers/openai_sse.hpp>
#include <toolstream/writers/tarko_events.hpp>

#include <boost/json/serialize.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace test_valid_utf8_output {

namespace ts = toolstream;
using ts::test::json_problem;

namespace {

// Everything a run writes as JSON: event lines, invocation lines, Agent TARS lines, the OpenAI
// SSE body; and the deltas, for the checks on whole characters.
struct all_writers {
    struct lines {
        std::string* out;
        void operator()(std::string_view line) const { out->append(line).append("\n"); }
    };
    struct bytes {
        std::string* out;
        void operator()(std::string_view b) const { out->append(b); }
    };

    std::string* events;
    std::string* tarko_lines;
    std::string* sse_body;
    std::vector<std::string>* deltas;
    ts::tarko_event_sink<lines> tarko{lines{tarko_lines}};
    ts::openai_sse_writer<bytes> sse{bytes{sse_body}};

    void operator()(const ts::segment_event& e)
    {
        events->append(ts::to_json_string(e)).append("\n");
        if (e.type == ts::segment_event_type::SEGMENT_CONTENT)
            deltas->emplace_back(e.delta);
        tarko(e);
        sse(e);
    }
    void operator()(const ts::argument_fragment& f)
    {
        tarko(f);
        sse(f);
    }
    void operator()(const ts::tool_invocation& inv)
    {
        events->append(boost::json::serialize(ts::to_json(inv))).append("\n");
    }
};

struct run_output {
    std::string events, tarko, sse, summary;
    std::vector<std::string> deltas;
    std::string text;   // text segments' deltas joined
};

run_output run_text(std::string_view parser, const std::vector<std::string_view>& pieces)
{
    run_output out;
    ts::handler<ts::runtime_policy, all_writers> h(
        all_writers{&out.events, &out.tarko, &out.sse, &out.deltas}, {}, ts::make_policy(parser).value());
    for (auto piece : pieces)
        (void)h.feed(piece);
    (void)h.finalize();
    h.sink().sse.done();
    ts::stream_summary s;
    s.choices.emplace_back();
    s.choices.back().tool_calls = h.invocations();
    out.summary = boost::json::serialize(ts::to_json(s, "text", "text"));
    return out;
}

std::vector<std::string_view> pieces_of(std::string_view s, std::size_t size)
{
    std::vector<std::string_view> out;
    for (std::size_t at = 0; at < s.size(); at += size)
        out.push_back(s.substr(at, size));
    return out;
}

void check_all_valid(const run_output& r)
{
    CHECK(ts::test::json_lines_problem(r.events) == "");
    CHECK(ts::test::json_lines_problem(r.tarko) == "");
    CHECK(ts::test::sse_body_problem(r.sse) == "");
    CHECK(json_problem(r.summary) == "");
}

} // namespace

TEST_CASE("U+FFFD replaces each maximal invalid subpart", "[utf8][output]")
{
    auto fixed = [](std::string_view s) {
        std::string out;
        ts::detail::append_valid_utf8(out, s);
        return out;
    };
    const std::string r = "\xEF\xBF\xBD";
    CHECK(fixed("a\xE2\x82\xAC" "b") == "a\xE2\x82\xAC" "b");   // valid: unchanged
    CHECK(fixed("a\xFF" "b") == "a" + r + "b");
    CHECK(fixed("\x80") == r);                               // a lone continuation byte
    CHECK(fixed("\xE2\x82") == r);                           // a truncated character: one
    CHECK(fixed("\xE2\x82" "A") == r + "A");
    CHECK(fixed("\xC0\xAF") == r + r);                       // overlong: C0 is never a lead
    CHECK(fixed("\xED\xA0\x80") == r + r + r);               // an encoded surrogate
    CHECK(fixed("\xF0\x9F\x98") == r);                       // 3 of 4 bytes
    CHECK(fixed("\xF4\x90\x80\x80") == r + r + r + r);       // above U+10FFFF
    std::string escaped;
    ts::detail::append_json_string_valid(escaped, "\"q\"\n\xFF");
    CHECK(escaped == "\"\\\"q\\\"\\n" + r + "\"");
}

TEST_CASE("to_json of an event writes U+FFFD for bytes that are not UTF-8", "[utf8][output]")
{
    boost::json::object metadata{{"path", "a\xFF.txt"}};
    ts::segment_event e;
    e.type = ts::segment_event_type::SEGMENT_CONTENT;
    e.segment_id = "seg_1";
    e.delta = "x\x80y";
    CHECK(ts::to_json_string(e) == R"({"type":"SEGMENT_CONTENT","segment_id":"seg_1","payload":{"delta":"x)"
                                       "\xEF\xBF\xBD" R"(y"}})");
    e.type = ts::segment_event_type::SEGMENT_END;
    e.segment_kind = ts::segment_type::write_file;
    e.metadata = &metadata;
    e.status = ts::segment_status::invalid_arguments;
    e.error = "bad \xC3";
    const std::string line = ts::to_json_string(e);
    CHECK(json_problem(line) == "");
    CHECK(line.find("a\xEF\xBF\xBD.txt") != std::string::npos);
    CHECK(line.find("bad \xEF\xBF\xBD") != std::string::npos);
}

TEST_CASE("a character split between pieces is never split between deltas", "[utf8][output]")
{
    // Two-, three- and four-byte characters in text, in a file body and in call arguments.
    const std::string text = "h\xC3\xA9 10\xE2\x82\xAC \xF0\x9F\x98\x80!\n<tool_call>\n<function=write_file>\n"
                             "<parameter=path>\xC3\xA4.txt</parameter>\n<parameter=content>\xE2\x82\xAC\xF0\x9F\x98\x80"
                             "</parameter>\n</function>\n</tool_call>\nend \xE2\x82\xAC";
    const auto whole = run_text("qwen3_coder", {text});
    check_all_valid(whole);
    REQUIRE(whole.summary.find("\xE2\x82\xAC\xF0\x9F\x98\x80") != std::string::npos);
    auto check_run = [&](const run_output& r) {
        check_all_valid(r);
        for (const auto& d : r.deltas)
            CHECK(ts::detail::is_valid_utf8(d));
        CHECK(r.events.find("\xEF\xBF\xBD") == std::string::npos);   // nothing replaced: all was valid
        CHECK(r.summary == whole.summary);
    };
    SECTION("every split position")
    {
        for (std::size_t at = 1; at < text.size(); ++at) {
            CAPTURE(at);
            check_run(run_text("qwen3_coder", {std::string_view(text).substr(0, at), std::string_view(text).substr(at)}));
        }
    }
    SECTION("1, 2, 3 and 5 byte pieces")
    {
        for (std::size_t size : {1, 2, 3, 5}) {
            CAPTURE(size);
            check_run(run_text("qwen3_coder", pieces_of(text, size)));
        }
    }
    SECTION("every policy at 1-byte pieces")
    {
        for (auto name : ts::policy_names) {
            CAPTURE(name);
            const auto r = run_text(name, pieces_of(text, 1));
            check_all_valid(r);
            for (const auto& d : r.deltas)
                CHECK(ts::detail::is_valid_utf8(d));
        }
    }
}

TEST_CASE("random bytes through every text policy give valid JSON output", "[utf8][output]")
{
    std::mt19937 rng(18);
    std::string noise(24 * 1024, '\0');
    for (char& c : noise)
        c = static_cast<char>(rng());
    // Markup among the noise, so that segments open and close around invalid bytes.
    const std::string text = noise.substr(0, 8000) + "<tool_call>{\"name\":\"f\",\"arguments\":{\"a\":\"\xFF\"}}</tool_call>"
                           + noise.substr(8000, 8000) + "<tool name=\"write_file\"><arguments><arg name=\"path\">p</arg>"
                           + "<arg name=\"content\">__START_CONTENT__\xE2\x82" + noise.substr(16000);
    for (auto name : ts::policy_names) {
        for (std::size_t size : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, text.size()}) {
            CAPTURE(name, size);
            const auto r = run_text(name, pieces_of(text, size));
            check_all_valid(r);
        }
    }
}

TEST_CASE("provider pipelines write valid JSON at every chunking", "[utf8][output]")
{
    // An SSE stream whose JSON escapes nothing invalid, then text with a split character.
    const std::string stream =
        "data: {\"id\":\"c\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a \\u20ac <tool_call>{\\\"name\\\":\\\"f\\\",\"}}]}\n\n"
        "data: {\"id\":\"c\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\\"arguments\\\":{\\\"x\\\":\\\"\\u00e9\\\"}}</tool_call>\"},\"finish_reason\":\"stop\"}]}\n\n"
        "data: [DONE]\n\n";
    for (std::size_t size : {std::size_t{1}, std::size_t{3}, stream.size()}) {
        CAPTURE(size);
        std::string events, tarko, sse;
        std::vector<std::string> deltas;
        auto made = ts::runtime_pipeline<all_writers>::create("openai_chat", "hermes", all_writers{&events, &tarko, &sse, &deltas});
        REQUIRE(made);
        auto& p = **made;
        for (auto piece : pieces_of(stream, size))
            (void)p.write(piece);
        CHECK(!p.finish());
        p.sink().sse.done();
        CHECK(ts::test::json_lines_problem(events) == "");
        CHECK(ts::test::json_lines_problem(tarko) == "");
        CHECK(ts::test::sse_body_problem(sse) == "");
        CHECK(json_problem(boost::json::serialize(ts::to_json(p.summary(), "openai_chat", "sse"))) == "");
        CHECK(sse.find("\"finish_reason\":\"tool_calls\"") != std::string::npos);
    }
}

} // namespace test_valid_utf8_output
