// string_value_feed: an event_sax handler fed through it sees what a plain Boost.JSON parse of the
// whole payload gives it (every key and scalar, in order, and the same verdict), while the long or
// escaped string values after a `:` are decoded outside the parser.
#include "catch_compat.hpp"
#include "support/fixtures.hpp"

#include <toolstream/detail/sliced_write.hpp>
#include <toolstream/providers/detail/event_sax.hpp>
#include <toolstream/providers/detail/string_value_feed.hpp>

#include <boost/json/basic_parser_impl.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace test_string_value_feed {

namespace {

namespace td = toolstream::detail;

// Enters every container and logs every key and scalar, each on its own line. Each key gets a
// place of its own, as event_sax takes a place named twice in one object for a repeated key.
class value_log : public td::event_sax<value_log> {
public:
    enum place : td::sax_place { skip = td::sax_skip, root, value };
    static constexpr td::sax_place root_place = root;

    std::string log;

    td::sax_place key(td::sax_place, std::string_view k)
    {
        log.append("key ").append(k).append("\n");
        return static_cast<td::sax_place>(value + keys_++ % 60);
    }
    static td::sax_place element(td::sax_place) noexcept { return value; }
    td::sax_open open(td::sax_place, bool is_object)
    {
        log.append(is_object ? "{\n" : "[\n");
        return td::sax_open::enter;
    }
    bool close(td::sax_place)
    {
        log.append("end\n");
        return true;
    }
    std::string* string_target(td::sax_place) { return &string_; }
    bool string_end(td::sax_place)
    {
        log.append("string ").append(string_).append("\n");
        string_.clear();
        return true;
    }
    bool number(td::sax_place, const td::sax_number& n)
    {
        log.append("number ").append(std::to_string(n.i + static_cast<std::int64_t>(n.u))).append("\n");
        return true;
    }
    bool literal(td::sax_place, td::sax_literal l)
    {
        log.append("literal ").append(std::to_string(static_cast<int>(l))).append("\n");
        return true;
    }

private:
    std::string string_;
    std::size_t keys_ = 0;
};

struct outcome {
    std::string log;
    bool valid = false;

    bool operator==(const outcome&) const = default;
};

// Boost.JSON alone: the whole payload, no feed.
outcome plain_parse(std::string_view text)
{
    unsigned char guard = 0;   // the parser must not be the first object (Boost 1.81 #814)
    (void)guard;
    boost::json::basic_parser<value_log> parser{boost::json::parse_options{}};
    parser.handler().begin();
    toolstream::error_code ec;
    const std::size_t used = td::write_sliced(parser, text, false, ec);
    return {parser.handler().log, !ec && used == text.size() && parser.done()};
}

struct fed_parse {
    outcome result;
    std::size_t decoded = 0;   // the values string_value_feed decoded itself
};

fed_parse feed_parse(std::string_view text)
{
    unsigned char guard = 0;
    (void)guard;
    boost::json::basic_parser<value_log> parser{boost::json::parse_options{}};
    parser.handler().begin();
    td::string_value_feed feed;
    toolstream::error_code ec;
    const std::size_t used = feed.write(parser, text, ec);
    return {{parser.handler().log, !ec && used == text.size() && parser.done()}, feed.values_decoded()};
}

// A file body as a provider sends it inside `arguments`: escaped twice, non-ASCII raw and as
// \u escapes, about `size` bytes.
std::string escaped_body(std::size_t size)
{
    std::string s;
    while (s.size() < size)
        s += R"(line \"quoted\" \\ back\\nslash caf\u00e9 \ud83d\ude00 r\u00e9sum\u00e9 \t tab ü\n)";
    return s;
}

std::string padded(std::string body)   // past string_value_feed::min_payload
{
    return body + std::string(td::string_value_feed::min_payload, ' ');
}

} // namespace

