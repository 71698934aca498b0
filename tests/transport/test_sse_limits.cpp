// sse_decoder at its limits: events over max_event_size, a never-ending event, a multi-megabyte
// event, an oversized raw JSON body, and memory running out.
#include <toolstream/tools/toolset.hpp>
#include <toolstream/transport/sse.hpp>

#include "catch_compat.hpp"
#include "transport/sse_support.hpp"

#include <algorithm>
#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace test_sse_limits {

using namespace toolstream::test::sse_support;

TEST_CASE("sse: an event over max_event_size is an error, skipped, and later events decode", "[sse][limits]")
{
    const sse_options opts{.max_event_size = 8};
    SECTION("at the limit is fine, one byte over is not")
    {
        REQUIRE(decode("data: 12345678\n\n", opts) == events({{"", "12345678"}}));
        REQUIRE(decode("data: 1234\ndata: 567\n\n", opts) == events({{"", "1234\n567"}}));   // the LF counts
        decoded over = events({{"", "ok"}});
        over.too_large = true;
        REQUIRE(decode("data: 1234\ndata: 5678\n\ndata: ok\n\n", opts) == over);
    }
    SECTION("the rest of the oversized event is skipped up to its blank line")
    {
        decoded expected = events({{"a", "before"}, {"b", "after"}});
        expected.too_large = true;
        check_splits("event: a\ndata: before\n\nevent: big\ndata: 123456789\ndata: tail\nevent: x\r\n\r\n"
                     "event: b\ndata: after\n\n",
                     expected, opts);
    }
    SECTION("a single overlong line of any field counts as too large")
    {
        decoded expected = events({{"", "next"}});
        expected.too_large = true;
        check_splits(": a comment far too long\ndata: x\n\ndata: 0123456789abcdef0123\ndata: y\n\ndata: next\n\n",
                     expected, opts);
    }
    SECTION("the write that crosses the limit returns the error")
    {
        sse_decoder dec(opts);
        decoded r;
        REQUIRE(!dec.write("data: 1234\n", recorder{&r}));
        REQUIRE(dec.write("data: 5678\n", recorder{&r}) == error::event_too_large);
        // Not again for the rest of that event, overlong lines included.
        REQUIRE(!dec.write("data: 0123456789abcdef\n", recorder{&r}));
        REQUIRE(!dec.write("data: more\n\n", recorder{&r}));
        REQUIRE(!dec.write("data: ok\n\n", recorder{&r}));
        REQUIRE(r.events == std::vector<event>{{"", "ok"}});
    }
}

TEST_CASE("sse: a never-ending event keeps memory bounded", "[sse][limits]")
{
    constexpr std::size_t limit = 1u << 20;
    constexpr std::size_t total = 50u << 20;
    const sse_options opts{.max_event_size = limit};
    const auto feed = [&](std::string_view start, const std::string& chunk) {
        sse_decoder dec(opts);
        decoded r;
        int errors = count(r, dec.write(start, recorder{&r}));
        std::size_t most = 0;
        for (std::size_t sent = 0; sent < total; sent += chunk.size()) {
            errors += count(r, dec.write(chunk, recorder{&r}));
            most = std::max(most, dec.buffered_bytes());
        }
        CHECK(most <= limit + 1024);   // the limit, plus a partial line
        CHECK(errors == 1);            // once per oversized event
        CHECK(r.events.empty());
        errors += count(r, dec.write("\n\ndata: next\n\n", recorder{&r}));
        CHECK(errors == 1);
        CHECK(r.events == std::vector<event>{{"", "next"}});
        CHECK(dec.buffered_bytes() == 0);
    };
    SECTION("one endless data line") { feed("data: ", std::string(64u << 10, 'x')); }
    SECTION("endless data lines without a blank line")
    {
        std::string chunk;
        while (chunk.size() < (64u << 10))
            chunk += "data: " + std::string(250, 'y') + "\r\n";
        feed("event: big\n", chunk);
    }
}

TEST_CASE("sse: a multi-megabyte event across 4 KiB writes", "[sse]")
{
    const std::string data = "{\"blob\":\"" + std::string(5u << 20, 'z') + "\"}";
    const std::string in = "event: big\r\ndata: " + data + "\r\n\r\ndata: small\r\n\r\n";
    std::vector<std::string_view> pieces;
    for (std::size_t at = 0; at < in.size(); at += 4096)
        pieces.push_back(std::string_view(in).substr(at, 4096));
    REQUIRE(decode_pieces(pieces) == events({{"big", data}, {"", "small"}}));
}

TEST_CASE("sse: a raw JSON body over max_event_size is an error and is dropped", "[sse][raw][limits]")
{
    const sse_options opts{.max_event_size = 16};
    decoded dropped;
    dropped.too_large = true;
    check_splits("  {\"error\": \"far too long\"}", dropped, opts);
    check_splits("  {\"error\": 12345}", events({{"", "{\"error\": 12345}"}}), opts);

    sse_decoder dec(opts);
    const auto ignore = [](const toolstream::wire_event&) {};
    REQUIRE(!dec.write("[1,2,3,4,", ignore));
    REQUIRE(dec.buffered_bytes() == 9);
    REQUIRE(dec.write("5,6,7,8,9]", ignore) == error::event_too_large);
    for (int i = 0; i < 1000; ++i)
        REQUIRE(!dec.write("[1,2,3,4,5,6,7,8]", ignore));
    REQUIRE(dec.buffered_bytes() == 0);
}

TEST_CASE("sse: memory running out is error::out_of_memory; the event is dropped and decoding resumes", "[sse][oom]")
{
    // A visitor throwing std::bad_alloc stands for an allocation failing inside write().
    std::vector<std::string> seen;
    auto visit = [&](const toolstream::wire_event& ev) {
        if (ev.data == "fail")
            throw std::bad_alloc();
        seen.emplace_back(ev.data);
    };
    sse_decoder dec;
    CHECK(dec.write("data: one\n\ndata: fail\n\ndata: lost in the same write\n\n", visit) == error::out_of_memory);
    // The rest of that write is gone; the next event after a blank line decodes.
    CHECK(!dec.write("data: two\n\ndata: three\n\n", visit));
    CHECK(!dec.finish(visit));
    CHECK(seen == std::vector<std::string>{"one", "three"});

    SECTION("a visitor taking error codes gets it in place")
    {
        sse_decoder other;
        std::vector<std::string> order;
        auto visit_all = toolstream::overloaded{
            [&](const toolstream::wire_event& ev) {
                if (ev.data == "fail")
                    throw std::length_error("too long");
                order.emplace_back(ev.data);
            },
            [&](toolstream::error_code ec) { order.push_back(ec.message()); }};
        CHECK(other.write("data: a\n\ndata: fail\n\n", visit_all) == error::out_of_memory);
        CHECK(order == std::vector<std::string>{"a", toolstream::make_error_code(error::out_of_memory).message()});
    }
}

} // namespace test_sse_limits
