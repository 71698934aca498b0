// The Chat Completions converter's two readers: chat_event_sax reads the usual shapes while they
// parse, the DOM reads the rest. Every event here is converted both ways and must give the same
// chunks: once as it is, and once with `"error":null` written twice in front, a repeated key
// that makes the fast path decline the event (the DOM keeps the last value of a repeated key, so
// the event means the same). Which reader took an event is checked on chat_event_sax itself.
#include <toolstream/providers/detail/event_sax.hpp>
#include <toolstream/providers/detail/openai_chat_fields.hpp>
#include <toolstream/providers/mistral.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/transport/sse.hpp>

#include "catch_compat.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace test_openai_chat_sax {

namespace {

namespace ts = toolstream;
namespace td = toolstream::detail;

td::sax_outcome outcome_of(std::string_view payload)
{
    td::event_sax_parser<td::chat_event_sax> p;
    p.handler().reset();
    return p.parse(payload);
}

/// The same event, read by the DOM: a repeated key the fast path declines, meaning nothing.
std::string forced_to_dom(std::string_view payload)
{
    const std::size_t brace = payload.find('{');
    if (brace == std::string_view::npos)
        return std::string(payload);   // no object: the DOM reads it anyway
    std::string out(payload.substr(0, brace + 1));
    out += R"("error":null,"error":null)";
    const std::string_view rest = payload.substr(brace + 1);
    if (rest.find_first_not_of(" \t\r\n") != std::string_view::npos && rest[rest.find_first_not_of(" \t\r\n")] != '}')
        out += ',';
    out += rest;
    return out;
}

/// Every chunk emitted and every error returned, as one comparable text.
template<class Provider>
struct transcript {
    ts::provider_converter<Provider> conv;
    std::string text;

    void operator()(std::size_t choice, const ts::chunk_response& c)
    {
        text += "choice " + std::to_string(choice) + " content=" + c.content + " reasoning=" + c.reasoning +
                " refusal=" + c.refusal + " finish_reason=" + c.finish_reason +
                " finish=" + (c.finish ? std::to_string(static_cast<int>(*c.finish)) : "-") +
                " complete=" + std::to_string(c.is_complete) + " error=" + c.error + " id=" + c.response_id +
                " model=" + c.model;
        if (c.usage)
            text += " usage=" + std::to_string(c.usage->input_tokens) + "/" + std::to_string(c.usage->output_tokens);
        for (const auto& d : c.tool_calls)
            text += " [call " + std::to_string(d.index) + " id=" + d.call_id + " name=" + d.name +
                    " args=" + d.arguments_delta + " complete=" + std::to_string(d.is_complete) + "]";
        text += '\n';
    }

    void convert(std::string_view data)
    {
        const ts::error_code ec = conv.convert(ts::wire_event{{}, data}, *this);
        text += "-> " + (ec ? ec.message() : std::string("ok")) + '\n';
    }
};

/// Converts `events` once as they are and once forced to the DOM; both must agree.
template<class Provider>
std::string both_ways(const std::vector<std::string>& events)
{
    transcript<Provider> fast;
    transcript<Provider> dom;
    for (const auto& e : events) {
        fast.convert(e);
        dom.convert(forced_to_dom(e));
    }
    CHECK(fast.text == dom.text);
    return fast.text;
}

const std::vector<std::string> usual_events = {
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-x","system_fingerprint":"fp","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null})",
    R"({"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-x","choices":[{"index":0,"delta":{"content":"Hi \"there\" \u00e9\ud83d\ude00\n"},"logprobs":{"content":[{"token":"x","bytes":[1,2]}]},"finish_reason":null}]})",
    R"({"choices":[{"index":0,"delta":{"reasoning_content":"think","reasoning":"other"}}]})",
    R"({"choices":[{"index":0,"delta":{"reasoning_content":"","reasoning":"second"}}]})",
    R"({"choices":[{"index":0,"delta":{"refusal":"no"}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write_file","arguments":""}}]}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"pa"}}]}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"th\":1"},"index":0}]}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_2","function":{"name":"g","arguments":"{}"}},{"id":"call_3","function":{"name":"h"}}]}}]})",
    R"({"choices":[{"index":0.0,"delta":{"tool_calls":[{"index":1.0,"id":"","function":{"name":"","arguments":"x"}}]}}]})",
    R"({"choices":[{"index":-1,"delta":{"content":"neg"}},{"delta":{"content":"second"}},7,"s",null,[1],{"index":1,"delta":{"content":"third"}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[7,{"function":{"arguments":"p"}},{"index":"0","id":5,"function":{"name":[1],"arguments":null}}]}}]})",
    R"({"choices":[{"index":0,"delta":null,"finish_reason":"tool_calls"}]})",
    R"({"choices":[{"index":1,"delta":{},"finish_reason":"length"}],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}})",
    R"({"choices":[],"usage":{"prompt_tokens":5.0}})",
    R"({"choices":null,"usage":null,"x_groq":{"id":"q","usage":{"completion_tokens":9}}})",
    R"({"usage":{},"x_groq":{"usage":{"completion_tokens":9}}})",
    R"({"choices":[{"index":0,"delta":{"content":"e"},"finish_reason":"error"}],"error":"overloaded"})",
    R"({"error":""})",
    R"({"choices":[{"index":200,"delta":{"content":"hostile"}}]})",
    R"({"id":5,"model":{"m":1},"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":5,"reasoning":{"a":1},"tool_calls":{"x":1}},"finish_reason":7}]})",
    R"(  {"choices":[{"index":0,"delta":{"content":"blanks around"}}]}  )",
};

