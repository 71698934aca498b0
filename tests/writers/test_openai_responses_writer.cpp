// openai_responses_writer and openai_response_builder: the exact stream, what a client assembles
// at every split of the input, honest terminal states, held calls, large calls, UTF-8 split or
// broken. The recorded streams: test_openai_responses_fixtures.cpp.
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/providers/openai_responses.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "writers/responses_sse_reader.hpp"

#include <optional>
#include <string>
#include <vector>

namespace test_openai_responses_writer {

using namespace toolstream;
using test::call_delta, test::chat, test::responses_output, test::responses_run, test::run_responses;
using writer = test::responses_writer;
using seg = segment_event_type;

static_assert(event_sink<writer> && event_sink<openai_response_builder>);
static_assert(std::invocable<writer&, const argument_fragment&> && std::invocable<writer&, const choice_finished&>);

namespace {

openai_responses_options fixed() { return test::fixed_response_identity(); }

/// Model text through a handler with `Policy`, fed in `pieces`, written as a Responses stream.
template<class Policy, class Pieces>
responses_output text_to_responses(const Pieces& pieces)
{
    handler<Policy, writer> h(writer{responses_output{}, fixed()});
    for (auto piece : pieces)
        (void)test::with_exact_copy(piece, [&](std::string_view p) { return h.feed(p); });
    (void)h.finalize();
    h.sink().done();
    return std::move(h.sink().output());
}

segment_event event(seg type, std::string_view id, segment_type kind, const boost::json::object* metadata = nullptr,
                    std::string_view delta = {})
{
    return {type, id, kind, delta, metadata, segment_status::complete, {}, nullptr, {}, 0};
}

} // namespace

TEST_CASE("openai responses: the exact stream of reasoning, text and a call, completed", "[openai-responses]")
{
    const std::string upstream = chat(R"({"reasoning_content":"Think."})") + chat(R"({"content":"Hi \"you\""})")
                                 + chat(call_delta(R"({"a":)", true)) + chat(call_delta("1}", false), R"("tool_calls")")
                                 + R"(data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4}})" "\n\n";
    auto r = run_responses<openai_chat>(upstream);
    const std::string expected = R"sse(event: response.created
data: {"type":"response.created","response":{"id":"resp_t","object":"response","created_at":1,"status":"in_progress","error":null,"incomplete_details":null,"model":"m","output":[],"usage":null},"sequence_number":0}

event: response.in_progress
data: {"type":"response.in_progress","response":{"id":"resp_t","object":"response","created_at":1,"status":"in_progress","error":null,"incomplete_details":null,"model":"m","output":[],"usage":null},"sequence_number":1}

event: response.output_item.added
data: {"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs_t_0","status":"in_progress","summary":[],"content":[]},"sequence_number":2}

event: response.content_part.added
data: {"type":"response.content_part.added","item_id":"rs_t_0","output_index":0,"content_index":0,"part":{"type":"reasoning_text","text":""},"sequence_number":3}

event: response.reasoning_text.delta
data: {"type":"response.reasoning_text.delta","item_id":"rs_t_0","output_index":0,"content_index":0,"delta":"Think.","sequence_number":4}

event: response.reasoning_text.done
data: {"type":"response.reasoning_text.done","item_id":"rs_t_0","output_index":0,"content_index":0,"text":"Think.","sequence_number":5}

event: response.content_part.done
data: {"type":"response.content_part.done","item_id":"rs_t_0","output_index":0,"content_index":0,"part":{"type":"reasoning_text","text":"Think."},"sequence_number":6}

event: response.output_item.done
data: {"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","id":"rs_t_0","status":"completed","summary":[],"content":[{"type":"reasoning_text","text":"Think."}]},"sequence_number":7}

event: response.output_item.added
data: {"type":"response.output_item.added","output_index":1,"item":{"type":"message","id":"msg_t_1","status":"in_progress","role":"assistant","content":[]},"sequence_number":8}

