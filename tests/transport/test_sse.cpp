// sse_decoder: line ends, the byte order mark, comments, the WHATWG field rules, the DONE
// sentinel, events at every split of a write, raw JSON bodies and reset(). Limits and running out
// of memory are in test_sse_limits.cpp.
#include <toolstream/detail/ascii.hpp>
#include <toolstream/transport/sse.hpp>

#include "catch_compat.hpp"
#include "transport/sse_support.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace test_sse {

using namespace toolstream::test::sse_support;

TEST_CASE("sse: lines end at LF, CR and CRLF", "[sse]")
{
    const decoded two = events({{"", "a"}, {"x", "b"}});
    check_splits("data: a\n\nevent: x\ndata: b\n\n", two);
    check_splits("data: a\r\revent: x\rdata: b\r\r", two);
    check_splits("data: a\r\n\r\nevent: x\r\ndata: b\r\n\r\n", two);
    check_splits("data: a\r\n\revent: x\ndata: b\r\r\n", two);
}

TEST_CASE("sse: a CR ending one write and an LF starting the next are one line end", "[sse]")
{
    // Counted twice, the pair would be a blank line that dispatches "a" alone.
    REQUIRE(decode_pieces({"data: a\r", "\ndata: b\r\n\r\n"}) == events({{"", "a\nb"}}));
    REQUIRE(decode_pieces({"data: a\r", "", "\ndata: b\r\n\r\n"}) == events({{"", "a\nb"}}));
    // A lone CR at the end of a write followed by another line is still a line end.
    REQUIRE(decode_pieces({"data: a\r", "data: b\r\r"}) == events({{"", "a\nb"}}));
}

TEST_CASE("sse: U+2028, U+2029 and split multibyte characters are data, not line ends", "[sse]")
{
    const std::string data = "{\"t\":\"a\xE2\x80\xA8" "b\xE2\x80\xA9" "c \xD0\xB8\xD0\xB7\"}";
    check_splits("data: " + data + "\n\n", events({{"", data}}));
}

TEST_CASE("sse: a UTF-8 BOM at stream start is dropped", "[sse]")
{
    check_splits("\xEF\xBB\xBF" "data: a\n\n", events({{"", "a"}}));
    // Without the BOM dropped, the first line would be an unknown field.
    check_splits("\xEF\xBB\xBF" "event: e\ndata: a\n\n", events({{"e", "a"}}));
    // Only at the start: later it is data.
    check_splits("data: a\n\ndata: \xEF\xBB\xBF" "b\n\n", events({{"", "a"}, {"", "\xEF\xBB\xBF" "b"}}));
    // Bytes that begin like a BOM but are not one stay in the stream: here they spoil the field name.
    check_splits("\xEF\xBB" "data: a\n\ndata: b\n\n", events({{"", "b"}}));
    check_splits("\xEF" "data: a\n\ndata: b\n\n", events({{"", "b"}}));
}

TEST_CASE("sse: comment lines reach a visitor that takes sse_keep_alive", "[sse]")
{
    decoded expected = events({{"", "a"}});
    expected.comments = {" keep-alive", " OPENROUTER PROCESSING", ""};
    check_splits(": keep-alive\n\ndata: a\n: OPENROUTER PROCESSING\n\n:\n", expected);

    // A visitor without that overload still gets the events.
    sse_decoder dec;
    std::vector<std::string> data;
    auto only_events = [&](const toolstream::wire_event& ev) { data.emplace_back(ev.data); };
    REQUIRE(!dec.write(": ping\r\ndata: x\r\n\r\n", only_events));
    REQUIRE(!dec.finish(only_events));
    REQUIRE(data == std::vector<std::string>{"x"});
}