TEST_CASE("string_value_feed gives the handler what a whole parse gives it", "[sax][feed]")
{
    const std::string body = escaped_body(20000);
    const std::vector<std::string> valid = {
        R"({"choices":[{"delta":{"tool_calls":[{"function":{"arguments":")" + body + R"("}}]}}]})",
        R"({"a" : ")" + body + R"(" , "b":"short","c":[")" + body + R"(", 1, true, null]})",
        R"({"key before a long one":"x","long":")" + std::string(5000, 'p') + R"("})",
        R"({"k":"\"","l":")" + body + R"(","m":"\\","n":")" + body + "\"}",
        R"({")" + body + R"(":")" + body + R"("})",   // a long key: the parser decodes it
        padded(R"({"s":"é \u00e9 \ud83d\ude00 done"})"),
        "[\"" + body + "\",{\"a\":\n\t\r \"" + body + "\"}]",
        padded(R"({"empty":"","n":-12,"f":false,"obj":{"in":{"deep":"v"}}})"),
    };
    for (const std::string& text : valid) {
        const outcome whole = plain_parse(text);
        const fed_parse fed = feed_parse(text);
        REQUIRE(whole.valid);
        CHECK(fed.result == whole);
    }
    // The long values after a `:` were decoded by the feed (keys and array elements were not).
    CHECK(feed_parse(valid[0]).decoded == 1);
    CHECK(feed_parse(valid[1]).decoded == 1);
    CHECK(feed_parse(valid[2]).decoded == 1);
    CHECK(feed_parse(valid[3]).decoded == 4);   // short escaped ones too
    CHECK(feed_parse(valid[4]).decoded == 1);
    CHECK(feed_parse(valid[6]).decoded == 1);
    CHECK(feed_parse(valid[7]).decoded == 0);
}

TEST_CASE("string_value_feed leaves the verdict on bad input to the parser", "[sax][feed]")
{
    const std::string body = escaped_body(6000);
    const std::vector<std::string> invalid = {
        R"({"a":")" + body + R"(\x"})",                         // an unknown escape in the long value
        R"({"a":")" + body + "\x01" + R"("})",                  // a raw control character
        R"({"a":")" + body + "\xC3\x28" + R"("})",              // invalid UTF-8
        R"({"a":")" + body + R"(\ud800 lone"})",                // a lone surrogate
        R"({"a":")" + body,                                     // no closing quote
        R"({"a":")" + body + R"(\)",                            // ends inside an escape
        R"({"a" "b":")" + body + R"("})",                       // the prefix is invalid
        R"({"a":1 \ "b":")" + body + R"("})",                   // a backslash outside strings
        R"({"a":")" + body + R"("} {"b":")" + body + R"("})",   // data after the value
        R"({"a":")" + body + R"(":"b"})",                       // a long key where a value must be
        R"(["x":")" + body + R"("])",                           // a colon in an array
        padded(R"({"a":"é")") + "\"",                          // garbage after a short string
    };
    for (const std::string& text : invalid) {
        const outcome whole = plain_parse(text);
        REQUIRE_FALSE(whole.valid);
        CHECK_FALSE(feed_parse(text).result.valid);
    }
}

TEST_CASE("string_value_feed: one value of many MB, and every slice boundary", "[sax][feed][large]")
{
    const std::string body = escaped_body(std::size_t{3} << 20);
    const std::string text = R"({"file":{"content":")" + body + R"(","path":"a.txt"}})";
    const fed_parse fed = feed_parse(text);
    CHECK(fed.decoded == 1);
    CHECK(fed.result == plain_parse(text));

    // A slice may end inside an escape or a UTF-8 character: shift the value across one slice.
    for (std::size_t shift = 0; shift < 16; ++shift) {
        const std::string shifted = R"({"k":")" + std::string(td::string_value_feed::slice - 8 + shift, 'a') + R"(\u00e9ü\ud83d\ude00\"x"})";
        CHECK(feed_parse(shifted).result == plain_parse(shifted));
    }
}

TEST_CASE("string_value_feed agrees with Boost.JSON on every JSONTestSuite case", "[sax][feed][conformance]")
{
    const auto files = toolstream::test::jsontestsuite_files();
    if (files.empty()) {
        WARN("no JSONTestSuite files under the fixtures directory");
        return;
    }
    std::size_t cases = 0, decoded = 0;
    for (const auto& path : files) {
        const std::string text = toolstream::test::read_file(path);
        // As it is, as the value of a key, and a one-element array's element as the value of a
        // key (where a string is decoded by the feed), each past the feed's minimum payload.
        std::string element = text;
        if (text.size() >= 2 && text.front() == '[' && text.back() == ']')
            element = text.substr(1, text.size() - 2);
        for (const std::string& payload : {padded(text), padded(R"({"v":)" + text + "}"), padded(R"({"v":)" + element + "}")}) {
            INFO(path.filename().string() << (payload.front() == '{' ? " as a value" : ""));
            const fed_parse fed = feed_parse(payload);
            CHECK(fed.result == plain_parse(payload));
            decoded += fed.decoded;
        }
        ++cases;
    }
    CHECK(cases > 300);
    CHECK(decoded >= 50);   // the escaped strings of the cases went through the feed
}

} // namespace test_string_value_feed
