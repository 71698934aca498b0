#include "catch_compat.hpp"
#include "support/chunk_summary.hpp"
#include "support/fixtures.hpp"

#include <toolstream/providers/gemini.hpp>
#include <toolstream/transport/sse.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

namespace json = boost::json;
using toolstream::chunk_response;
using toolstream::error;
using toolstream::error_code;
using toolstream::gemini;
using toolstream::wire_event;
using converter = toolstream::provider_converter<gemini>;

// Keeps a copy of every chunk the converter emits, with its choice.
struct recorder {
    std::vector<std::pair<std::size_t, chunk_response>> chunks;
    void operator()(std::size_t choice, const chunk_response& c) { chunks.emplace_back(choice, c); }

    // Every tool-call delta of a choice, in order.
    std::vector<toolstream::tool_call_delta> deltas(std::size_t choice = 0) const
    {
        std::vector<toolstream::tool_call_delta> out;
        for (const auto& [ch, c] : chunks)
            if (ch == choice)
                out.insert(out.end(), c.tool_calls.begin(), c.tool_calls.end());
        return out;
    }

    // Concatenated arguments of one call.
    std::string arguments(std::size_t call, std::size_t choice = 0) const
    {
        std::string s;
        for (const auto& d : deltas(choice))
            if (d.index == call)
                s += d.arguments_delta;
        return s;
    }
};

error_code feed(converter& conv, recorder& out, std::string_view data)
{
    return conv.convert(wire_event{{}, data}, out);
}

// A one-candidate response holding `parts` (a JSON array's inner text).
std::string response(std::string_view parts, std::string_view extra = {})
{
    return R"({"candidates":[{"content":{"role":"model","parts":[)" + std::string(parts) + "]}" + std::string(extra)
        + "}]}";
}

std::string part_with_pieces(const std::vector<std::string>& pieces, bool will_continue = true)
{
    std::string s = R"({"functionCall":{"partialArgs":[)";
    for (std::size_t i = 0; i < pieces.size(); ++i)
        s += (i ? "," : "") + pieces[i];
    s += "]";
    if (will_continue)
        s += R"(,"willContinue":true)";
    return s + "}}";
}

std::string piece(std::string_view path, json::value value, bool will_continue, std::string_view key)
{
    json::object o{{"jsonPath", path}};
    o[key] = std::move(value);
    if (will_continue)
        o["willContinue"] = true;
    return json::serialize(o);
}

std::string string_piece(std::string_view path, std::string_view text, bool will_continue)
{
    return piece(path, json::string(text), will_continue, "stringValue");
}

constexpr std::string_view open_call = R"({"functionCall":{"name":"cookRecipe","willContinue":true}})";
constexpr std::string_view terminator = R"({"functionCall":{}})";

} // namespace

TEST_CASE("gemini converter satisfies the provider contract", "[gemini]")
{
    STATIC_REQUIRE(toolstream::provider_traits<gemini>);
    STATIC_REQUIRE(converter::wire_framing == toolstream::framing::sse);
    STATIC_REQUIRE(converter::name == "gemini");
}

TEST_CASE("gemini text parts are content, thought parts reasoning", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, response(R"({"text":"Let me think.","thought":true},{"text":"Hel"},{"text":"lo"})")));
    CHECK(!feed(conv, out, response(R"({"text":"","thoughtSignature":"c2ln"})")));   // nothing to say
    CHECK(!feed(conv, out, response(R"({"text":" world","thought":false})")));
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[0].second.reasoning == "Let me think.");
    CHECK(out.chunks[0].second.content == "Hello");
    CHECK(out.chunks[1].second.content == " world");
    CHECK(out.chunks[1].second.reasoning.empty());
    CHECK(!out.chunks[1].second.is_complete);
}

