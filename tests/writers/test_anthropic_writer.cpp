// anthropic_sse_writer and anthropic_message_builder: the exact SSE, what a client assembles at
// any chunking of the model's text, valid UTF-8, large calls, and blocks that never interleave.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/parse/policies/reasoning_parsers.hpp>
#include <toolstream/writers/anthropic_message_builder.hpp>
#include <toolstream/writers/anthropic_messages.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "writers/anthropic_sse_reader.hpp"
#include "writers/anthropic_writer_support.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <vector>

namespace test_anthropic_writer {

using namespace toolstream;
using test::anthropic_writer;
using test::recording_output;
using test::whole_segment;

static_assert(event_sink<anthropic_writer>);
static_assert(event_sink<anthropic_message_builder>);
static_assert(std::invocable<anthropic_writer&, const argument_fragment&>);
static_assert(std::invocable<anthropic_writer&, const response_started&>);
static_assert(std::invocable<anthropic_writer&, const choice_finished&>);
static_assert(std::invocable<anthropic_writer&, const usage_reported&>);
static_assert(std::invocable<anthropic_writer&, const provider_failed&>);
static_assert(!std::invocable<anthropic_writer&, const tool_invocation&>);

namespace {

const boost::json::object weather{{"tool_name", "get_weather"}};

/// Reads `sse` back, failing the test on every broken invariant.
test::anthropic_read read_clean(const std::string& sse)
{
    auto read = test::read_anthropic_sse(sse);
    INFO(sse.substr(0, 3000));
    for (const auto& v : read.violations)
        FAIL_CHECK(v);
    return read;
}

/// Model text through a handler with policy `Policy`, fed in `pieces`, into both writers.
template<class Policy>
test::anthropic_both text_through(const std::vector<std::string_view>& pieces)
{
    handler<Policy, test::anthropic_both> h;
    for (auto piece : pieces)
        (void)test::with_exact_copy(piece, [&](std::string_view p) { return h.feed(p); });
    (void)h.finalize();
    h.sink().done();
    return std::move(h.sink());
}

/// Checks that every chunking of `text` assembles to the same message, from the stream and
/// from the builder alike; returns it.
template<class Policy>
boost::json::object same_at_every_split(std::string_view text)
{
    auto whole = text_through<Policy>({text});
    const auto reference = read_clean(whole.sse.output().bytes).message;
    CHECK(whole.builder.message() == reference);
    for (const auto& pieces : test::chunkings(text, 8)) {
        auto out = text_through<Policy>(pieces);
        const auto read = test::read_anthropic_sse(out.sse.output().bytes);
        REQUIRE(read.violations.empty());
        REQUIRE(read.message == reference);
        REQUIRE(out.builder.message() == reference);
    }
    return reference;
}

} // namespace

TEST_CASE("anthropic sse: thinking, text and a call, byte for byte", "[anthropic-sse]")
{
    test::anthropic_both w;
    w(response_started{"resp_1", "upstream-model"});   // the options' id and model win
    whole_segment(w, "seg_1", segment_type::reasoning, {"Think."});
    whole_segment(w, "seg_2", segment_type::text, {"Hi \"you\"\n"});
    whole_segment(w, "call_1", segment_type::tool_call, {R"({"city":)", R"("Paris"})"}, &weather);
    w(choice_finished{0, "tool_calls", finish_kind::tool_calls});
    w(usage_reported{{10, 5}});
    w.done();
    CHECK(w.sse.output().bytes == R"(event: message_start
data: {"type":"message_start","message":{"id":"msg_t","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Think."}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"toolstream-unsigned"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi \"you\"\n"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: content_block_start
data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"call_1","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"city\":"}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"\"Paris\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":2}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"input_tokens":10,"output_tokens":5}}

event: message_stop
data: {"type":"message_stop"}

)");
    CHECK(w.sse.closed());
    CHECK(!w.sse.failed());
    CHECK(w.sse.id() == "msg_t");
    const auto expected = boost::json::parse(R"({"id":"msg_t","type":"message","role":"assistant","model":"m",
        "content":[{"type":"thinking","thinking":"Think.","signature":"toolstream-unsigned"},
                   {"type":"text","text":"Hi \"you\"\n"},
                   {"type":"tool_use","id":"call_1","name":"get_weather","input":{"city":"Paris"}}],
        "stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":5}})");
    CHECK(w.builder.message() == expected);
    CHECK(read_clean(w.sse.output().bytes).message == expected);
}

