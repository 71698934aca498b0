// The Gemini converter's two readers: gemini_event_sax reads the usual shapes while they parse
// (writing `args` as compact JSON from the parser's events), the DOM reads the rest. Every event
// here is converted both ways and must give the same chunks: once as it is, and once with
// `"error":null` written twice in front, a repeated key that makes the fast path decline the
// event (the DOM ignores a null error, so the event means the same).
#include "catch_compat.hpp"
#include "support/fixtures.hpp"

#include <toolstream/providers/detail/event_sax.hpp>
#include <toolstream/providers/detail/gemini_event_sax.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/transport/sse.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace test_gemini_sax {

namespace {

namespace ts = toolstream;
namespace td = toolstream::detail;

td::sax_outcome outcome_of(std::string_view payload)
{
    td::event_sax_parser<td::gemini_event_sax> p;
    p.handler().reset();
    return p.parse(payload);
}

std::string forced_to_dom(std::string_view payload)
{
    const std::size_t brace = payload.find('{');
    if (brace == std::string_view::npos || payload.find_first_not_of(" \t\r\n") != brace)
        return std::string(payload);   // not an object: the DOM reads it anyway
    std::string out(payload.substr(0, brace + 1));
    out += R"("error":null,"error":null)";
    const std::string_view rest = payload.substr(brace + 1);
    const std::size_t next = rest.find_first_not_of(" \t\r\n");
    if (next != std::string_view::npos && rest[next] != '}')
        out += ',';
    out += rest;
    return out;
}

struct transcript {
    ts::provider_converter<ts::gemini> conv;
    std::string text;

    void operator()(std::size_t choice, const ts::chunk_response& c)
    {
        text += "choice " + std::to_string(choice) + " content=" + c.content + " reasoning=" + c.reasoning +
                " finish_reason=" + c.finish_reason +
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
    void finish()
    {
        conv.finish(*this);
        text += "-> end\n";
    }
};

std::string both_ways(const std::vector<std::string>& events)
{
    transcript fast;
    transcript dom;
    for (const auto& e : events) {
        fast.convert(e);
        dom.convert(forced_to_dom(e));
    }
    fast.finish();
    dom.finish();
    CHECK(fast.text == dom.text);
    return fast.text;
}

const std::vector<std::string> usual_events = {
    R"({"candidates":[{"content":{"parts":[{"text":"Hi \"there\" \u00e9\ud83d\ude00\n"}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":1,"totalTokenCount":4},"modelVersion":"gemini-2.5-pro","responseId":"r1"})",
    R"({"candidates":[{"content":{"parts":[{"text":"think","thought":true},{"text":"say","thought":false,"thoughtSignature":"abc"}]}}],"modelVersion":"other","responseId":"r2"})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"write_file","args":{"path":"a\"b\\c\n\u0001\u001f\u007f\u00e9\ud83d\ude00","content":"x","n":[1,-2,3.5,1e21,1e-7,0.5,12345678901234567890,-0.0,true,false,null,{},[],{"deep":[[{"k":"v"}]]}],"":{"a":{"b":{}}}}}}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":2,"thoughtsTokenCount":3}})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"noargs","id":"id-1"}},{"functionCall":{"name":"nullargs","args":null}},{"functionCall":{"id":"lonely"}}]}}]})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"stream","willContinue":true}}]}}]})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"id":"late-id","willContinue":true,"partialArgs":null}}]}}]})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{}}]},"finishReason":"STOP"}]})",
    R"({"candidates":[{"content":{"parts":[{"text":"a"}]},"index":1},{"content":{"parts":[7,"s",null,[1],{"text":5},{"functionCall":"x"},{"functionCall":{"name":"g","args":{"k":{"k2":1},"k2":2}}}]}},{"content":null},{"content":{"parts":{"x":1}}},{"finishReason":"MAX_TOKENS","index":2.0}]})",
    R"({"candidates":[{"content":{"parts":[{"text":"hostile"}]},"index":200}]})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"s2","willContinue":true,"partialArgs":[]}}]}}]})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.q","stringValue":"hi","willContinue":true}],"willContinue":true}}]}}]})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.q","stringValue":""}],"willContinue":true}},{"functionCall":{}}]}}]})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"kinds","willContinue":true,"partialArgs":[{"jsonPath":"$.a[0]","numberValue":1.5},{"jsonPath":"$.a[1]","numberValue":-3,"boolValue":true},{"jsonPath":"$.b.c","boolValue":false},{"jsonPath":"$.b.d","nullValue":"NULL_VALUE"},{"jsonPath":"$.b.e","nullValue":{"x":[1]}},{"jsonPath":"$.b.f","stringValue":5,"numberValue":"x","boolValue":null,"nullValue":null},{"jsonPath":7,"stringValue":"no path"},{"jsonPath":"$.s","stringValue":"\u00e9\"\n"},7,[1],null]}}]}}]})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":{"jsonPath":"$.z"},"willContinue":true}},{"functionCall":{"partialArgs":"x","willContinue":true}},{"functionCall":{"partialArgs":[{"jsonPath":"$.s","stringValue":" more"}]}}]}}]})",
    R"({"candidates":[],"usageMetadata":{"promptTokenCount":5.0}})",
    R"({"candidates":null,"usageMetadata":{},"error":null})",
    R"({"usageMetadata":{"totalTokenCount":9},"responseId":5,"modelVersion":{"a":1}})",
    R"({"candidates":[{"content":{"parts":[{"text":"e"}]},"finishReason":"","index":"0"}]})",
    R"(  {"candidates":[{"content":{"parts":[{"text":"blanks around"}]},"finishReason":"SAFETY"}]}  )",
};