event: response.content_part.added
data: {"type":"response.content_part.added","item_id":"msg_t_1","output_index":1,"content_index":0,"part":{"type":"output_text","text":"","annotations":[],"logprobs":[]},"sequence_number":9}

event: response.output_text.delta
data: {"type":"response.output_text.delta","item_id":"msg_t_1","output_index":1,"content_index":0,"delta":"Hi \"you\"","logprobs":[],"sequence_number":10}

event: response.output_text.done
data: {"type":"response.output_text.done","item_id":"msg_t_1","output_index":1,"content_index":0,"text":"Hi \"you\"","logprobs":[],"sequence_number":11}

event: response.content_part.done
data: {"type":"response.content_part.done","item_id":"msg_t_1","output_index":1,"content_index":0,"part":{"type":"output_text","text":"Hi \"you\"","annotations":[],"logprobs":[]},"sequence_number":12}

event: response.output_item.done
data: {"type":"response.output_item.done","output_index":1,"item":{"type":"message","id":"msg_t_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Hi \"you\"","annotations":[],"logprobs":[]}]},"sequence_number":13}

event: response.output_item.added
data: {"type":"response.output_item.added","output_index":2,"item":{"type":"function_call","id":"fc_t_2","call_id":"call_1","name":"get_weather","arguments":"","status":"in_progress"},"sequence_number":14}

event: response.function_call_arguments.delta
data: {"type":"response.function_call_arguments.delta","item_id":"fc_t_2","output_index":2,"delta":"{\"a\":","sequence_number":15}

event: response.function_call_arguments.delta
data: {"type":"response.function_call_arguments.delta","item_id":"fc_t_2","output_index":2,"delta":"1}","sequence_number":16}

event: response.function_call_arguments.done
data: {"type":"response.function_call_arguments.done","item_id":"fc_t_2","output_index":2,"arguments":"{\"a\":1}","sequence_number":17}

event: response.output_item.done
data: {"type":"response.output_item.done","output_index":2,"item":{"type":"function_call","id":"fc_t_2","call_id":"call_1","name":"get_weather","arguments":"{\"a\":1}","status":"completed"},"sequence_number":18}

event: response.completed
data: {"type":"response.completed","response":{"id":"resp_t","object":"response","created_at":1,"status":"completed","error":null,"incomplete_details":null,"model":"m","output":[{"type":"reasoning","id":"rs_t_0","status":"completed","summary":[],"content":[{"type":"reasoning_text","text":"Think."}]},{"type":"message","id":"msg_t_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Hi \"you\"","annotations":[],"logprobs":[]}]},{"type":"function_call","id":"fc_t_2","call_id":"call_1","name":"get_weather","arguments":"{\"a\":1}","status":"completed"}],"usage":{"input_tokens":3,"output_tokens":4,"total_tokens":7}},"sequence_number":19}

)sse";
    CHECK(r.sink.w.output().bytes == expected);
    const auto read = test::read_responses_sse(r.sink.w.output().bytes);
    CHECK(read.violations.empty());   // sequence_number among them: 0, 1, 2… with no gap
    CHECK(read.types.size() == 20);
    CHECK((r.sink.w.closed() && !r.sink.w.failed()));
    CHECK(boost::json::value(r.sink.builder.response()) == read.response);
}