TEST_CASE("gemini finishReason is kept raw and completes the chunk; usage adds thoughts to output", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, R"({"candidates":[{"content":{"parts":[{"text":"a"}]}}],"usageMetadata":{"trafficType":"ON_DEMAND"}})"));
    CHECK(!feed(conv, out, R"({"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":23,"thoughtsTokenCount":185,)"
                           R"("totalTokenCount":217},"candidates":[{"content":{"parts":[{"text":""}]},"finishReason":"MAX_TOKENS"}]})"));
    REQUIRE(out.chunks.size() == 2);
    CHECK(!out.chunks[0].second.usage);   // count-less Vertex metadata is no usage report
    const auto& last = out.chunks[1].second;
    CHECK(last.finish_reason == "MAX_TOKENS");
    CHECK(last.is_complete);
    REQUIRE(last.usage);
    CHECK(last.usage->input_tokens == 9);
    CHECK(last.usage->output_tokens == 208);
}

TEST_CASE("gemini usage without candidates is reported on choice 0", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, R"({"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2}})"));
    REQUIRE(out.chunks.size() == 1);
    CHECK(out.chunks[0].first == 0);
    CHECK(out.chunks[0].second.usage == toolstream::token_usage{4, 2});
}

TEST_CASE("gemini whole function calls: compact args, running indexes, optional id", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, response(
        R"({"functionCall":{"name":"weather","args":{ "city" : "Zürich", "b":1, "a":[0.5, 1e21, 1e-7, 2.50, -0.0, true, null, "q\"\n"] }},"thoughtSignature":"x"},)"
        R"({"functionCall":{"name":"search","args":{"q":"x"},"id":"call-7"}})")));
    CHECK(!feed(conv, out, response(R"({"functionCall":{"name":"read_theme"}})", R"(,"finishReason":"STOP")")));
    const auto d = out.deltas();
    REQUIRE(d.size() == 3);
    CHECK(d[0].index == 0);
    CHECK(d[0].name == "weather");
    CHECK(d[0].call_id.empty());
    CHECK(d[0].arguments_delta == R"({"city":"Zürich","b":1,"a":[0.5,1e+21,1e-7,2.5,0,true,null,"q\"\n"]})");
    CHECK(d[0].is_complete);
    CHECK(d[1].index == 1);
    CHECK(d[1].name == "search");
    CHECK(d[1].call_id == "call-7");
    CHECK(d[1].arguments_delta == R"({"q":"x"})");
    CHECK(d[1].is_complete);
    CHECK(d[2].index == 2);   // the counter runs across chunks
    CHECK(d[2].name == "read_theme");
    CHECK(d[2].arguments_delta == "{}");   // no args at all
    CHECK(d[2].is_complete);
    CHECK(out.chunks.back().second.finish_reason == "STOP");
}

TEST_CASE("gemini compact numbers follow JSON.stringify", "[gemini]")
{
    const std::vector<std::pair<std::string_view, std::string_view>> cases{
        {"0.1", "0.1"}, {"100", "100"}, {"1e2", "100"}, {"1.5e20", "150000000000000000000"},
        {"1e21", "1e+21"}, {"1.25e21", "1.25e+21"}, {"0.000001", "0.000001"}, {"1e-7", "1e-7"},
        {"-2.5e-8", "-2.5e-8"}, {"123.456", "123.456"}, {"-0.5", "-0.5"}, {"18446744073709551615", "18446744073709551615"},
        {"-9223372036854775808", "-9223372036854775808"}, {"1e400", "null"}, {"0e400", "0"}, {"-0.0e887", "0"}, {"5e-324", "5e-324"},
        {"1.7976931348623157e308", "1.7976931348623157e+308"}};
    for (const auto& [in, expected] : cases) {
        std::string out;
        toolstream::detail::append_compact_json(out, json::parse(in));
        CHECK(out == expected);
    }
    std::string out;
    toolstream::detail::append_compact_json(out, json::parse(R"({"s":"\u0001\u001f\u007f\/\\\b\f\r\t é"})"));
    CHECK(out == "{\"s\":\"\\u0001\\u001f\x7f/\\\\\\b\\f\\r\\t \xc3\xa9\"}");
}

