// Native tool calls: reference bugs we must not have, Boost 1.81 workarounds, chunk invariance.
#include <toolstream/detail/file_arguments_decoder.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"

#include <boost/json.hpp>

#include <array>
#include <random>

namespace test_api_edge_cases {

using namespace toolstream;

namespace {

struct run_result {
    std::vector<owned_segment_event> events;
    std::vector<tool_invocation> invocations;
    bool operator==(const run_result&) const = default;
};

// Streams one call: the name on the first fragment (or on fragment `name_at`), arguments cut
// into `pieces`, then the provider's completion signal unless `complete` is false.
run_result stream_call(std::string_view name, const std::vector<std::string_view>& pieces, bool complete = true,
                       std::size_t name_at = 0)
{
    handler<api_tool_call> h;
    chunk_response c;
    c.tool_calls.resize(1);
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        c.tool_calls[0] = {0, i == 0 ? "call_x" : "", i == name_at ? std::string(name) : "", std::string(pieces[i]), false};
        REQUIRE(!h.feed(c));
    }
    if (name_at >= pieces.size()) {
        c.tool_calls[0] = {0, "", std::string(name), "", false};
        REQUIRE(!h.feed(c));
    }
    if (complete) {
        c.tool_calls[0] = {0, "", "", "", true};
        REQUIRE(!h.feed(c));
    }
    REQUIRE(!h.finalize());
    return {test::coalesce(h.events()), h.invocations()};
}

void require_same_at_every_chunking(std::string_view name, std::string_view args)
{
    const auto whole = stream_call(name, {args});
    for (const auto& pieces : test::chunkings(args)) {
        const auto split = stream_call(name, pieces);
        INFO("pieces: " << pieces.size() << "\n" << test::dump(split.events) << "vs\n" << test::dump(whole.events));
        REQUIRE(split == whole);
    }
}

struct decoded {
    std::string body;
    std::vector<std::string> paths;
};

detail::file_argument_callbacks collect(decoded& d)
{
    return {&d, [](void* p, std::string_view s) { static_cast<decoded*>(p)->body.append(s); },
            [](void* p, std::string_view s) { static_cast<decoded*>(p)->paths.emplace_back(s); }};
}

} // namespace

TEST_CASE("api: every input is chunk-invariant at every split position", "[api][invariance]")
{
    const std::vector<std::pair<std::string_view, std::string_view>> inputs{
        {"write_file", R"({"path":"src/a.py","content":"def f():\n    return \"x\\\\y\"\n"})"},
        {"write_file", R"({"content":"late path \u00e9\ud83d\ude00","path":"late.txt","mode":"w"})"},
        {"patch_file", R"( {"patch":"@@ -1 +1 @@\n-a\n+b\n", "path" : "p.diff"} )"},
        {"write_file", R"({"path":"only-path.txt"})"},
        {"write_file", R"({"path":"bad.txt","content":"unterminated)"},
        {"get_weather", R"({"city":"Paris","days":[1,2,{"x":null}]})"},
        {"get_weather", R"({"city": "Par)"},
        {"noop", ""},
        {"write_file", R"({"path":"e.txt","content":"ok\ud83d\u0041 never"})"},
        {"write_file", R"({"path":"e.txt","content":"ok\q"})"},
        {"write_file", "{\"path\":\"e.txt\",\"content\":\"ok\x01\"}"},
        {"write_file", "{\"path\":\"e.txt\",\"content\":\"ok\xe2\x82\"}"},
        {"write_file", R"({"path":"e.txt","content":"ok \u00e9\ud83d\ude00","n":[1,{"a":true}]} x)"},
    };
    for (const auto& [name, args] : inputs) {
        INFO(name << " " << args);
        require_same_at_every_chunking(name, args);
    }
}