const std::vector<std::string> rare_events = {
    R"({"error":{"code":429,"message":"rate limited","status":"RESOURCE_EXHAUSTED"}})",
    R"({"error":{"code":500}})",
    R"({"error":"plain"})",
    R"([{"candidates":[{"content":{"parts":[{"text":"in array"}]}}]},{"error":{"message":"then error"}}])",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"arr","args":[1,"x"]}}]}}]})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"str","args":"text"}}]}}]})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"dup","args":{"a":1,"b":{"c":1,"c":2},"a":3}}}]}}]})",
    R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"dup2","args":{"a":1,"a":2}}}]}}]})",
    R"({"candidates":[{"content":{"parts":[{"text":"x","text":"y"}]}}]})",
    R"({"candidates":[7,{"content":{"parts":[{"text":"after scalar"}]}}]})",
    R"("text")",
    R"(42)",
};

} // namespace

TEST_CASE("gemini sax: the usual shapes take the fast path, the rare ones the DOM", "[gemini][sax]")
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

TEST_CASE("gemini sax: both readers give the same chunks", "[gemini][sax]")
{
    std::vector<std::string> all = usual_events;
    all.insert(all.end(), rare_events.begin(), rare_events.end());
    all.insert(all.end(), usual_events.begin(), usual_events.end());
    const std::string text = both_ways(all);
    CHECK(text.find("content=Hi \"there\" \xc3\xa9\xf0\x9f\x98\x80\n") != std::string::npos);
    CHECK(text.find(R"(args={"path":"a\"b\\c\n\u0001\u001f)" "\x7f\xc3\xa9\xf0\x9f\x98\x80" R"(","content":"x","n":[1,-2,3.5,1e+21,1e-7,0.5,12345678901234567890,0,true,false,null,{},[],{"deep":[[{"k":"v"}]]}],"":{"a":{"b":{}}}})") != std::string::npos);
    CHECK(text.find(R"(name=g args={"k":{"k2":1},"k2":2} complete=1)") != std::string::npos);
    CHECK(text.find("usage=5/5") != std::string::npos);
    CHECK(text.find("error=rate limited") != std::string::npos);
    CHECK(text.find(R"(name=arr args=[1,"x"])") != std::string::npos);
    CHECK(text.find(R"(args={"a":[1.5,-3],"b":{"c":false,"d":null,"e":null,"f":null},"s":")" "\xc3\xa9" R"(\"\n)") != std::string::npos);
}

TEST_CASE("gemini sax: an event that falls back midway gives the DOM's chunks", "[gemini][sax]")
{
    const std::vector<std::string> events = {
        R"({"responseId":"r","modelVersion":"m","usageMetadata":{"promptTokenCount":1},"candidates":[{"content":{"parts":[{"text":"before"},{"functionCall":{"name":"f","args":{"big":"xxxxxxxx","nested":{"a":[1,2,{"b":"c"}]},"b":1,"b":2}}}]},"finishReason":"STOP"}]})",
        R"({"candidates":[{"content":{"parts":[{"text":"one"},{"functionCall":{"name":"s","willContinue":true}},{"functionCall":{"partialArgs":[{"jsonPath":"$.x","numberValue":1}],"willContinue":true,"willContinue":false}}]}}]})",
        R"({"candidates":[{"content":{"parts":[{"text":"e"}]}}],"error":{"message":"late error"}})",
    };
    for (const auto& e : events)
        CHECK(outcome_of(e) == td::sax_outcome::fallback);
    const std::string text = both_ways(events);
    CHECK(text.find("error=late error") != std::string::npos);
    CHECK(text.find("content=before") != std::string::npos);
}

