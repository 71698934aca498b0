// event_template: the bytes of an event around one string value, learnt from a parsed event and a
// probe, then used to read the events of that shape without a parse. The converters' output with
// shapes is compared with the DOM's in test_openai_chat_sax.cpp; here, what a shape accepts.
#include <toolstream/providers/detail/event_template.hpp>

#include "catch_compat.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <random>
#include <string>
#include <string_view>

namespace test_event_template {

namespace {

namespace td = toolstream::detail;

const std::string before = R"({"id":"c1","choices":[{"index":0,"delta":{"content":")";
const std::string after = R"("},"finish_reason":null}]})";

std::string event(std::string_view value) { return before + std::string(value) + after; }

/// The string at choices[0].delta.content as Boost.JSON reads `data`; "<invalid>" when it is no JSON.
std::string content_of(std::string_view data)
{
    boost::system::error_code ec;
    const boost::json::value v = boost::json::parse(data, ec);
    if (ec)
        return "<invalid>";
    const auto* s = v.at("choices").at(0).at("delta").at("content").if_string();
    return s != nullptr ? std::string(*s) : "<not a string>";
}

/// A learner whose probe is read by Boost.JSON at choices[0].delta.content.
bool learn(td::event_template& t, std::string_view data, std::string_view key = "\"content\"")
{
    const std::array<std::string_view, 2> ignored = {"\"seq\"", "\"pad\""};
    return t.learn(data, key, ignored, [](std::string_view probe, std::string_view value) { return content_of(probe) == value; });
}

} // namespace

TEST_CASE("event_template: a learnt shape reads the events that differ only in that string", "[event_template]")
{
    td::event_template t;
    std::string out;
    CHECK_FALSE(t.read(event("Hi"), out));   // nothing learnt yet
    REQUIRE(learn(t, event("Hi")));
    CHECK(t.read(event("there"), out));
    CHECK(out == "there");
    CHECK(t.read(event(""), out));
    CHECK(out.empty());
    CHECK(t.read(event(R"(q\"uote\\ \n \u00e9\ud83d\ude00 é)"), out));
    CHECK(out == "q\"uote\\ \n \xc3\xa9\xf0\x9f\x98\x80 \xc3\xa9");
    // Other bytes around it: not this shape.
    CHECK_FALSE(t.read(R"({"id":"c2","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]})", out));
    CHECK_FALSE(t.read(event("x") + " ", out));
}

TEST_CASE("event_template: a value that is not one whole string between the shape's bytes is refused", "[event_template]")
{
    td::event_template t;
    REQUIRE(learn(t, event("Hi")));
    std::string out;
    // Each of these is an event of another structure, or no JSON: a parse must read it.
    for (const std::string_view value : {
             std::string_view(R"(a","refusal":"b)"),   // closes the string early: another key follows
             std::string_view(R"(a\)"),                // escapes the shape's closing quote
             std::string_view("a\x01"),                // a raw control character
             std::string_view("a\xff"),                // not UTF-8
             std::string_view("\xe2\x82"),             // a cut UTF-8 character
             std::string_view(R"(\u12)"),              // a short \u escape
             std::string_view(R"(\ud800)"),            // a lone surrogate
             std::string_view(R"(\x)"),                // no such escape
         }) {
        INFO(value);
        CHECK_FALSE(t.read(event(value), out));
    }
}

TEST_CASE("event_template: what a shape reads is what Boost.JSON reads, for random values", "[event_template]")
{
    td::event_template t;
    REQUIRE(learn(t, event("seed")));
    struct piece {
        std::string_view text;
        bool clean;   // valid inside a string whatever comes before or after it
    };
    const piece pieces[] = {{"a", true}, {"\xc3\xa9", true}, {R"(\")", true}, {R"(\\)", true}, {R"(\n)", true},
                            {R"(\u00e9)", true}, {R"(\ud83d\ude00)", true}, {"}", true}, {",", true}, {" ", true},
                            {"\"", false}, {"\\", false}, {"\x01", false}, {"\xff", false}, {R"(\u12)", false},
                            {R"(\ud800)", false}, {R"(",")", false}, {"\xe2\x82", false}};
    std::mt19937 rng(23);
    std::string out;
    std::size_t read = 0;
    for (int round = 0; round < 5000; ++round) {
        std::string value;
        bool clean = true;
        const std::size_t n = rng() % 6;
        for (std::size_t i = 0; i < n; ++i) {
            const piece& p = pieces[rng() % std::size(pieces)];
            value += p.text;
            clean = clean && p.clean;
        }
        const std::string data = event(value);
        INFO(data);
        if (content_of(data) != "<invalid>") {   // JSON: matches() finds what read() checks
            std::string scratch;
            CHECK(t.matches(data) == t.read(data, scratch));
        }
        if (t.read(data, out)) {
            ++read;
            CHECK(out == content_of(data));   // accepted only what Boost accepts, and read the same string
        } else {
            CHECK_FALSE(clean);
        }
    }
    CHECK(read > 500);
}