const std::vector<std::string> rare_events = {
    R"({"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"part"},{"type":"thinking","thinking":[{"type":"text","text":"hm"}]}]}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c9","function":{"name":"f","arguments":{"a":[1,"x"]}}}]}}]})",
    R"({"error":{"message":"rate limited","code":429}})",
    R"({"error":{"code":500}})",
    R"({"error":5})",
    R"({"object":"error","message":"vllm says no"})",
    R"({"choices":[{"index":0,"delta":{"content":"a"}},{"index":0,"delta":{"content":"b"}}],"choices":[{"index":0,"delta":{"content":"last wins"}}]})",
    R"({"choices":[{"index":0,"delta":{"content":"x","content":"y"}}]})",
    R"({"choices":{"index":0}})",
    R"({"choices":"none"})",
    R"([{"choices":[]}])",
    R"("text")",
    R"(42)",
};

} // namespace

TEST_CASE("openai_chat sax: the usual shapes take the fast path, the rare ones the DOM", "[openai_chat][sax]")
{
    for (const auto& e : usual_events) {
        INFO(e);
        CHECK(outcome_of(e) == td::sax_outcome::done);
        CHECK(outcome_of(forced_to_dom(e)) == td::sax_outcome::fallback);
    }
    for (const auto& e : rare_events) {
        INFO(e);
        CHECK(outcome_of(e) == td::sax_outcome::fallback);
    }
    CHECK(outcome_of("{}") == td::sax_outcome::done);
}

TEST_CASE("openai_chat sax: both readers give the same chunks", "[openai_chat][mistral][sax]")
{
    std::vector<std::string> all = usual_events;
    all.insert(all.end(), rare_events.begin(), rare_events.end());
    all.insert(all.end(), usual_events.begin(), usual_events.end());   // the same calls, continued
    const std::string openai = both_ways<ts::openai_chat>(all);
    const std::string mistral = both_ways<ts::mistral>(all);
    // The readers agree on something real: content, calls, usage, errors and rejections.
    CHECK(openai.find("content=Hi \"there\" \xc3\xa9\xf0\x9f\x98\x80\n") != std::string::npos);
    CHECK(openai.find("[call 0 id=call_1 name=write_file args= complete=0]") != std::string::npos);
    CHECK(openai.find("args={\"a\":[1,\"x\"]}") != std::string::npos);
    CHECK(openai.find("usage=0/9") != std::string::npos);
    CHECK(openai.find("error=rate limited") != std::string::npos);
    CHECK(openai.find("content=last wins") != std::string::npos);
    CHECK(mistral.find("content=part reasoning=hm") != std::string::npos);
}