TEST_CASE("gemini candidates are choices, each with its own call numbering", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, R"({"candidates":[)"
        R"({"content":{"parts":[{"text":"zero"},{"functionCall":{"name":"f","args":{}}}]},"index":0},)"
        R"({"content":{"parts":[{"functionCall":{"name":"g","args":{"x":1}}}]},"index":1,"finishReason":"STOP"}],)"
        R"("usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":5}})"));
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[0].first == 0);
    CHECK(out.chunks[0].second.content == "zero");
    CHECK(out.chunks[0].second.usage == toolstream::token_usage{3, 5});
    CHECK(out.chunks[1].first == 1);
    CHECK(!out.chunks[1].second.usage);   // usage is reported once per response
    CHECK(out.chunks[1].second.finish_reason == "STOP");
    REQUIRE(out.deltas(1).size() == 1);
    CHECK(out.deltas(0)[0].index == 0);
    CHECK(out.deltas(1)[0].index == 0);
    CHECK(out.deltas(1)[0].arguments_delta == R"({"x":1})");
    // Without `index`, a candidate's position is its choice.
    CHECK(!feed(conv, out, R"({"candidates":[{"content":{"parts":[{"text":"a"}]}},{"content":{"parts":[{"text":"b"}]}}]})"));
    REQUIRE(out.chunks.size() == 4);
    CHECK(out.chunks[2].first == 0);
    CHECK(out.chunks[3].first == 1);
    CHECK(out.chunks[3].second.content == "b");
}

TEST_CASE("gemini error bodies set the error, framed or raw, object or array", "[gemini]")
{
    const std::string_view bodies[] = {
        R"({"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}})",
        "[{\n  \"error\": {\n    \"code\": 429,\n    \"message\": \"Resource has been exhausted (e.g. check quota).\",\n"
        "    \"status\": \"RESOURCE_EXHAUSTED\"\n  }\n}\n]\n",
    };
    for (const auto body : bodies) {
        converter conv;
        recorder out;
        CHECK(!feed(conv, out, body));
        REQUIRE(out.chunks.size() == 1);
        CHECK(out.chunks[0].first == 0);
        CHECK(out.chunks[0].second.error == "Resource has been exhausted (e.g. check quota).");
    }
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, R"({"error":{"code":500,"status":"INTERNAL"}})"));
    REQUIRE(out.chunks.size() == 1);
    CHECK(out.chunks[0].second.error == R"({"code":500,"status":"INTERNAL"})");   // no message: the object
}

TEST_CASE("gemini raw error body through the SSE decoder", "[gemini]")
{
    const std::string body = "[{\r\n  \"error\": {\r\n    \"code\": 400,\r\n    \"message\": \"API key not valid.\",\r\n"
                             "    \"status\": \"INVALID_ARGUMENT\"\r\n  }\r\n}\r\n]";
    converter conv;
    toolstream::test::chunk_summary summary;
    toolstream::sse_decoder sse;
    auto visit = [&](const wire_event& ev) { CHECK(!conv.convert(ev, summary)); };
    CHECK(!sse.write(body, visit));
    CHECK(!sse.finish(visit));
    conv.finish(summary);
    CHECK(summary.error() == std::optional<std::string>("API key not valid."));
}

TEST_CASE("gemini invalid payloads are rejected and later events still convert", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(feed(conv, out, R"({"candidates":[{"content":)") == error::invalid_payload);
    CHECK(feed(conv, out, "42") == error::invalid_payload);
    CHECK(feed(conv, out, R"([{"error":{"message":"x"}}, 1])") == error::invalid_payload);
    CHECK(!feed(conv, out, " \r\n"));   // keep-alive: nothing
    CHECK(out.chunks.empty());
    CHECK(!feed(conv, out, response(R"({"text":"ok"})")));
    REQUIRE(out.chunks.size() == 1);
    CHECK(out.chunks[0].second.content == "ok");
}