TEST_CASE("gemini sax: malformed JSON is invalid_payload on either path, and the stream goes on", "[gemini][sax]")
{
    const std::vector<std::string> bad = {
        R"({"candidates":[{"content":{"parts":[{"text":"unterminated)",
        R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":[1,}}}]}}]})",
        R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":1,"a":[}}}]}}]})",
        R"({"candidates":[]}x)",
        R"({"candidates":[]}{"candidates":[]})",
        R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":"\uZZZZ"}}}]}}]})",
        "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"\xff\"}]}}]}",
    };
    for (const auto& e : bad) {
        INFO(e);
        CHECK(outcome_of(e) != td::sax_outcome::done);
        transcript t;
        t.convert(e);
        t.convert(R"({"candidates":[{"content":{"parts":[{"text":"after"}]}}]})");
        CHECK(t.text == "-> " + ts::error_code(ts::error::invalid_payload).message() +
                            "\nchoice 0 content=after reasoning= finish_reason= finish=- complete=0 error= id= model=\n-> ok\n");
    }
}

TEST_CASE("gemini sax: args over 2 KiB writes and of megabytes", "[gemini][sax][large]")
{
    // Keys, strings, escapes and numbers of `args` straddle the 2 KiB writes at every offset.
    std::vector<std::string> events;
    for (std::size_t pad = 1980; pad < 2100; ++pad) {
        const std::string filler(pad, 'x');
        events.push_back(R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"w","args":{"p":")" + filler +
                         R"(\u00e9\"\n\ud83d\ude00\u0000\t","k\"ey\u00e9":[123456,-7.25,{"z":"\\"}],"n":null}}}]}}]})");
        events.push_back(R"({"pad":")" + filler + R"(","candidates":[{"content":{"parts":[{"functionCall":{"name":"w","args":{"long key )" +
                         std::string(40, 'k') + R"(":1e300,"s":"é"}}}]}}]})");
    }
    std::string big;
    for (std::size_t i = 0; big.size() < (std::size_t{3} << 20); ++i)
        big += R"(line \"quoted\" \u00e9 \\ tab\t \u001b )" + std::to_string(i) + "\\n";
    events.push_back(R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"write_file","args":{"path":"p","content":")" +
                     big + R"("}}}]},"finishReason":"STOP"}]})");
    for (const auto& e : events)
        REQUIRE(outcome_of(e) == td::sax_outcome::done);
    const std::string text = both_ways(events);
    CHECK(text.find(std::string(2099, 'x') + "\xc3\xa9\\\"\\n\xf0\x9f\x98\x80\\u0000\\t\",\"k\\\"ey\xc3\xa9\":[123456,-7.25,{\"z\":\"\\\\\"}],\"n\":null}") != std::string::npos);
    CHECK(text.find(R"(line \"quoted\" )" "\xc3\xa9" R"( \\ tab\t \u001b 0\nline)") != std::string::npos);
}

TEST_CASE("gemini sax: both readers agree on every fixture event", "[gemini][sax][fixtures]")
{
    const auto fixtures = toolstream::test::load_fixtures({"gemini"});
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set (or holds no gemini fixtures): skipped");
        return;
    }
    std::size_t events = 0;
    for (const auto& f : fixtures) {
        INFO(f.name);
        std::vector<std::string> data;
        ts::sse_decoder sse;
        const auto on_event = [&](const ts::wire_event& ev) { data.emplace_back(ev.data); };
        REQUIRE_FALSE(sse.write(toolstream::test::read_file(f.stream_path), on_event));
        REQUIRE_FALSE(sse.finish(on_event));
        events += data.size();
        both_ways(data);
    }
    CHECK(events > 20);
}

TEST_CASE("gemini sax: identical output at every chunking of the SSE body", "[gemini][sax]")
{
    std::string body;
    const std::vector<std::string> events = {usual_events[0], rare_events[0], usual_events[2], usual_events[4],
                                             usual_events[10], usual_events[11], usual_events[7], rare_events[5]};
    for (const auto& e : events)
        body += "data: " + e + "\n\n";
    const auto run = [&](std::size_t first, std::size_t step) {
        transcript t;
        ts::sse_decoder sse;
        const auto on_event = [&](const ts::wire_event& ev) { t.convert(ev.data); };
        std::size_t at = 0;
        for (std::size_t n = first; at < body.size(); n = step) {
            const std::size_t take = std::min(n, body.size() - at);
            REQUIRE_FALSE(sse.write(std::string_view(body).substr(at, take), on_event));
            at += take;
        }
        REQUIRE_FALSE(sse.finish(on_event));
        t.finish();
        return t.text;
    };
    const std::string whole = run(body.size(), body.size());
    CHECK(whole.find("name=write_file args={\"path\"") != std::string::npos);   // a fast one
    CHECK(whole.find("error=rate limited") != std::string::npos);               // a fallback one
    CHECK(run(1, 1) == whole);
    for (std::size_t split = 1; split < body.size(); ++split) {
        INFO(split);
        REQUIRE(run(split, body.size()) == whole);
    }
}

} // namespace test_gemini_sax