TEST_CASE("anthropic sse: the provider's id and model, else a generated msg_ id; no empty blocks", "[anthropic-sse]")
{
    anthropic_writer given{recording_output{}};
    given(response_started{"resp_1", "gpt-x"});
    whole_segment(given, "seg_1", segment_type::text, {});   // no character: no block
    given.done();
    CHECK(given.id() == "resp_1");
    CHECK(given.model() == "gpt-x");
    auto read = read_clean(given.output().bytes);
    CHECK(read.content().empty());
    CHECK(read.stop_reason() == "end_turn");
    CHECK(read.message.at("usage") == boost::json::parse(R"({"input_tokens":0,"output_tokens":0})"));

    anthropic_writer made{recording_output{}};
    whole_segment(made, "seg_1", segment_type::text, {"x"});   // a handler: no response_started
    made.done();
    made.done();
    CHECK(made.id().rfind("msg_", 0) == 0);
    CHECK(made.id().size() == 4 + 24);
    CHECK(made.id().find_first_not_of("0123456789abcdef", 4) == std::string::npos);
    read = read_clean(made.output().bytes);
    CHECK(read.message.at("id") == made.id().c_str());
    CHECK(read.joined("text") == "x");
}

TEST_CASE("anthropic sse: each finish kind is its stop_reason; without one, tool_use after a call", "[anthropic-sse]")
{
    for (auto [kind, name] : {std::pair{finish_kind::stop, "end_turn"}, {finish_kind::tool_calls, "tool_use"},
                              {finish_kind::length, "max_tokens"}, {finish_kind::content_filter, "refusal"}}) {
        test::anthropic_both w;
        whole_segment(w, "seg_1", segment_type::text, {"a"});
        w(choice_finished{0, {}, kind});
        w(choice_finished{0, {}, finish_kind::stop});   // the first finish stands
        w(choice_finished{1, {}, finish_kind::error});  // another choice: ignored
        w.done();
        CHECK(read_clean(w.sse.output().bytes).stop_reason() == name);
        CHECK(w.builder.message().at("stop_reason") == name);
    }
    test::anthropic_both w;
    whole_segment(w, "call_1", segment_type::tool_call, {"{}"}, &weather);
    w.done();
    CHECK(read_clean(w.sse.output().bytes).stop_reason() == "tool_use");
}

TEST_CASE("anthropic sse: text and calls from model text assemble the same at every split", "[anthropic-sse]")
{
    const std::string hermes_text =
        "<think>Caf\xC3\xA9 first, \xF0\x9F\x98\x80</think>Let me check. <tool_call>{\"name\": \"get_weather\", "
        "\"arguments\": {\"city\": \"Z\xC3\xBCrich \\\"old\\\"\"}}</tool_call> Done \xE2\x9C\x93";
    const auto from_hermes = same_at_every_split<reasoning_policy<hermes, qwen3_reasoning>>(hermes_text);
    const auto& content = from_hermes.at("content").as_array();
    REQUIRE(content.size() == 4);
    CHECK(content[0] == boost::json::parse(R"({"type":"thinking","thinking":"Caf\u00e9 first, \ud83d\ude00","signature":"toolstream-unsigned"})"));
    CHECK(content[1] == boost::json::parse(R"({"type":"text","text":"Let me check. "})"));
    CHECK(content[2].at("name") == "get_weather");
    CHECK(content[2].at("input") == boost::json::parse(R"({"city":"Z\u00fcrich \"old\""})"));
    CHECK(content[3] == boost::json::parse(R"({"type":"text","text":" Done \u2713"})"));
    CHECK(from_hermes.at("stop_reason") == "tool_use");

    const std::string xml_text =
        "Caf\xC3\xA9 first. <tool name=\"read_file\"><arguments><arg name=\"path\">x.txt</arg></arguments></tool>"
        " then <write_file path=\"n\xC3\xB8te.md\">\xE2\x82\xAC 5 \"q\"\n</write_file> end";
    const auto xml_message = same_at_every_split<xml>(xml_text);
    const auto& blocks = xml_message.at("content").as_array();
    REQUIRE(blocks.size() == 5);   // text, call, text, file, text: a text reopens after each call
    CHECK(blocks[1].at("input") == boost::json::parse(R"({"path":"x.txt"})"));
    CHECK(blocks[3].at("name") == "write_file");
    CHECK(blocks[3].at("input") == boost::json::parse(R"({"path":"n\u00f8te.md","content":"\u20ac 5 \"q\"\n"})"));
    CHECK(blocks[4].at("text") == " end");
}