TEST_CASE("openai responses: what a client assembles is the same at every split of the input", "[openai-responses]")
{
    using policy = reasoning_policy<xml, deepseek_r1_reasoning>;
    const std::string text =
        "<think>Plan \xE2\x9C\x93</think>Caf\xC3\xA9 \xF0\x9F\x98\x80 first. <tool name=\"get\"><arguments>"
        "<arg name=\"q\">x y</arg></arguments></tool> then <write_file path=\"n\xC3\xB8te.md\">\xE2\x82\xAC 5 \"q\"\n"
        "</write_file> end \xE2\x9C\x93";
    auto assemble = [](const std::string& sse) {
        const auto read = test::read_responses_sse(sse);
        for (const auto& v : read.violations)
            FAIL_CHECK(v);
        return read.lines();
    };
    const auto whole = assemble(text_to_responses<policy>(std::vector<std::string_view>{text}).bytes);
    CHECK(whole
          == std::vector<std::string>{
              "reasoning   completed Plan \xE2\x9C\x93", "message   completed Caf\xC3\xA9 \xF0\x9F\x98\x80 first. ",
              R"(function_call get seg_3 completed {"q":"x y"})", "message   completed  then ",
              "function_call write_file seg_5 completed "
              "{\"path\":\"n\xC3\xB8te.md\",\"content\":\"\xE2\x82\xAC 5 \\\"q\\\"\\n\"}",
              "message   completed  end \xE2\x9C\x93", "response.completed"});
    for (const auto& pieces : test::chunkings(text, 8))
        REQUIRE(assemble(text_to_responses<policy>(pieces).bytes) == whole);
}

TEST_CASE("openai responses: honest terminal states, never a completed response the model did not finish",
          "[openai-responses][finish]")
{
    struct outcome {
        std::string upstream;
        std::string_view terminal, says;   // `says`: the incomplete reason, or within the error
        std::vector<std::string_view> statuses;
    };
    const std::string done = "data: [DONE]\n\n";
    const outcome outcomes[] = {
        {chat(R"({"content":"Hi"})") + chat(call_delta(R"({"city":"Par)", true), R"("length")") + done,
         "response.incomplete", "max_output_tokens", {"completed", "incomplete"}},
        {chat(call_delta(R"({"city":)", true)) + chat(call_delta("}", false), R"("tool_calls")") + done,
         "response.failed", "tool call 'get_weather' (call id 'call_1') is broken", {"incomplete"}},
        {chat(R"({"content":"Hi"})") + R"(data: {"error":{"message":"boom","type":"server_error"}})" "\n\n"
             + chat(R"({"content":" more"})", R"("stop")") + done,
         "response.failed", "boom", {"incomplete"}},
        {chat(R"({"content":"Hi"})") + chat("{}", R"("abort")") + done, "response.failed", "(finish reason 'abort')",
         {"incomplete"}},
    };
    for (const auto& o : outcomes)
        for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{5}}) {
            INFO(o.upstream << "in pieces of " << chunk);
            auto r = run_responses<openai_chat>(o.upstream, chunk);
            const auto read = test::read_responses_sse(r.sink.w.output().bytes);
            CHECK(read.violations.empty());   // among them: no event after the terminal one
            CHECK(read.terminal == o.terminal);
            CHECK(r.sink.w.failed() == (o.terminal == "response.failed"));
            if (o.terminal == "response.incomplete")
                CHECK(read.response.at("incomplete_details").at("reason").as_string() == o.says);
            else
                CHECK(read.error().find(o.says) != std::string::npos);
            std::vector<std::string_view> statuses;
            for (const auto& item : read.items)
                statuses.push_back(item.done.at("status").as_string());
            CHECK(statuses == o.statuses);
            CHECK(read.count("response.function_call_arguments.done") == 0);   // no call is done whole
            CHECK(boost::json::value(r.sink.builder.response()) == read.response);
            if (r.sink.builder.failed())
                CHECK(r.sink.builder.error_body().at("error").at("message").as_string() == read.error());
            const std::string before = r.sink.w.output().bytes;
            r.sink.w(provider_failed{"again"});
            r.sink.w.done();
            CHECK(r.sink.w.output().bytes == before);
        }
    // A call cut off where no finish says why (a handler knows none) fails the response too.
    const std::vector<std::string_view> cut{"Hi <tool name=\"get\"><arguments><arg name=\"q\">x"};
    const auto read = test::read_responses_sse(text_to_responses<xml>(cut).bytes);
    CHECK(read.violations.empty());
    CHECK(read.terminal == "response.failed");
    CHECK(read.error().find("tool call 'get' (call id 'seg_2') is incomplete") != std::string::npos);
}