TEST_CASE("gemini partialArgs stream one call as JSON text deltas", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, response(R"({"functionCall":{"name":"getWeather","willContinue":true},"thoughtSignature":"c2ln"})")));
    CHECK(!feed(conv, out, response(part_with_pieces({string_piece("$.location", "Bos", true)}))));
    CHECK(!feed(conv, out, response(part_with_pieces({string_piece("$.location", "ton", true)}))));
    CHECK(!feed(conv, out, response(part_with_pieces({string_piece("$.location", "", false)}))));
    CHECK(!feed(conv, out, response(R"({"functionCall":{"willContinue":true}})")));
    CHECK(!feed(conv, out, response(std::string(terminator))));
    CHECK(!feed(conv, out, response(R"({"text":""})", R"(,"finishReason":"STOP")")));
    const auto d = out.deltas();
    REQUIRE(d.size() == 4);   // pieces that add no text emit nothing
    CHECK(d[0].name == "getWeather");
    CHECK(d[0].arguments_delta.empty());
    CHECK(!d[0].is_complete);
    CHECK(d[1].arguments_delta == R"({"location":"Bos)");
    CHECK(d[1].name.empty());
    CHECK(d[2].arguments_delta == "ton");
    CHECK(!d[2].is_complete);
    CHECK(d[3].arguments_delta == R"("})");
    CHECK(d[3].is_complete);
    for (const auto& x : d)
        CHECK(x.index == 0);
    CHECK(out.chunks.back().second.finish_reason == "STOP");
    CHECK(out.chunks.back().second.tool_calls.empty());
}

TEST_CASE("gemini partialArgs: typed values, arrays of scalars, escaping, quoted names", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, response(std::string(open_call) + "," + part_with_pieces({
        piece("$.n", 42, false, "numberValue"),
        piece("$.f", -2.5, false, "numberValue"),
        piece("$.ok", true, false, "boolValue"),
        piece("$.none", "NULL_VALUE", false, "nullValue"),
        piece("$.list[0]", 1, false, "numberValue"),
        piece("$.list[1]", json::value(nullptr), false, "nullValue"),
        string_piece("$.list[2]", "tab\there \"q\" \\ é", false),
        string_piece("$['a b'].c", "x", false),
        string_piece("$[\"a b\"].d", "y", false),
        piece("$.neg", -7, false, "numberValue"),
    }) + "," + std::string(terminator))));
    REQUIRE(out.deltas().size() == 1);
    const std::string args = out.arguments(0);
    CHECK(args == R"({"n":42,"f":-2.5,"ok":true,"none":null,"list":[1,null,"tab\there \"q\" \\ é"],"a b":{"c":"x","d":"y"},"neg":-7})");
    CHECK(out.deltas()[0].is_complete);
}

TEST_CASE("gemini partialArgs: unusable pieces are ignored", "[gemini]")
{
    converter conv;
    recorder out;
    CHECK(!feed(conv, out, response(std::string(open_call) + "," + part_with_pieces({
        string_piece("$", "root", false),               // the arguments object itself
        string_piece("$[0]", "index at root", false),   // arguments are an object
        string_piece("$.a..b", "empty name", false),
        string_piece("$.a[x]", "bad index", false),
        string_piece("$['a\\'b']", "escaped quote", false),
        string_piece("a.b", "no dollar", false),
        R"({"jsonPath":"$.nothing"})",                  // no value
        R"({"stringValue":"no path"})",
        string_piece("$.kept", "yes", false),
    }, false))));
    CHECK(out.arguments(0) == R"({"kept":"yes"})");
    CHECK(out.deltas().back().is_complete);
}