TEST_CASE("anthropic sse: UTF-8 split between deltas, and bytes that are not UTF-8", "[anthropic-sse]")
{
    test::anthropic_both w;
    whole_segment(w, "seg_1", segment_type::reasoning, {"\xF0\x9F", "\x98\x80 r\xC3"});   // ends cut: U+FFFD
    whole_segment(w, "seg_2", segment_type::text, {"a\xC3", "\xA9 \xFF b \xE2\x82", "\xAC", " \xED\xA0\x80!"});
    whole_segment(w, "call_1", segment_type::tool_call, {"{\"q\":\"\xE2", "\x9C\x93\xC0\"}"}, &weather);
    w.done();
    const std::string& sse = w.sse.output().bytes;
    CHECK(detail::is_valid_utf8(sse));
    const auto read = read_clean(sse);   // every event's JSON parsed strictly, UTF-8 included
    CHECK(read.joined("thinking") == "\xF0\x9F\x98\x80 r\xEF\xBF\xBD");
    CHECK(read.joined("text") == "a\xC3\xA9 \xEF\xBF\xBD b \xE2\x82\xAC \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD!");
    CHECK(read.content().at(2).at("input") == boost::json::parse("{\"q\":\"\xE2\x9C\x93\xEF\xBF\xBD\"}"));
    // A character split between deltas is written whole, in one delta.
    CHECK(sse.find("\"text_delta\",\"text\":\"\xC3\xA9\"") != std::string::npos);
    CHECK(sse.find("\"text_delta\",\"text\":\"\xE2\x82\xAC\"") != std::string::npos);
    CHECK(w.builder.message() == read.message);
}

TEST_CASE("anthropic sse: one block at a time; what comes meanwhile waits for the open call", "[anthropic-sse]")
{
    const boost::json::object other{{"tool_name", "get_time"}};
    auto run = [&](std::size_t max_held) {
        anthropic_writer w{recording_output{}, test::fixed_message(max_held)};
        w(test::event_of(segment_event_type::SEGMENT_START, "call_a", segment_type::tool_call, &weather));
        w(argument_fragment{"call_a", segment_type::tool_call, R"({"city":)", 0});
        w(test::event_of(segment_event_type::SEGMENT_START, "call_b", segment_type::tool_call, &other));
        w(argument_fragment{"call_b", segment_type::tool_call, R"({"tz":"UTC"})", 0});
        w(argument_fragment{"call_a", segment_type::tool_call, R"("Paris"})", 0});
        w(test::event_of(segment_event_type::SEGMENT_START, "seg_1", segment_type::text));
        w(test::event_of(segment_event_type::SEGMENT_CONTENT, "seg_1", segment_type::text, nullptr, "and "));
        w(test::event_of(segment_event_type::SEGMENT_CONTENT, "seg_1", segment_type::text, nullptr, "text"));
        w(test::event_of(segment_event_type::SEGMENT_END, "seg_1", segment_type::text));
        w(test::event_of(segment_event_type::SEGMENT_END, "call_a", segment_type::tool_call, &weather));
        w(test::event_of(segment_event_type::SEGMENT_END, "call_b", segment_type::tool_call, &other));
        w(choice_finished{0, {}, finish_kind::tool_calls});
        w.done();
        return std::move(w.output().bytes);
    };
    const auto read = read_clean(run(4096));
    REQUIRE(read.content().size() == 3);
    CHECK(read.content()[0].at("input") == boost::json::parse(R"({"city":"Paris"})"));
    CHECK(read.content()[1].at("id") == "call_b");
    CHECK(read.content()[1].at("input") == boost::json::parse(R"({"tz":"UTC"})"));
    CHECK(read.content()[2].at("text") == "and text");
    CHECK(read.stop_reason() == "tool_use");
    // Past the bound: an error saying why, never interleaved blocks.
    const auto bounded = read_clean(run(80));
    REQUIRE(bounded.error);
    CHECK(bounded.error->find("while tool call 'get_weather' (id call_a) was open") != std::string::npos);
    CHECK(!bounded.message_stopped);
}

