// How the Anthropic writers end a message the model did not finish cleanly: a call cut by the
// length limit ends max_tokens, left unstopped as Anthropic leaves it; a broken call, an error
// finish or a provider error is an error event naming it, with nothing after. Never a clean
// stop that did not happen.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/writers/anthropic_message_builder.hpp>
#include <toolstream/writers/anthropic_messages.hpp>

#include "catch_compat.hpp"
#include "writers/anthropic_sse_reader.hpp"
#include "writers/anthropic_writer_support.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_anthropic_terminal_states {

using namespace toolstream;
using test::whole_segment;

namespace {

const boost::json::object write_file_call{{"tool_name", "write_file"}};

/// The SSE ends with exactly one error event holding `message`, after no message_delta, and
/// the builder failed with the same message.
void check_ends_in_error(test::anthropic_both& w, std::string_view message)
{
    const std::string& sse = w.sse.output().bytes;
    INFO(sse.substr(0, 3000));
    const auto read = test::read_anthropic_sse(sse);
    for (const auto& v : read.violations)
        FAIL_CHECK(v);
    REQUIRE(read.error);
    CHECK(*read.error == message);
    CHECK(!read.message_stopped);
    CHECK(sse.find("message_delta") == std::string::npos);
    std::string tail = R"(event: error
data: {"type":"error","error":{"type":"api_error","message":)";
    detail::append_json_string_valid(tail, message);
    tail += "}}\n\n";
    REQUIRE(sse.size() >= tail.size());
    CHECK(sse.substr(sse.size() - tail.size()) == tail);
    CHECK(w.sse.failed());
    CHECK(w.sse.closed());
    CHECK(w.builder.failed());
    CHECK(w.builder.error_message() == message);
    CHECK(w.builder.error_body()
          == boost::json::object{{"type", "error"}, {"error", {{"type", "api_error"}, {"message", message}}}});
}

/// `upstream` through a pipeline of `Provider` into both writers, whole and in 1- and 7-byte pieces.
template<class Provider, class Check>
void for_each_chunking(const std::string& upstream, Check&& check)
{
    for (const std::size_t size : {upstream.size(), std::size_t{1}, std::size_t{7}}) {
        INFO("pieces of " << size);
        pipeline<Provider, api_tool_call, test::anthropic_both> p;
        for (std::size_t at = 0; at < upstream.size(); at += size)
            (void)p.write(std::string_view(upstream).substr(at, size));
        (void)p.finish();
        p.sink().done();
        check(p.sink());
    }
}

std::string chat_chunk(std::string_view delta, std::string_view finish = "null")
{
    return R"(data: {"id":"c","model":"m","choices":[{"index":0,"delta":)" + std::string(delta)
           + R"(,"finish_reason":)" + std::string(finish) + "}]}\n\n";
}

} // namespace

TEST_CASE("anthropic terminal states: a call cut with a length finish ends max_tokens, its block unstopped",
          "[anthropic-sse][finish]")
{
    test::anthropic_both w;
    whole_segment(w, "seg_1", segment_type::text, {"Saving."});
    whole_segment(w, "call_1", segment_type::write_file, {R"({"path":"a.txt","content":"hel)"}, &write_file_call,
                  segment_status::incomplete, "the stream ended inside the call");
    w(choice_finished{0, {}, finish_kind::length});
    w(usage_reported{{7, 100}});
    w.done();
    const auto read = test::read_anthropic_sse(w.sse.output().bytes);
    CHECK(read.violations.empty());
    CHECK(!read.error);
    CHECK(read.stop_reason() == "max_tokens");
    REQUIRE(read.content().size() == 2);
    CHECK(read.stopped == std::vector<bool>{true, false});   // as Anthropic's own stream: no stop
    CHECK(read.json_texts[1] == R"({"path":"a.txt","content":"hel)");
    CHECK(read.content()[1].at("input") == boost::json::parse(R"({"path":"a.txt","content":"hel"})"));
    CHECK(read.message.at("usage") == boost::json::parse(R"({"input_tokens":7,"output_tokens":100})"));
    CHECK(w.builder.message() == read.message);

    // A Chat Completions call cut by finish_reason "length" (its arguments end invalid).
    const std::string upstream =
        chat_chunk(R"({"role":"assistant","tool_calls":[{"index":0,"id":"call_9","type":"function","function":{"name":"f","arguments":"{\"a\": [1, "}}]})")
        + chat_chunk("{}", R"("length")") + "data: [DONE]\n\n";
    for_each_chunking<openai_chat>(upstream, [](test::anthropic_both& out) {
        const auto r = test::read_anthropic_sse(out.sse.output().bytes);
        CHECK(r.violations.empty());
        CHECK(!r.error);
        CHECK(r.stop_reason() == "max_tokens");
        REQUIRE(r.content().size() == 1);
        CHECK(r.content()[0].at("id") == "call_9");
        CHECK(r.json_texts[0] == R"({"a": [1, )");
        CHECK(r.stopped[0] == false);
        CHECK(out.builder.message() == r.message);
    });
}