TEST_CASE("event_template: a key found outside the field read teaches no shape", "[event_template]")
{
    td::event_template t;
    std::string out;
    // The field read is spelled with an escape; the only raw "content" is an unread field's.
    const std::string decoy = R"({"choices":[{"delta":{"con\u0074ent":"real"}}],"x":{"content":"decoy"}})";
    CHECK(content_of(decoy) == "real");
    CHECK_FALSE(learn(t, decoy));
    CHECK_FALSE(t.read(decoy, out));
    // A key found twice, or not followed by a string, teaches none either.
    CHECK_FALSE(learn(t, R"({"choices":[{"delta":{"content":"a"}}],"content":"b"})"));
    CHECK_FALSE(learn(t, R"({"choices":[{"delta":{"content":null}}]})"));
    // Spaces around the colon are part of the shape.
    const std::string spaced = R"({"choices": [{"delta": {"content" : "a"}}]})";
    REQUIRE(learn(t, spaced));
    CHECK(t.read(R"({"choices": [{"delta": {"content" : "bc"}}]})", out));
    CHECK(out == "bc");
}

TEST_CASE("event_template: lessons wait twice as long after each one, up to max_wait, until a shape is read",
          "[event_template]")
{
    td::event_template t;
    std::size_t expected_wait = 1;
    for (int lesson = 0; lesson < 10; ++lesson) {
        REQUIRE(t.lesson_due());
        CHECK_FALSE(learn(t, R"({"choices":[]})"));   // no key: a failed lesson
        std::size_t waited = 0;
        while (!t.lesson_due())
            ++waited;
        CHECK(waited == expected_wait);
        expected_wait = std::min(expected_wait * 2, td::event_template::max_wait);
    }
    REQUIRE(learn(t, event("a")));
    std::string out;
    REQUIRE(t.read(event("b"), out));   // a shape read: the next lesson is due at once
    CHECK(t.lesson_due());
}

TEST_CASE("event_template: events over max_event teach no shape", "[event_template][large]")
{
    td::event_template t;
    CHECK_FALSE(learn(t, event(std::string(td::event_template::max_event, 'a'))));
    REQUIRE(learn(t, event("a")));
    std::string out;
    const std::string big(std::size_t{4} << 20, 'b');   // but a learnt shape reads any size
    CHECK(t.read(event(big), out));
    CHECK(out == big);
}

TEST_CASE("event_template: the values of ignored keys may change, within their kind and length", "[event_template]")
{
    const auto with = [](std::string_view seq, std::string_view pad, std::string_view value) {
        return R"({"seq":)" + std::string(seq) + R"(,"choices":[{"delta":{"content":")" + std::string(value) +
               R"("}}],"pad":")" + std::string(pad) + R"("})";
    };
    td::event_template t;
    REQUIRE(learn(t, with("7", "abc", "Hi")));
    std::string out;
    CHECK(t.read(with("8", R"(x\\y\u00e9)", "there"), out));
    CHECK(out == "there");
    CHECK(t.read(with("-12345678901234567", "", "a"), out));
    CHECK(t.read(with("0", std::string(td::event_template::max_ignored, 'p'), "b"), out));
    CHECK(out == "b");
    // Not an integer of JSON, no string, too long, or another structure: a parse must read it.
    for (const std::string_view seq : {"07", "1.5", "1e3", "-", "\"7\"", "null", "12345678901234567890"}) {
        INFO(seq);
        CHECK_FALSE(t.read(with(seq, "abc", "c"), out));
    }
    CHECK_FALSE(t.read(with("9", std::string(td::event_template::max_ignored + 1, 'p'), "d"), out));
    CHECK_FALSE(t.read(with("9", "a\"", "d"), out));
    CHECK_FALSE(t.read(with("9", "a\x01", "d"), out));
    CHECK_FALSE(t.read(with("9", R"(a","x":")", "d"), out));
    // An ignored key whose value is neither, or that is found twice, is part of the shape, byte
    // for byte.
    REQUIRE(learn(t, with("null", "abc", "a")));
    CHECK(t.read(with("null", "abc", "e"), out));
    CHECK(out == "e");
    CHECK(t.read(with("null", "xyz", "e"), out));
    CHECK_FALSE(t.read(with("1", "abc", "e"), out));
    const std::string long_pad(td::event_template::max_ignored + 1, 'p');
    const auto padded_first = [&](std::string_view seq, std::string_view value) {
        return R"({"pad":")" + long_pad + R"(","seq":)" + std::string(seq) + R"(,"choices":[{"delta":{"content":")" +
               std::string(value) + R"("}}]})";
    };
    REQUIRE(learn(t, padded_first("5", "a")));
    CHECK(t.read(padded_first("6", "b"), out));
    CHECK(out == "b");
    const std::string twice = R"({"seq":1,"choices":[{"delta":{"content":"a"}}],"x":{"seq":1}})";
    REQUIRE(learn(t, twice));
    CHECK(t.read(R"({"seq":1,"choices":[{"delta":{"content":"bb"}}],"x":{"seq":1}})", out));
    CHECK_FALSE(t.read(R"({"seq":2,"choices":[{"delta":{"content":"bb"}}],"x":{"seq":1}})", out));
}

} // namespace test_event_template