TEST_CASE("anthropic sse: a call named only at its END is held, then written with its name", "[anthropic-sse]")
{
    const boost::json::object none;
    auto run = [&](std::size_t max_held, const boost::json::object& at_end) {
        anthropic_writer w{recording_output{}, test::fixed_message(max_held)};
        w(test::event_of(segment_event_type::SEGMENT_START, "call_1", segment_type::tool_call, &none));
        w(argument_fragment{"call_1", segment_type::tool_call, R"({"q":)", 0});
        w(argument_fragment{"call_1", segment_type::tool_call, R"("x"})", 0});
        w(test::event_of(segment_event_type::SEGMENT_END, "call_1", segment_type::tool_call, &at_end));
        w.done();
        return read_clean(w.output().bytes);
    };
    const auto held = run(1024, weather);
    REQUIRE(held.content().size() == 1);
    CHECK(held.content()[0].at("name") == "get_weather");
    CHECK(held.json_texts[0] == R"({"q":"x"})");
    CHECK(held.stop_reason() == "tool_use");
    const auto past = run(3, weather);
    REQUIRE(past.error);
    CHECK(past.error->find("bytes of arguments before its name") != std::string::npos);
    CHECK(past.content().empty());
    const auto never = run(1024, none);
    REQUIRE(never.error);
    CHECK(*never.error == "tool call (id call_1) ended without a name: an Anthropic tool_use block needs one");
}

TEST_CASE("anthropic sse: a free-form call's text is the input member", "[anthropic-sse]")
{
    const boost::json::object custom{{"tool_name", "code_exec"}, {"free_form", true}};
    test::anthropic_both w;
    whole_segment(w, "call_1", segment_type::tool_call, {"print(\"", "h\xC3", "\xA9\")\n"}, &custom);
    w.done();
    const auto read = read_clean(w.sse.output().bytes);
    REQUIRE(read.content().size() == 1);
    CHECK(read.content()[0].at("input") == boost::json::parse(R"({"input":"print(\"h\u00e9\")\n"})"));
    CHECK(w.builder.message() == read.message);
}

TEST_CASE("anthropic sse: a 16 MiB and a 64 KiB file stream through, never held whole", "[anthropic-sse][large]")
{
    for (std::size_t size : {std::size_t{64} << 10, std::size_t{16} << 20}) {
        std::string body;
        for (std::size_t i = 0; body.size() < size; ++i)
            body += "line " + std::to_string(i) + " \xC3\xA9\t\"quoted\" \\ back\n";
        const std::string text = "Saving. <write_file path=\"big.txt\">" + body + "</write_file>";
        constexpr std::size_t piece = 4096;
        handler<xml, anthropic_writer> h(anthropic_writer{recording_output{}, test::fixed_message()});
        for (std::size_t at = 0; at < text.size(); at += piece)
            (void)h.feed(std::string_view(text).substr(at, piece));
        (void)h.finalize();
        h.sink().done();
        const auto& out = h.sink().output();
        INFO("file of " << size << " bytes: " << out.bytes.size() << " written in " << out.writes
                        << " writes, the largest " << out.largest);
        CHECK(out.largest < 4 * piece);                        // a delta at a time, escaped
        CHECK(out.bytes.size() < text.size() * 2 + 4096);      // proportional to the input (escapes twice over)
        const auto read = read_clean(out.bytes);
        REQUIRE(read.content().size() == 2);
        CHECK(read.content()[0].at("text") == "Saving. ");
        CHECK(read.content()[1].at("input").at("path") == "big.txt");
        CHECK(read.content()[1].at("input").at("content").as_string() == body);
        CHECK(read.stop_reason() == "tool_use");
    }
}

TEST_CASE("anthropic sse: comments may come anywhere, and nothing comes after the end", "[anthropic-sse]")
{
    anthropic_writer w{recording_output{}, test::fixed_message()};
    w.comment("keep-alive\nnext");
    CHECK(w.output().bytes == ": keep-alive next\n\n");
    whole_segment(w, "seg_1", segment_type::text, {"x"});
    w.done();
    const std::size_t size = w.output().bytes.size();
    whole_segment(w, "seg_2", segment_type::text, {"late"});
    w.comment("late");
    w(provider_failed{"late"});
    w.done();
    CHECK(w.output().bytes.size() == size);
    CHECK(w.closed());
    CHECK(!w.failed());
    CHECK(read_clean(w.output().bytes).joined("text") == "x");
}

} // namespace test_anthropic_writer
