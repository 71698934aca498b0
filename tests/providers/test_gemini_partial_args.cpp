// provider_converter<gemini>, Vertex's streamed function-call arguments (partialArgs): pieces
// turned into JSON text deltas, every split of a call across pieces, parts and events, and what
// completes a call.
#include "catch_compat.hpp"
#include "providers/gemini_support.hpp"

#include <toolstream/providers/gemini.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace test_gemini_partial_args {

using namespace toolstream::test::gemini_support;

namespace {

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
    CHECK(out.emitted.back().chunk.finish_reason == "STOP");
    CHECK(out.emitted.back().chunk.tool_calls.empty());
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
        REQUIRE(out.emitted.size() == 3);
        const auto& last = out.emitted.back().chunk;
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

} // namespace test_gemini_partial_args