TEST_CASE("sse: fields follow the WHATWG rules", "[sse]")
{
    SECTION("one optional space after the colon is stripped")
    {
        REQUIRE(decode("data:a\n\ndata: b\n\ndata:  c\n\n").events
                == std::vector<event>{{"", "a"}, {"", "b"}, {"", " c"}});
    }
    SECTION("data lines join with LF, including empty ones")
    {
        REQUIRE(decode("data: {\ndata: \"foo\":\ndata: true}\n\n").events == std::vector<event>{{"", "{\n\"foo\":\ntrue}"}});
        REQUIRE(decode("data: a\ndata:\ndata\ndata: b\n\n").events == std::vector<event>{{"", "a\n\n\nb"}});
    }
    SECTION("a line without a colon is a field with an empty value")
    {
        REQUIRE(decode("event: x\nevent\ndata: a\n\n").events == std::vector<event>{{"", "a"}});
    }
    SECTION("id, retry and unknown fields are ignored")
    {
        REQUIRE(decode("id: 7\nretry: 100\nfoo: bar\ndata: a\nid\nDATA: no\n\n").events == std::vector<event>{{"", "a"}});
    }
    SECTION("the event name applies to one event only")
    {
        REQUIRE(decode("event: a\ndata: 1\n\ndata: 2\n\n").events == std::vector<event>{{"a", "1"}, {"", "2"}});
        // Also when the named event had no data and so was not dispatched.
        REQUIRE(decode("event: a\n\ndata: 2\n\n").events == std::vector<event>{{"", "2"}});
        REQUIRE(decode("event: a\nevent: b\ndata: 1\n\n").events == std::vector<event>{{"b", "1"}});
    }
    SECTION("events without data, or with empty or whitespace-only data, are not dispatched")
    {
        REQUIRE(decode("event: ping\n\n\n\ndata:\n\ndata: \n\ndata:  \t\ndata:\n\n").events.empty());
    }
    SECTION("a blank line is needed to dispatch (flush at EOF aside)")
    {
        REQUIRE(decode("data: a\ndata: b\n", {.max_event_size = 100, .flush_at_eof = false}).events.empty());
    }
}

TEST_CASE("sse: an `error:` line is the data of an event named error (llama.cpp's server)", "[sse]")
{
    check_splits("data: a\n\nerror: {\"code\":500,\"message\":\"boom\"}\n\n",
                 events({{"", "a"}, {"error", "{\"code\":500,\"message\":\"boom\"}"}}));
    // As data lines do: joined with `data:` lines of the same event, the name for that event only.
    REQUIRE(decode("event: x\nerror: 1\ndata: 2\n\ndata: 3\n\n").events == std::vector<event>{{"error", "1\n2"}, {"", "3"}});
    REQUIRE(decode("error:\n\n").events.empty());
}

TEST_CASE("sse: the DONE sentinel sets done() and is not delivered", "[sse]")
{
    check_splits("data: a\n\ndata: [DONE]\n\n", events({{"", "a"}}, true));
    check_splits("data:  [DONE] \r\n\r\n", events({}, true));
    REQUIRE(decode("data: [DONE]x\n\ndata: x[DONE]\n\n") == events({{"", "[DONE]x"}, {"", "x[DONE]"}}));
    REQUIRE(decode("data: a\n\n") == events({{"", "a"}}, false));
    // Data lines joined across blank-looking lines, and payloads that only start like the marker.
    check_splits("data: \t\ndata: [DONE]\ndata:\n\n", events({}, true));
    REQUIRE(decode("data: [DONE\n\ndata: [1]\n\ndata:  \t\n\n") == events({{"", "[DONE"}, {"", "[1]"}}));

    sse_decoder dec;
    decoded r;
    REQUIRE(!dec.write("data: [DONE]\n", recorder{&r}));
    REQUIRE(!dec.done());   // not before its blank line
    REQUIRE(!dec.write("\n", recorder{&r}));
    REQUIRE(dec.done());
}

TEST_CASE("ascii: equals, skip_blanks, trim_blanks and all_blank", "[sse][ascii]")
{
    using namespace toolstream::detail;
    STATIC_REQUIRE(equals("data", "data"));
    STATIC_REQUIRE(!equals("data", "date"));
    STATIC_REQUIRE(!equals("data", "dat"));
    STATIC_REQUIRE(!equals("", "x"));
    STATIC_REQUIRE(equals("", std::string_view{}));
    REQUIRE(equals(std::string("content_block_delta"), "content_block_delta"));
    REQUIRE(!equals(std::string("content_block_deltA"), "content_block_delta"));

    STATIC_REQUIRE(skip_blanks(" \t\r\nab ") == "ab ");
    STATIC_REQUIRE(skip_blanks(" \t ").empty());
    STATIC_REQUIRE(skip_blanks("").empty());
    STATIC_REQUIRE(skip_blanks("a b", 1) == 2);
    STATIC_REQUIRE(skip_blanks("a  ", 1) == 3);
    STATIC_REQUIRE(skip_blanks("ab", 5) == 2);
    STATIC_REQUIRE(trim_blanks("\n a b\r\n\t") == "a b");
    STATIC_REQUIRE(trim_blanks(" \n").empty());
    STATIC_REQUIRE(trim_blanks("x") == "x");
    STATIC_REQUIRE(all_blank(""));
    STATIC_REQUIRE(all_blank(" \t\r\n"));
    STATIC_REQUIRE(!all_blank("  .  "));
    STATIC_REQUIRE(!all_blank("\v"));   // JSON's whitespace only
}