TEST_CASE("gemini partialArgs: every split of a nested call across pieces, parts and events", "[gemini]")
{
    // Leaves of the expected arguments in document order: path, value, kind.
    struct leaf {
        std::string path;
        json::value value;
        const char* kind;
    };
    const std::vector<leaf> leaves{
        {"$.recipe.name", "Lasagne \"al forno\"", "stringValue"},
        {"$.recipe.ingredients[0].amount", "16 oz", "stringValue"},
        {"$.recipe.ingredients[0].name", "Noodles", "stringValue"},
        {"$.recipe.ingredients[1].amount", "1", "stringValue"},
        {"$.recipe.ingredients[1].name", "Egg", "stringValue"},
        {"$.recipe.steps[0]", "Preheat to 375°F", "stringValue"},
        {"$.recipe.steps[1]", "Bake", "stringValue"},
        {"$.recipe.servings", 4, "numberValue"},
        {"$.recipe.vegetarian", false, "boolValue"},
        {"$.recipe.rating", 4.5, "numberValue"},
        {"$.recipe.notes", nullptr, "nullValue"},
        {"$.tags[0]", "a", "stringValue"},
        {"$.tags[1]", "b\n", "stringValue"},
    };
    const std::string expected =
        R"({"recipe":{"name":"Lasagne \"al forno\"","ingredients":[{"amount":"16 oz","name":"Noodles"},)"
        R"({"amount":"1","name":"Egg"}],"steps":["Preheat to 375°F","Bake"],"servings":4,"vegetarian":false,)"
        R"("rating":4.5,"notes":null},"tags":["a","b\n"]})";
    REQUIRE(json::parse(expected).is_object());

    // The pieces Gemini would send; string leaf `split_leaf` is cut at byte `split_at` into two.
    auto make_pieces = [&](std::size_t split_leaf, std::size_t split_at) {
        std::vector<std::string> pieces;
        for (std::size_t i = 0; i < leaves.size(); ++i) {
            const auto& l = leaves[i];
            if (!l.value.is_string()) {
                pieces.push_back(piece(l.path, l.value, false, l.kind));
                continue;
            }
            const std::string_view text = l.value.get_string();
            if (i == split_leaf) {
                pieces.push_back(string_piece(l.path, text.substr(0, split_at), true));
                pieces.push_back(string_piece(l.path, text.substr(split_at), true));
            } else {
                pieces.push_back(string_piece(l.path, text, true));
            }
            pieces.push_back(string_piece(l.path, "", false));   // Gemini's closing piece
        }
        return pieces;
    };

    auto check_run = [&](const std::vector<std::string>& events) {
        converter conv;
        recorder out;
        for (const auto& e : events)
            REQUIRE(!feed(conv, out, e));
        conv.finish(out);
        const auto d = out.deltas();
        REQUIRE(!d.empty());
        std::string args;
        std::size_t completions = 0;
        for (const auto& x : d) {
            CHECK(x.index == 0);
            args += x.arguments_delta;
            completions += x.is_complete ? 1 : 0;
        }
        CHECK(d.front().name == "cookRecipe");
        CHECK(d.back().is_complete);
        CHECK(completions == 1);
        CHECK(args == expected);
    };

    std::size_t runs = 0;
    for (std::size_t leaf_index = 0; leaf_index < leaves.size(); ++leaf_index) {
        if (!leaves[leaf_index].value.is_string())
            continue;
        const std::string_view text = leaves[leaf_index].value.get_string();
        for (std::size_t at = 0; at <= text.size(); ++at) {
            if (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80)
                continue;   // a wire string holds whole characters
            const auto pieces = make_pieces(leaf_index, at);
            // One piece per part, one part per event.
            std::vector<std::string> events{response(open_call)};
            for (const auto& p : pieces)
                events.push_back(response(part_with_pieces({p})));
            events.push_back(response(terminator));
            check_run(events);
            // Everything in one event, pieces in one part.
            check_run({response(std::string(open_call) + "," + part_with_pieces(pieces) + "," + std::string(terminator))});
            runs += 2;
        }
    }
    // Pieces cut into two groups at every point: two parts of one event, or two events.
    const auto pieces = make_pieces(0, 3);
    for (std::size_t k = 0; k <= pieces.size(); ++k) {
        const std::vector<std::string> first(pieces.begin(), pieces.begin() + static_cast<std::ptrdiff_t>(k));
        const std::vector<std::string> second(pieces.begin() + static_cast<std::ptrdiff_t>(k), pieces.end());
        check_run({response(std::string(open_call) + "," + part_with_pieces(first) + "," + part_with_pieces(second)),
                   response(terminator)});
        check_run({response(std::string(open_call) + "," + part_with_pieces(first)),
                   response(part_with_pieces(second) + "," + std::string(terminator))});
        // The last part without willContinue ends the call: no terminator needed.
        check_run({response(open_call), response(part_with_pieces(first)), response(part_with_pieces(second, false))});
        runs += 3;
    }
    CHECK(runs > 100);
}