TEST_CASE("openai_chat sax: an event that falls back midway gives the DOM's chunk", "[openai_chat][sax]")
{
    // Fast fields first (content, a call, usage), then a shape only the DOM reads.
    const std::vector<std::string> events = {
        R"({"id":"r","model":"m","choices":[{"index":0,"delta":{"content":"before","tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{\"k\":"}},{"index":1,"function":{"arguments":{"late":true}}}]},"finish_reason":null}],"usage":{"prompt_tokens":1}})",
        R"({"choices":[{"index":0,"delta":{"content":"one"}},{"index":1,"delta":{"content":[{"type":"text","text":"two"}]}}]})",
        R"({"choices":[{"index":0,"delta":{"content":"e"}}],"error":{"message":"late error"}})",
    };
    for (const auto& e : events)
        CHECK(outcome_of(e) == td::sax_outcome::fallback);
    const std::string openai = both_ways<ts::openai_chat>(events);
    CHECK(openai.find("[call 1 id= name= args={\"late\":true} complete=0]") != std::string::npos);
    CHECK(openai.find("usage=1/0") != std::string::npos);
    const std::string mistral = both_ways<ts::mistral>(events);
    CHECK(mistral.find("choice 1 content=two") != std::string::npos);
}

TEST_CASE("openai_chat sax: malformed JSON is invalid_payload on either path, and the stream goes on", "[openai_chat][sax]")
{
    const std::vector<std::string> bad = {
        R"({"choices":[{"index":0,"delta":{"content":"unterminated)",
        R"({"choices":[{"index":0,"delta":{"content":[1,2}}]})",   // breaks after the fast path declined
        R"({"choices":[]}x)",
        R"({"choices":[]}{"choices":[]})",
        R"({"choices":[{"index":0,"delta":{"content":"a"}}],})",
        R"({"choices":[{"index":0,"delta":{"content":"\uZZZZ"}}]})",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\xff\"}}]}",
    };
    for (const auto& e : bad) {
        INFO(e);
        CHECK(outcome_of(e) != td::sax_outcome::done);
        transcript<ts::openai_chat> t;
        t.convert(e);
        t.convert(R"({"choices":[{"index":0,"delta":{"content":"after"}}]})");
        CHECK(t.text == "-> " + ts::error_code(ts::error::invalid_payload).message() +
                            "\nchoice 0 content=after reasoning= refusal= finish_reason= finish=- complete=0 error= id= model=\n-> ok\n");
    }
    CHECK(outcome_of(bad[0]) == td::sax_outcome::invalid);
}

TEST_CASE("openai_chat sax: events over 2 KiB and of megabytes", "[openai_chat][sax][large]")
{
    // Strings, escapes and keys straddle the 2 KiB writes at every offset near the boundary.
    std::vector<std::string> events;
    for (std::size_t pad = 2000; pad < 2100; ++pad) {
        const std::string filler(pad, 'x');
        events.push_back(R"({"choices":[{"index":0,"delta":{"content":")" + filler + R"(\u00e9\"\n\ud83d\ude00"}}]})");
        events.push_back(R"({"pad":")" + filler + R"(","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\u00e9"}}]}}]})");
        events.push_back(R"({"choices":[{"index":0,"logprobs":")" + filler + R"(","finish_reason":"stop"}]})");
    }
    std::string big_args;
    for (std::size_t i = 0; big_args.size() < (std::size_t{3} << 20); ++i)
        big_args += R"(line \"quoted\" \u00e9 \\ tab\t )" + std::to_string(i) + "\\n";
    events.push_back(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"big","function":{"name":"w","arguments":")" +
                     big_args + R"("}}]}}]})");
    events.push_back(R"({"choices":[{"index":0,"delta":{"content":")" + big_args + R"("}}]})");
    for (const auto& e : events)
        REQUIRE(outcome_of(e) == td::sax_outcome::done);
    const std::string text = both_ways<ts::openai_chat>(events);
    CHECK(text.find(std::string(2099, 'x') + "\xc3\xa9\"\n\xf0\x9f\x98\x80") != std::string::npos);
    CHECK(text.find("line \"quoted\" \xc3\xa9 \\ tab\t 0\nline") != std::string::npos);
}