TEST_CASE("api: a name that arrives after argument deltas still makes the call (reference bug 7)", "[api][bugs]")
{
    const std::string_view args = R"({"path":"n.txt","content":"abc"})";
    for (std::size_t name_at : {std::size_t{1}, std::size_t{3}, std::size_t{99}}) {
        auto r = stream_call("write_file", {args.substr(0, 5), args.substr(5, 10), args.substr(15), ""}, true, name_at);
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].name == "write_file");
        CHECK(r.invocations[0].is_complete());
        CHECK(r.invocations[0].arguments.at("content") == "abc");
        CHECK(test::content_of_type(r.events, segment_type::write_file) == "abc");
    }
    auto generic = stream_call("lookup", {R"({"q":)", R"("x"})"}, true, 2);
    REQUIRE(generic.invocations.size() == 1);
    CHECK(generic.invocations[0].arguments == boost::json::object{{"q", "x"}});
}

TEST_CASE("api: \\u escapes, surrogate pairs and \\b \\f \\/ decode at any split (reference bug 2)", "[api][bugs]")
{
    auto r = stream_call("write_file", {R"({"path":"u","content":"A\u00)", R"(e9B\nC"})"});
    CHECK(r.invocations.at(0).arguments.at("content") == "A\xc3\xa9" "B\nC");
    auto empty = stream_call("write_file", {R"({"path":"e","content":""})"});
    REQUIRE(empty.invocations.size() == 1);
    CHECK(empty.invocations[0].is_complete());
    CHECK(empty.invocations[0].arguments.at("content") == "");
}

TEST_CASE("api: streams that end inside a call are incomplete, never complete (reference bug 3)", "[api][bugs]")
{
    auto file = stream_call("write_file", {R"({"path":"t.txt","content":"partial)"}, false);
    REQUIRE(file.invocations.size() == 1);
    CHECK(file.invocations[0].status == invocation_status::incomplete);
    CHECK(file.events.back().status == segment_status::incomplete);
    CHECK(test::content_of_type(file.events, segment_type::write_file) == "partial");

    // Parseable arguments are still incomplete without the provider's completion signal.
    auto generic = stream_call("run", {R"({"cmd":"ls"})"}, false);
    CHECK(generic.invocations.at(0).status == invocation_status::incomplete);
}

TEST_CASE("api: malformed arguments give invalid_arguments with the raw text kept", "[api]")
{
    auto generic = stream_call("f", {R"({"a": tru)", R"(e,,})"});
    REQUIRE(generic.invocations.size() == 1);
    CHECK(generic.invocations[0].status == invocation_status::invalid_arguments);
    CHECK(generic.invocations[0].arguments_raw == R"({"a": true,,})");
    CHECK(!generic.invocations[0].error.empty());

    auto not_object = stream_call("f", {"[1,2]"});
    CHECK(not_object.invocations.at(0).status == invocation_status::invalid_arguments);

    auto file = stream_call("write_file", {R"({"path":"x","content":"ok"} trailing)"});
    CHECK(file.invocations.at(0).status == invocation_status::invalid_arguments);
    CHECK(file.invocations.at(0).arguments_raw == R"({"path":"x","content":"ok"} trailing)");

    auto truncated_but_signalled = stream_call("write_file", {R"({"path":"x","content":"cut by max_tokens)"});
    CHECK(truncated_but_signalled.invocations.at(0).status == invocation_status::invalid_arguments);
}

TEST_CASE("api: a write_file without a path is reported, not dropped", "[api]")
{
    auto r = stream_call("write_file", {R"({"content":"body only"})"});
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].status == invocation_status::invalid_arguments);
    CHECK(r.invocations[0].error == "missing required argument 'path'");
    CHECK(test::content_of_type(r.events, segment_type::write_file) == "body only");
}

TEST_CASE("api: a call that never gets a name is invalid, with its fragments kept", "[api]")
{
    handler<api_tool_call> h;
    chunk_response c;
    c.tool_calls.push_back({3, "call_q", "", R"({"a":1})", true});
    REQUIRE(!h.feed(c));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].status == invocation_status::invalid_arguments);
    CHECK(h.invocations()[0].arguments_raw == R"({"a":1})");
}