TEST_CASE("gemini partialArgs completion: missing terminator, next call, finishReason, end of input", "[gemini]")
{
    SECTION("a part without willContinue completes; a late terminator is ignored")
    {
        converter conv;
        recorder out;
        CHECK(!feed(conv, out, response(open_call)));
        CHECK(!feed(conv, out, response(part_with_pieces({piece("$.ops[0].price", 0.5, false, "numberValue")}, false))));
        CHECK(!feed(conv, out, response(terminator)));
        CHECK(!feed(conv, out, response(part_with_pieces({string_piece("$.stray", "x", false)}))));
        CHECK(!feed(conv, out, response(R"({"text":""})", R"(,"finishReason":"STOP")")));
        conv.finish(out);
        const auto d = out.deltas();
        REQUIRE(d.size() == 2);
        CHECK(out.arguments(0) == R"({"ops":[{"price":0.5}]})");
        CHECK(d[1].is_complete);
    }
    SECTION("finishReason completes an open call, in the same chunk")
    {
        converter conv;
        recorder out;
        CHECK(!feed(conv, out, response(open_call)));
        CHECK(!feed(conv, out, response(part_with_pieces({string_piece("$.q", "partial", true)}))));
        CHECK(!feed(conv, out, response(R"({"text":""})", R"(,"finishReason":"STOP")")));
        REQUIRE(out.chunks.size() == 3);
        const auto& last = out.chunks.back().second;
        CHECK(last.finish_reason == "STOP");
        REQUIRE(last.tool_calls.size() == 1);
        CHECK(last.tool_calls[0].arguments_delta == R"("})");
        CHECK(last.tool_calls[0].is_complete);
        CHECK(out.arguments(0) == R"({"q":"partial"})");
    }
    SECTION("a new call completes the open one")
    {
        converter conv;
        recorder out;
        CHECK(!feed(conv, out, response(open_call)));
        CHECK(!feed(conv, out, response(part_with_pieces({string_piece("$.id", "A", true)}))));
        CHECK(!feed(conv, out, response(R"({"functionCall":{"name":"read_screen","willContinue":true}})")));
        CHECK(!feed(conv, out, response(part_with_pieces({string_piece("$.id", "B", false)}, false))));
        const auto d = out.deltas();
        REQUIRE(d.size() == 5);
        CHECK(d[2].index == 0);
        CHECK(d[2].is_complete);
        CHECK(d[3].index == 1);
        CHECK(d[3].name == "read_screen");
        CHECK(!d[3].is_complete);
        CHECK(d[4].index == 1);
        CHECK(out.arguments(0) == R"({"id":"A"})");
        CHECK(out.arguments(1) == R"({"id":"B"})");
        CHECK(d.back().is_complete);
    }
    SECTION("a streamed call keeps its id; an id repeated on a continuation does not start a call")
    {
        converter conv;
        recorder out;
        CHECK(!feed(conv, out, response(R"({"functionCall":{"name":"f","id":"fc-1","willContinue":true}})")));
        CHECK(!feed(conv, out, response(R"({"functionCall":{"id":"fc-1","partialArgs":[{"jsonPath":"$.a","boolValue":true}]}})")));
        const auto d = out.deltas();
        REQUIRE(d.size() == 2);
        CHECK(d[0].call_id == "fc-1");
        CHECK(d[1].index == 0);
        CHECK(d[1].call_id == "fc-1");
        CHECK(d[1].is_complete);
        CHECK(out.arguments(0) == R"({"a":true})");
    }
    SECTION("a streamed call with no pieces has arguments {}")
    {
        converter conv;
        recorder out;
        CHECK(!feed(conv, out, response(std::string(open_call) + "," + std::string(terminator))));
        REQUIRE(out.deltas().size() == 1);
        CHECK(out.deltas()[0].arguments_delta == "{}");
        CHECK(out.deltas()[0].is_complete);
    }
    SECTION("end of input closes the text but does not claim completion")
    {
        converter conv;
        recorder out;
        CHECK(!feed(conv, out, response(open_call)));
        CHECK(!feed(conv, out, response(part_with_pieces({string_piece("$.a.b[0]", "cut", true)}))));
        conv.finish(out);
        const auto d = out.deltas();
        REQUIRE(d.size() == 3);
        CHECK(d[2].arguments_delta == R"("]}})");
        CHECK(!d[2].is_complete);
        CHECK(out.arguments(0) == R"({"a":{"b":["cut"]}})");
        conv.finish(out);   // nothing left
        CHECK(out.deltas().size() == 3);
    }
}