TEST_CASE("anthropic terminal states: a call with invalid arguments is an error naming it", "[anthropic-sse][finish]")
{
    const boost::json::object f{{"tool_name", "f"}};
    test::anthropic_both w;
    whole_segment(w, "seg_1", segment_type::text, {"Hi"});
    whole_segment(w, "call_1", segment_type::tool_call, {"5"}, &f, segment_status::invalid_arguments,
                  "the arguments are not a JSON object");
    w(choice_finished{0, {}, finish_kind::tool_calls});
    w(usage_reported{{1, 2}});
    w.done();
    check_ends_in_error(w, "tool call 'f' (id call_1) has invalid arguments: the arguments are not a JSON object");
    CHECK(test::read_anthropic_sse(w.sse.output().bytes).joined("text") == "Hi");

    // From model text, with text after it: the error comes at once, the text never.
    handler<hermes, test::anthropic_both> h;
    (void)h.feed(R"(Hi <tool_call>{"name": "f", "arguments": 5}</tool_call> and more)");
    (void)h.finalize();
    h.sink().done();
    const auto read = test::read_anthropic_sse(h.sink().sse.output().bytes);
    CHECK(read.violations.empty());
    REQUIRE(read.error);
    CHECK(read.error->rfind("tool call 'f' (id seg_2) has invalid arguments", 0) == 0);
    CHECK(read.joined("text") == "Hi ");
    CHECK(h.sink().builder.failed());
}

TEST_CASE("anthropic terminal states: an incomplete call without a length finish is an error", "[anthropic-sse][finish]")
{
    handler<hermes, test::anthropic_both> h;
    (void)h.feed(R"(Writing <tool_call>{"name": "write_file", "arguments": {"path": "a.py", "content": "x = )");
    (void)h.finalize();   // a handler knows no finish: nothing says the output was cut
    h.sink().done();
    const auto read = test::read_anthropic_sse(h.sink().sse.output().bytes);
    CHECK(read.violations.empty());
    REQUIRE(read.error);
    CHECK(read.error->rfind("tool call 'write_file' (id seg_2) is incomplete, and the response did not stop at its "
                            "length limit",
                            0)
          == 0);
    CHECK(!read.message_stopped);
    CHECK(h.sink().builder.failed());

    // The same call with a stop finish.
    test::anthropic_both w;
    whole_segment(w, "call_1", segment_type::write_file, {R"({"path":"a)"}, &write_file_call,
                  segment_status::incomplete, "cut");
    w(choice_finished{0, "stop", finish_kind::stop});
    check_ends_in_error(w, "tool call 'write_file' (id call_1) is incomplete, and the response did not stop at its "
                           "length limit: cut");
}

TEST_CASE("anthropic terminal states: a provider error is written where it happened, nothing after", "[anthropic-sse][finish]")
{
    test::anthropic_both w;
    whole_segment(w, "seg_1", segment_type::text, {"Hi"});
    w(provider_failed{"Overloaded \"now\""});
    whole_segment(w, "seg_2", segment_type::text, {"late"});
    w(choice_finished{0, {}, finish_kind::stop});
    w.done();
    check_ends_in_error(w, "Overloaded \"now\"");

    const std::string upstream =
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_up\",\"type\":\"message\","
        "\"role\":\"assistant\",\"model\":\"claude-x\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,"
        "\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n"
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n"
        "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    for_each_chunking<anthropic>(upstream, [](test::anthropic_both& out) {
        check_ends_in_error(out, "Overloaded");
        const auto read = test::read_anthropic_sse(out.sse.output().bytes);
        CHECK(read.joined("text") == "Hi");
        CHECK(read.message.at("id") == "msg_t");
    });
}

TEST_CASE("anthropic terminal states: an unknown or aborted finish is an error naming it", "[anthropic-sse][finish]")
{
    test::anthropic_both w;
    whole_segment(w, "seg_1", segment_type::text, {"Hi"});
    w(choice_finished{0, "abort", finish_kind::error});
    w.done();
    check_ends_in_error(w, "the provider ended the response with an error (finish reason 'abort')");

    const std::string upstream = chat_chunk(R"({"content":"Hi"})") + chat_chunk("{}", R"("abort")") + "data: [DONE]\n\n";
    for_each_chunking<openai_chat>(upstream, [](test::anthropic_both& out) {
        check_ends_in_error(out, "the provider ended the response with an error (finish reason 'abort')");
    });
}

} // namespace test_anthropic_terminal_states