TEST_CASE("api: repeated ids and names are ignored, fragments after completion too", "[api]")
{
    handler<api_tool_call> h;
    chunk_response c;
    c.tool_calls = {{0, "call_a", "f", R"({"k":)", false}};
    REQUIRE(!h.feed(c));
    c.tool_calls = {{0, "call_a", "f", R"("v"})", false}};
    REQUIRE(!h.feed(c));
    c.tool_calls = {{0, "", "", "", true}};
    REQUIRE(!h.feed(c));
    c.tool_calls = {{0, "", "", "junk", false}};
    REQUIRE(!h.feed(c));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::object{{"k", "v"}});
    CHECK(h.events().size() == 4);
}

TEST_CASE("JsonStringFieldExtractor vectors: path completes, content streams decoded", "[api][decoder]")
{
    decoded d;
    auto cb = collect(d);
    detail::file_arguments_decoder dec("content");
    REQUIRE(!dec.write(R"({"path":"a.txt","content":"hel)", cb));
    CHECK(d.paths == std::vector<std::string>{"a.txt"});
    CHECK(d.body == "hel");
    REQUIRE(!dec.write(R"(lo\)", cb));
    CHECK(d.body == "hello");
    REQUIRE(!dec.write("nwo", cb));
    CHECK(d.body == "hello\nwo");
    REQUIRE(!dec.write(R"(rld"})", cb));
    CHECK(d.body == "hello\nworld");
    CHECK(dec.done());
}

TEST_CASE("Boost 1.81 #876: a suspended \\u escape followed by a 4 KiB+ fragment", "[api][boost]")
{
    decoded d;
    auto cb = collect(d);
    detail::file_arguments_decoder dec("content");
    REQUIRE(!dec.write(R"({"path":"p","content":"\u20)", cb));
    const std::string big = "AC" + std::string(6000, 'x') + "\"}";
    REQUIRE(!dec.write(big, cb));
    CHECK(dec.done());
    CHECK(d.body == "\xe2\x82\xac" + std::string(6000, 'x'));
}

TEST_CASE("Boost 1.81 #814: a fragment ending exactly where the decoder starts", "[api][boost]")
{
    constexpr std::string_view args = R"({"path":"p","content":"abc"})";   // 28 bytes
    struct layout {
        std::array<char, 32> buffer{};
        detail::file_arguments_decoder dec{"content"};
    } s;
    static_assert(alignof(detail::file_arguments_decoder) <= 32);
    const char* end = s.buffer.data() + s.buffer.size();
    REQUIRE(static_cast<const void*>(end) == static_cast<const void*>(&s.dec));
    char* begin = s.buffer.data() + s.buffer.size() - args.size();
    std::copy(args.begin(), args.end(), begin);
    decoded d;
    auto cb = collect(d);
    REQUIRE(!s.dec.write(std::string_view(begin, args.size()), cb));
    CHECK(s.dec.done());
    CHECK(d.body == "abc");
}

TEST_CASE("property: concatenated CONTENT equals the decoded content at random chunkings", "[api][property]")
{
    std::mt19937 rng(20261122);
    const std::vector<std::string> alphabet{"a", "Z", " ", "\"", "\\", "\n", "\t", "\r", "/", "{", "}",
                                            "\xc3\xa9", "\xe2\x86\x92", "\xf0\x9f\x98\x80", "\x01", "<", "]]"};
    for (int round = 0; round < 300; ++round) {
        std::string content;
        const std::size_t len = rng() % 200;
        for (std::size_t i = 0; i < len; ++i)
            content += alphabet[rng() % alphabet.size()];
        const boost::json::object obj{{"path", "gen.txt"}, {"content", content}};
        const std::string args = boost::json::serialize(obj);
        std::vector<std::string_view> pieces;
        for (std::size_t at = 0; at < args.size();) {
            const std::size_t n = std::min<std::size_t>(args.size() - at, 1 + rng() % 7);
            pieces.push_back(std::string_view(args).substr(at, n));
            at += n;
        }
        auto r = stream_call("write_file", pieces);
        REQUIRE(test::content_of_type(r.events, segment_type::write_file) == content);
        REQUIRE(r.invocations.at(0).arguments == obj);
    }
}

} // namespace test_api_edge_cases