TEST_CASE("gemini steady state reuses the chunk's argument buffer", "[gemini]")
{
    converter conv;
    const char* buffer = nullptr;
    std::size_t seen = 0;
    std::size_t same = 0;
    auto emit = [&](std::size_t, const chunk_response& c) {
        if (c.tool_calls.empty())
            return;
        const char* p = c.tool_calls[0].arguments_delta.data();
        same += (seen > 1 && p == buffer) ? 1 : 0;
        buffer = p;
        ++seen;
    };
    const std::string long_text(200, 'x');
    CHECK(!conv.convert(wire_event{{}, response(open_call)}, emit));
    const std::string event = response(part_with_pieces({string_piece("$.text", long_text, true)}));
    for (int i = 0; i < 20; ++i)
        CHECK(!conv.convert(wire_event{{}, event}, emit));
    CHECK(seen == 21);
    CHECK(same == 19);
}

TEST_CASE("gemini fixtures match their expected results", "[gemini][fixtures]")
{
    const auto fixtures = toolstream::test::load_fixtures({"gemini"});
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set (or holds no gemini fixtures): skipped");
        return;
    }
    CHECK(fixtures.size() == 9);
    for (const auto& f : fixtures) {
        const std::string bytes = toolstream::test::read_file(f.stream_path);
        for (const std::size_t piece_size : {bytes.size(), std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
            INFO(f.name << " written in pieces of " << piece_size);
            converter conv;
            toolstream::test::chunk_summary summary;
            toolstream::sse_decoder sse;
            std::size_t events = 0;
            auto visit = [&](const wire_event& ev) {
                ++events;
                CHECK(!conv.convert(ev, summary));
            };
            for (std::size_t at = 0; at < bytes.size(); at += piece_size)
                CHECK(!sse.write(std::string_view(bytes).substr(at, piece_size), visit));
            CHECK(!sse.finish(visit));
            conv.finish(summary);
            CHECK(events > 0);
            CHECK(toolstream::test::compare_with_expected(summary.to_json(), f.expected, false) == "");
            // Stronger than the README asks: the synthesized text is JSON.stringify's, byte for byte.
            CHECK(toolstream::test::compare_with_expected(summary.to_json(), f.expected, true) == "");
            // Every call the provider finished is marked complete.
            for (const auto& [index, choice] : summary.choices())
                for (const auto& call : choice.calls)
                    CHECK(call.complete);
        }
    }
}

TEST_CASE("gemini: responseId and modelVersion come once; finish reasons are normalised", "[gemini][finish]")
{
    using toolstream::finish_kind;
    STATIC_REQUIRE(converter::normalise_finish("STOP") == finish_kind::stop);
    STATIC_REQUIRE(converter::normalise_finish("MAX_TOKENS") == finish_kind::length);
    for (const char* filtered : {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"})
        CHECK(converter::normalise_finish(filtered) == finish_kind::content_filter);
    for (const char* failed : {"MALFORMED_FUNCTION_CALL", "OTHER", "LANGUAGE", "FINISH_REASON_UNSPECIFIED", "NEW_REASON"})
        CHECK(converter::normalise_finish(failed) == finish_kind::error);

    converter conv;
    recorder out;
    const std::string_view tail = R"(,"responseId":"b36LacjwM6","modelVersion":"gemini-2.5-flash"})";
    CHECK(!feed(conv, out, R"({"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"index":0}])" + std::string(tail)));
    CHECK(!feed(conv, out, R"({"candidates":[{"content":{"role":"model","parts":[{"text":"!"}]},"finishReason":"MAX_TOKENS","index":0}])" + std::string(tail)));
    REQUIRE(out.chunks.size() == 2);
    CHECK(out.chunks[0].second.response_id == "b36LacjwM6");
    CHECK(out.chunks[0].second.model == "gemini-2.5-flash");
    CHECK(!out.chunks[0].second.finish);
    CHECK(out.chunks[1].second.response_id.empty());
    CHECK(out.chunks[1].second.model.empty());
    CHECK(out.chunks[1].second.finish_reason == "MAX_TOKENS");
    CHECK(out.chunks[1].second.finish == finish_kind::length);

    CHECK(!feed(conv, out, R"({"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}})"));
    REQUIRE(out.chunks.size() == 3);
    CHECK(out.chunks[2].second.error == "Resource exhausted");
    CHECK(out.chunks[2].second.finish == finish_kind::error);
}