TEST_CASE("sse: finish() flushes an unterminated last event only with flush_at_eof", "[sse]")
{
    // Anthropic SDK fixtures end like this: no blank line, no final newline.
    const std::string_view in = "event: a\ndata: 1\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}";
    check_splits(in, events({{"a", "1"}, {"message_stop", "{\"type\":\"message_stop\"}"}}));
    check_splits(std::string(in) + "\n", events({{"a", "1"}, {"message_stop", "{\"type\":\"message_stop\"}"}}));
    check_splits(in, events({{"a", "1"}}), {.flush_at_eof = false});
    check_splits(std::string(in) + "\r\n", events({{"a", "1"}}), {.flush_at_eof = false});
}

TEST_CASE("sse: a representative stream decodes the same at every split", "[sse]")
{
    const std::string in = "\xEF\xBB\xBF"
                           ": OPENROUTER PROCESSING\r\n\r\n"
                           "event: message_start\r\n"
                           "data: {\"type\":\"message_start\"}\r\n\r\n"
                           "id: 3\rretry: 10\revent: delta\rdata: {\"a\":\rdata:\"\xD0\xB8\xE2\x80\xA8\"}\r\r"
                           ":\n"
                           "data: {\"k\":\"v\"}\nid: 12345678901234567890\n\n"
                           "data: x\n"
                           "data:  y\r\n"
                           "\n"
                           "event: ping\n\n"
                           "data: [DONE]\n\n"
                           "data: after\r";
    decoded expected = events({{"message_start", "{\"type\":\"message_start\"}"},
                               {"delta", "{\"a\":\n\"\xD0\xB8\xE2\x80\xA8\"}"},
                               {"", "{\"k\":\"v\"}"},
                               {"", "x\n y"},
                               {"", "after"}},
                              true);
    expected.comments = {" OPENROUTER PROCESSING", ""};
    check_splits(in, expected);
}

TEST_CASE("sse: an event wholly inside one write is a view into the input", "[sse]")
{
    const std::string in = "event: e\ndata: {\"k\":1}\n\n";
    sse_decoder dec;
    bool seen = false;
    REQUIRE(!dec.write(in, [&](const toolstream::wire_event& ev) {
        REQUIRE(ev.data == "{\"k\":1}");
        REQUIRE(ev.data.data() == in.data() + in.find('{'));
        seen = true;
    }));
    REQUIRE(seen);
}

// A data line gathered across writes is taken whole from the line splitter when it is long and
// the event's first; later data lines, limits and the end of the stream must not notice.
TEST_CASE("sse: long data lines gathered across writes decode the same at every split", "[sse]")
{
    const auto text = [](std::size_t n, char first) {
        std::string s;
        for (std::size_t i = 0; i < n; ++i)
            s += static_cast<char>(first + static_cast<char>(i % 23));
        return s;
    };
    const std::string a = text(1500, 'a'), b = text(1100, 'A'), c = text(1024, '0'), d = text(2000, 'b');
    const std::string in = "data: " + a + "\n\n"                                  // alone in its event
                           + "event: two\r\ndata: " + b + "\r\ndata: tail\r\n\r\n"  // then a short line
                           + "data: x\ndata: " + c + "\n\n"                        // after a short line
                           + "data:" + d + "\r\r"                                  // no space, CR line ends
                           + "data: " + a;                                         // flushed by finish()
    check_splits(in, events({{"", a}, {"two", b + "\ntail"}, {"", "x\n" + c}, {"", d}, {"", a}}));

    SECTION("the limit counts the data of a taken line, not its field name")
    {
        const sse_options opts{.max_event_size = 1500 + 1 + 4};
        decoded expected = events({{"", a + "\ntail"}, {"", "ok"}});
        expected.too_large = true;
        check_splits("data: " + a + "\ndata: tail\n\ndata: " + a + "\ndata: tails\n\ndata: ok\n\n", expected, opts);
    }
}