TEST_CASE("openai responses: calls held for their name, queued behind another, or never named", "[openai-responses]")
{
    const boost::json::object none, named{{"tool_name", "lookup"}}, custom{{"tool_name", "sql"}, {"free_form", true}};
    auto run_events = [&](std::size_t max_held, const boost::json::object& end_metadata) {
        writer w{responses_output{}, {"resp_t", "m", 1, max_held}};
        w(event(seg::SEGMENT_START, "seg_1", segment_type::tool_call, &none));
        w(argument_fragment{"seg_1", segment_type::tool_call, R"({"q":)", 0});
        w(event(seg::SEGMENT_START, "seg_2", segment_type::tool_call, &custom));
        w(argument_fragment{"seg_2", segment_type::tool_call, "SELECT \"1\"", 0});
        w(event(seg::SEGMENT_START, "t", segment_type::text));
        w(event(seg::SEGMENT_CONTENT, "t", segment_type::text, nullptr, "Hi"));
        w(argument_fragment{"seg_1", segment_type::tool_call, R"("x"})", 0});
        w(event(seg::SEGMENT_END, "seg_2", segment_type::tool_call, &custom));
        w(event(seg::SEGMENT_END, "seg_1", segment_type::tool_call, &end_metadata));
        w(choice_finished{0, {}, finish_kind::tool_calls});
        w.done();
        return test::read_responses_sse(w.output().bytes);
    };
    // Named at its END: written then, whole and first (order of START); what came meanwhile follows.
    auto read = run_events(1024, named);
    CHECK(read.violations.empty());
    CHECK(read.lines()
          == std::vector<std::string>{R"(function_call lookup seg_1 completed {"q":"x"})",
                                      R"(custom_tool_call sql seg_2 completed SELECT "1")", "message   completed Hi",
                                      "response.completed"});
    CHECK(read.items[1].done.at("input") == "SELECT \"1\"");   // the raw input, not JSON
    CHECK(read.count("response.custom_tool_call_input.done") == 1);
    // Held past the bound: the response fails naming the call.
    read = run_events(3, named);
    CHECK(read.violations.empty());
    CHECK(read.terminal == "response.failed");
    CHECK(read.error().find("'seg_1' has no name after 5 bytes of arguments (max_held_call_bytes)")
          != std::string::npos);
    // Never named: not written, and the response fails.
    read = run_events(1024, none);
    CHECK(read.violations.empty());
    CHECK(read.items.size() == 2);
    CHECK(read.terminal == "response.failed");
    CHECK(read.error().find("'seg_1') is broken: it has no name") != std::string::npos);
}

TEST_CASE("openai responses: a call whose metadata names a namespace carries it, added and done", "[openai-responses]")
{
    const boost::json::object in_namespace{{"tool_name", "spawn"}, {"namespace", "multi_agent_v1"}};
    writer w{responses_output{}, fixed()};
    openai_response_builder builder{fixed()};
    const auto both = [&](const auto& e) {
        w(e);
        builder(e);
    };
    both(event(seg::SEGMENT_START, "c", segment_type::tool_call, &in_namespace));
    both(argument_fragment{"c", segment_type::tool_call, R"({"task":"x"})", 0});
    both(event(seg::SEGMENT_END, "c", segment_type::tool_call, &in_namespace));
    both(choice_finished{0, {}, finish_kind::tool_calls});
    w.done();
    const auto read = test::read_responses_sse(w.output().bytes);
    REQUIRE(read.violations.empty());
    REQUIRE(read.items.size() == 1);
    CHECK(read.items[0].done.at("namespace") == "multi_agent_v1");
    CHECK(read.items[0].done.at("name") == "spawn");
    CHECK(w.output().bytes.find(R"("name":"spawn","namespace":"multi_agent_v1","arguments":"")") != std::string::npos);
    const auto response = builder.response();
    CHECK(response.at("output").as_array().at(0).at("namespace") == "multi_agent_v1");
}