TEST_CASE("openai_chat sax: identical output at every chunking of the SSE body", "[openai_chat][sax]")
{
    // Fast-path and fallback events interleaved, through the SSE decoder at every split.
    std::string body;
    std::vector<std::string> events = {usual_events[0], usual_events[1], rare_events[0], usual_events[5],
                                       usual_events[6], rare_events[1], usual_events[12], rare_events[2]};
    for (const auto& e : events)
        body += "data: " + e + "\n\n";
    body += "data: [DONE]\n\n";
    const auto run = [&](std::size_t first, std::size_t step) {
        transcript<ts::openai_chat> t;
        ts::sse_decoder sse;
        const auto on_event = [&](const ts::wire_event& ev) { t.convert(ev.data); };
        std::size_t at = 0;
        for (std::size_t n = first; at < body.size(); n = step) {
            const std::size_t take = std::min(n, body.size() - at);
            REQUIRE_FALSE(sse.write(std::string_view(body).substr(at, take), on_event));
            at += take;
        }
        REQUIRE_FALSE(sse.finish(on_event));
        return t.text;
    };
    const std::string whole = run(body.size(), body.size());
    CHECK(whole.find("args={\"a\":[1,\"x\"]}") != std::string::npos);   // a fallback event
    CHECK(whole.find("name=write_file") != std::string::npos);             // a fast one
    CHECK(run(1, 1) == whole);
    for (std::size_t split = 1; split < body.size(); ++split) {
        INFO(split);
        REQUIRE(run(split, body.size()) == whole);
    }
}

TEST_CASE("openai_chat shapes: events that differ from the last in one string read as the DOM reads them",
          "[openai_chat][mistral][sax][event_template]")
{
    // Runs of events with one shape (event_template) and random values, valid or not, some of
    // which change the structure around them; the shapes of content, reasoning and arguments,
    // spaced JSON, a raw key that is an unread field's, and OpenAI's changing padding.
    const std::vector<std::pair<std::string, std::string>> shapes = {
        {R"({"id":"r","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":")",
         R"("},"logprobs":null,"finish_reason":null}]})"},
        {R"({"id":"r","model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":")",
         R"("}}]},"finish_reason":null}]})"},
        {R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"c2","function":{"name":"f","arguments":")",
         R"("}}]}}]})"},
        {R"({"choices":[{"index":0,"delta":{"content":null,"reasoning_content":")", R"("}}]})"},
        {R"({"choices": [{"index": 0, "delta": {"reasoning" : ")", R"("}}], "usage": null})"},
        {R"({"choices":[{"index":0,"delta":{"con\u0074ent":"real"}}],"x":{"content":")", R"("}})"},
        {R"({"choices":[{"index":0,"delta":{"content":")", R"("},"finish_reason":"stop"}]})"},
        // `@`: a random value of its own, in the padding nobody reads.
        {R"({"id":"r","choices":[{"index":0,"delta":{"content":")", R"("}}],"obfuscation":"@"})"},
    };
    const std::string_view pieces[] = {"a", "\xc3\xa9", R"(\")", R"(\\)", R"(\n)", R"(\u00e9)", R"(\ud83d\ude00)",
                                       "}", ",", " ", "\"", "\\", "\x01", "\xff", R"(\u12)", R"(\ud800)",
                                       R"(","refusal":")", R"(","content":")", "\xe2\x82"};
    std::mt19937 rng(7);
    std::vector<std::string> events;
    for (int run = 0; run < 60; ++run) {
        const auto& [head, tail] = shapes[rng() % shapes.size()];
        for (std::size_t k = 1 + rng() % 12; k > 0; --k) {
            std::string value;
            for (std::size_t i = rng() % 5; i > 0; --i)
                value += rng() % 4 == 0 ? pieces[rng() % std::size(pieces)] : pieces[rng() % 10];
            std::string padding;
            for (std::size_t i = rng() % 4; i > 0; --i)
                padding += pieces[rng() % std::size(pieces)];
            std::string last = tail;
            if (const std::size_t at = last.find('@'); at != std::string::npos)
                last.replace(at, 1, padding);
            events.push_back(head + value + last);
        }
    }
    const std::string openai = both_ways<ts::openai_chat>(events);
    both_ways<ts::mistral>(events);
    CHECK(openai.find(" content=real ") != std::string::npos);
    bool refusal_added = false;   // a value that added a key the converter reads
    for (std::size_t at = openai.find("refusal="); at != std::string::npos; at = openai.find("refusal=", at + 1))
        refusal_added = refusal_added || openai[at + 8] != ' ';
    CHECK(refusal_added);
}

} // namespace test_openai_chat_sax