TEST_CASE("sse: a body that starts as a JSON object or array is raw JSON, delivered whole at finish()", "[sse][raw]")
{
    const std::string object = "{\r\n  \"error\": {\r\n    \"code\": 429,\n    \"message\": \"data: x\\n\\n\"\r\n  }\r\n}\r\n";
    check_splits(object, events({{"", object}}));
    check_splits("\xEF\xBB\xBF \r\n\t" + object, events({{"", object}}));
    const std::string array = "[{\"candidates\": []},\r\n{\"error\": {\"code\": 500}}]";
    check_splits("\n\n" + array, events({{"", array}}));
    // SSE that merely carries JSON is not raw.
    check_splits("data: {\"a\":1}\n\n", events({{"", "{\"a\":1}"}}));
    check_splits("  event: e\ndata: [1]\n\n", events({{"", "[1]"}}));   // "  event" is an unknown field

    sse_decoder dec;
    decoded r;
    REQUIRE(!dec.write("{\"error\":\n\n{}", recorder{&r}));
    REQUIRE(r.events.empty());   // nothing before the end of input
    REQUIRE(!dec.finish(recorder{&r}));
    REQUIRE(r.events == std::vector<event>{{"", "{\"error\":\n\n{}"}});
}

TEST_CASE("sse: reset() starts a fresh stream", "[sse]")
{
    sse_decoder dec;
    decoded r;
    REQUIRE(!dec.write("{\"raw\":", recorder{&r}));
    dec.reset();
    REQUIRE(!dec.write("\xEF\xBB\xBF" "data: [DONE]\n\n", recorder{&r}));
    REQUIRE(dec.done());
    REQUIRE(!dec.write("event: e\ndata: partial", recorder{&r}));
    dec.reset();
    REQUIRE(!dec.done());
    REQUIRE(dec.buffered_bytes() == 0);
    REQUIRE(!dec.write("\xEF\xBB\xBF" "data: a\n\n", recorder{&r}));
    REQUIRE(!dec.write("{\"b\":1}", recorder{&r}));   // no longer the stream start: not raw
    REQUIRE(!dec.finish(recorder{&r}));
    REQUIRE(r.events == std::vector<event>{{"", "a"}});
    dec.reset();
    REQUIRE(!dec.write("[1]", recorder{&r}));
    REQUIRE(!dec.finish(recorder{&r}));
    REQUIRE(r.events == std::vector<event>{{"", "a"}, {"", "[1]"}});
}

// A converter that has read a large event frees its buffer (wire_event::release) before it builds
// the call the event carries. The decoder must not notice: later events, large and small, decode
// as before, in any writes.
TEST_CASE("sse: a large event's buffer can be released by its reader; small ones and views are kept", "[sse]")
{
    const std::string large(std::size_t{200} << 10, 'x');
    const std::string medium(std::size_t{5} << 10, 'm');
    const std::string in = "data: " + large + "\n\ndata: " + medium + "\n\ndata: small\n\nevent: e\ndata: " + large
                           + "y\n\n";
    for (const std::size_t write : {std::size_t{1} << 12, std::size_t{1} << 16, in.size()}) {
        INFO("writes of " << write << " bytes");
        sse_decoder dec;
        std::vector<std::string> seen;
        std::vector<std::size_t> left;   // the buffer's capacity after release(), or npos for none
        const auto visit = [&](const toolstream::wire_event& ev) {
            seen.emplace_back(ev.data);
            if (ev.buffer != nullptr) {
                CHECK(ev.data.data() >= ev.buffer->data());
                CHECK(ev.data.data() + ev.data.size() <= ev.buffer->data() + ev.buffer->size());
            }
            ev.release();
            left.push_back(ev.buffer != nullptr ? ev.buffer->capacity() : std::string_view::npos);
        };
        for (std::size_t at = 0; at < in.size(); at += write)
            REQUIRE(!dec.write(std::string_view(in).substr(at, write), visit));
        REQUIRE(!dec.finish(visit));
        REQUIRE(seen == std::vector<std::string>{large, medium, "small", large + "y"});
        REQUIRE(left.size() == 4);
        if (write == in.size()) {   // each event a view into the written bytes: no buffer
            CHECK(left == std::vector<std::size_t>(4, std::string_view::npos));
            continue;
        }
        CHECK(left[0] < toolstream::detail::large_buffer);   // freed
        CHECK(left[3] < toolstream::detail::large_buffer);
        if (write == std::size_t{1} << 12) {
            // Gathered across writes, but below the release size: kept for the next event.
            CHECK(left[1] != std::string_view::npos);
            CHECK(left[1] >= medium.size());
        }
    }
}

} // namespace test_sse