TEST_CASE("openai responses: a character split between deltas, and bytes that are not UTF-8", "[openai-responses]")
{
    const boost::json::object named{{"tool_name", "f"}};
    writer w{responses_output{}, fixed()};
    openai_response_builder builder{fixed()};
    auto both = [&](const auto& e) {
        w(e);
        builder(e);
    };
    both(event(seg::SEGMENT_START, "t", segment_type::text));
    for (std::string_view piece : {"caf\xC3", "\xA9 \xFF", "\xF0\x9F", "\x98", "\x80 x"})
        both(event(seg::SEGMENT_CONTENT, "t", segment_type::text, nullptr, piece));
    both(event(seg::SEGMENT_START, "c", segment_type::tool_call, &named));
    for (std::string_view piece : {"{\"e\":\"\xE2", "\x82", "\xAC\xC0\"}"})
        both(argument_fragment{"c", segment_type::tool_call, piece, 0});
    both(event(seg::SEGMENT_END, "c", segment_type::tool_call, &named));
    both(event(seg::SEGMENT_START, "u", segment_type::text));
    both(event(seg::SEGMENT_CONTENT, "u", segment_type::text, nullptr, "end \xE2\x82"));
    both(event(seg::SEGMENT_END, "u", segment_type::text));
    w.done();
    const auto read = test::read_responses_sse(w.output().bytes);   // each event strict UTF-8 JSON
    CHECK(read.violations.empty());
    CHECK(detail::is_valid_utf8(w.output().bytes));
    CHECK(read.lines()
          == std::vector<std::string>{"message   completed caf\xC3\xA9 \xEF\xBF\xBD\xF0\x9F\x98\x80 x",
                                      "function_call f c completed {\"e\":\"\xE2\x82\xAC\xEF\xBF\xBD\"}",
                                      "message   completed end \xEF\xBF\xBD", "response.completed"});
    CHECK(boost::json::value(builder.response()) == read.response);
}

TEST_CASE("openai responses: 64 KiB and 16 MiB write_file calls stream in bounded writes", "[openai-responses][large]")
{
    for (const std::size_t size : {std::size_t{64} << 10, std::size_t{16} << 20}) {
        std::string body;
        for (std::size_t i = 0; body.size() < size; ++i)
            body += "line " + std::to_string(i) + " \xC3\xA9\t\"quoted\" \\ back\n";
        const std::string text = "Saving. <write_file path=\"big.txt\">" + body + "</write_file>";
        std::vector<std::string_view> pieces;
        for (std::size_t at = 0; at < text.size(); at += 4096)
            pieces.push_back(std::string_view(text).substr(at, 4096));
        const auto out = text_to_responses<xml>(pieces);
        // Every write, the whole texts of `.done` events and of the response included, is at most
        // the 16 KiB at which the buffer goes out, one 4 KiB slice escaped (6 bytes a byte at
        // worst) and 1 KiB of members: bounded whatever the deltas.
        CHECK(out.largest <= 6 * 4096 + (16u << 10) + 1024);
        CHECK(out.writes > out.bytes.size() / (40u << 10));
        const auto read = test::read_responses_sse(out.bytes);
        REQUIRE(read.violations.empty());
        CHECK(read.terminal == "response.completed");
        REQUIRE(read.items.size() == 2);
        const auto args = boost::json::parse(read.items[1].text).as_object();
        CHECK((args.at("path") == "big.txt" && args.at("content").as_string() == body));
        CHECK(read.response.at("output").at(1).at("arguments") == read.items[1].text.c_str());
    }
}

} // namespace test_openai_responses_writer
