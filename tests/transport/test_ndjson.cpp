#include <toolstream/transport/ndjson.hpp>

#include "catch_compat.hpp"
#include "transport/split_checks.hpp"

#include <algorithm>
#include <cstddef>
#include <new>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace test_ndjson {

namespace {

using toolstream::error;
using toolstream::ndjson_decoder;
using toolstream::ndjson_options;

struct decoded {
    std::vector<std::string> lines;
    bool too_large = false;   // a write (or finish) returned line_too_large

    friend bool operator==(const decoded&, const decoded&) = default;
};

std::ostream& operator<<(std::ostream& os, const decoded& d)
{
    os << "lines:";
    for (const auto& line : d.lines)
        os << " [" << line << "]";
    return os << " too_large:" << d.too_large;
}

struct recorder {
    decoded* out;
    void operator()(const toolstream::wire_event& ev) const
    {
        CHECK(ev.name.empty());
        out->lines.emplace_back(ev.data);
    }
};

// Counts line_too_large results, the only error the decoder has.
int count(decoded& r, toolstream::error_code ec)
{
    if (!ec)
        return 0;
    CHECK(ec == error::line_too_large);
    r.too_large = true;
    return 1;
}

// Each piece goes through its own buffer, scribbled over after the write: a view the decoder kept
// past write() would then show up as wrong data (or as a use-after-free under ASan).
decoded decode_pieces(const std::vector<std::string_view>& pieces, ndjson_options opts = {})
{
    ndjson_decoder dec(opts);
    decoded r;
    for (std::string_view piece : pieces) {
        std::string buf(piece);
        count(r, dec.write(buf, recorder{&r}));
        buf.assign(buf.size(), '#');
    }
    count(r, dec.finish(recorder{&r}));
    return r;
}

// Whole, at every split and in 1-byte writes (split_checks.hpp).
void check_splits(std::string_view in, const decoded& expected, ndjson_options opts = {})
{
    toolstream::test::check_splits_with(
        [&](const std::vector<std::string_view>& pieces) { return decode_pieces(pieces, opts); }, in, expected);
}

decoded lines(std::vector<std::string> ls, bool too_large = false)
{
    return {std::move(ls), too_large};
}

} // namespace

TEST_CASE("ndjson: one event per line, ending at LF with a CR before it stripped", "[ndjson]")
{
    check_splits("{\"a\":1}\n{\"b\":2}\r\n{\"c\":3}\n", lines({"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"}));
    // A lone CR is not a line end; a CR not right before the LF is kept.
    check_splits("{\"a\":\r1}\n{\"b\":2}\r \n", lines({"{\"a\":\r1}", "{\"b\":2}\r "}));
    // Only one CR is stripped.
    check_splits("{}\r\r\n", lines({"{}\r"}));
}

TEST_CASE("ndjson: blank and whitespace-only lines are skipped", "[ndjson]")
{
    check_splits("\n\r\n  \t\r\n{\"a\":1}\n\n \r \n{\"b\":2}\n\n", lines({"{\"a\":1}", "{\"b\":2}"}));
    check_splits(" \t\r\n\n", lines({}));
}

TEST_CASE("ndjson: finish() delivers a last line lacking its LF", "[ndjson]")
{
    check_splits("{\"a\":1}\n{\"done\":true}", lines({"{\"a\":1}", "{\"done\":true}"}));
    check_splits("{\"a\":1}\n{\"done\":true}\r", lines({"{\"a\":1}", "{\"done\":true}"}));
    check_splits("{\"a\":1}\n  ", lines({"{\"a\":1}"}));
}

TEST_CASE("ndjson: a representative stream decodes the same at every split", "[ndjson]")
{
    const std::string in = "\xEF\xBB\xBF"
                           "{\"message\":{\"content\":\"\xD0\xB8\xE2\x80\xA8\xE2\x80\xA9\"},\"done\":false}\r\n"
                           "\n"
                           "{\"message\":{\"tool_calls\":[{\"function\":{\"name\":\"w\",\"arguments\":{}}}]}}\n"
                           "   \r\n"
                           "{\"error\":\"boom\"}\r\n"
                           "{\"done\":true}";
    check_splits(in, lines({"{\"message\":{\"content\":\"\xD0\xB8\xE2\x80\xA8\xE2\x80\xA9\"},\"done\":false}",
                            "{\"message\":{\"tool_calls\":[{\"function\":{\"name\":\"w\",\"arguments\":{}}}]}}",
                            "{\"error\":\"boom\"}", "{\"done\":true}"}));
}

TEST_CASE("ndjson: a UTF-8 BOM is dropped at stream start only", "[ndjson]")
{
    check_splits("\xEF\xBB\xBF{}\n\xEF\xBB\xBF{}\n", lines({"{}", "\xEF\xBB\xBF{}"}));
    // Bytes that only begin like a BOM are data.
    check_splits("\xEF\xBB{}\n", lines({"\xEF\xBB{}"}));
    check_splits("\xEF", lines({"\xEF"}));
}

TEST_CASE("ndjson: a line wholly inside one write is a view into the input", "[ndjson]")
{
    const std::string in = "{\"k\":1}\r\n{\"k\":2}\n";
    ndjson_decoder dec;
    std::vector<const char*> at;
    REQUIRE(!dec.write(in, [&](const toolstream::wire_event& ev) { at.push_back(ev.data.data()); }));
    REQUIRE(at == std::vector<const char*>{in.data(), in.data() + 9});
}

TEST_CASE("ndjson: a line over max_line_size is an error, dropped, and later lines decode", "[ndjson][limits]")
{
    const ndjson_options opts{.max_line_size = 8};
    SECTION("at the limit is fine, one byte over is not; the CRLF does not count")
    {
        check_splits("[1,2,34]\r\n[1,2,3]\n", lines({"[1,2,34]", "[1,2,3]"}), opts);
        check_splits("[1,2,34]\r\n[1,2,345]\n[1]\r\n", lines({"[1,2,34]", "[1]"}, true), opts);
        check_splits("[1,2,34]\r\r\n[2]", lines({"[2]"}, true), opts);   // one CR is content
        check_splits("[1]\n[1,2,3,4,5]", lines({"[1]"}, true), opts);
    }
    SECTION("several oversized lines")
    {
        check_splits("[1,2,3,4,5]\n[1]\n{\"a\":\"bcdef\"}\r\n\n[2]\n", lines({"[1]", "[2]"}, true), opts);
    }
    SECTION("the write that crosses the limit returns the error")
    {
        ndjson_decoder dec(opts);
        decoded r;
        REQUIRE(!dec.write("[1,2,", recorder{&r}));
        REQUIRE(dec.write("3,4,5", recorder{&r}) == error::line_too_large);
        REQUIRE(!dec.write("6,7]\n[", recorder{&r}));
        REQUIRE(!dec.write("8]\n", recorder{&r}));
        REQUIRE(r.lines == std::vector<std::string>{"[8]"});
    }
}

TEST_CASE("ndjson: a never-ending line keeps memory bounded", "[ndjson][limits]")
{
    constexpr std::size_t limit = 1u << 20;
    ndjson_decoder dec({.max_line_size = limit});
    decoded r;
    const std::string chunk(64u << 10, 'x');
    int errors = count(r, dec.write("{\"a\":\"", recorder{&r}));
    std::size_t most = 0;
    for (std::size_t sent = 0; sent < (50u << 20); sent += chunk.size()) {
        errors += count(r, dec.write(chunk, recorder{&r}));
        most = std::max(most, dec.buffered_bytes());
    }
    CHECK(most <= limit + 1);
    errors += count(r, dec.write("\"}\n{\"next\":1}\n", recorder{&r}));
    CHECK(errors == 1);
    CHECK(r.lines == std::vector<std::string>{"{\"next\":1}"});
    CHECK(dec.buffered_bytes() == 0);
}

TEST_CASE("ndjson: a 5 MB line in 4 KiB writes, and 1-byte writes around its end", "[ndjson]")
{
    const std::string line = "{\"blob\":\"" + std::string(5u << 20, 'z') + "\"}";
    const std::string in = "{\"a\":1}\n" + line + "\r\n{\"b\":2}\n";
    const std::size_t line_end = in.find('\r');
    for (std::size_t tail = 1; tail <= 4; ++tail) {   // where the 1-byte writes start, before the CR
        std::vector<std::string_view> pieces;
        std::size_t at = 0;
        for (; at + 4096 <= line_end - tail; at += 4096)
            pieces.push_back(std::string_view(in).substr(at, 4096));
        pieces.push_back(std::string_view(in).substr(at, line_end - tail - at));
        for (at = line_end - tail; at < line_end + 4; ++at)
            pieces.push_back(std::string_view(in).substr(at, 1));
        pieces.push_back(std::string_view(in).substr(at));
        REQUIRE(decode_pieces(pieces) == lines({"{\"a\":1}", line, "{\"b\":2}"}));
    }
}

TEST_CASE("ndjson: reset() starts a fresh stream", "[ndjson]")
{
    ndjson_decoder dec({.max_line_size = 4});
    decoded r;
    REQUIRE(dec.write("{\"partial", recorder{&r}) == error::line_too_large);   // now dropping to its end
    dec.reset();
    REQUIRE(dec.buffered_bytes() == 0);
    REQUIRE(!dec.write("\xEF\xBB\xBF[1]\n[2", recorder{&r}));
    dec.reset();
    REQUIRE(!dec.write("\xEF\xBB\xBF[3]\n", recorder{&r}));
    REQUIRE(!dec.finish(recorder{&r}));
    REQUIRE(r.lines == std::vector<std::string>{"[1]", "[3]"});
}

TEST_CASE("ndjson: memory running out is error::out_of_memory; decoding resumes after the next line end", "[ndjson][oom]")
{
    // A visitor throwing std::bad_alloc stands for an allocation failing inside write().
    std::vector<std::string> seen;
    auto visit = [&](const toolstream::wire_event& ev) {
        if (ev.data == "fail")
            throw std::bad_alloc();
        seen.emplace_back(ev.data);
    };
    toolstream::ndjson_decoder dec;
    CHECK(dec.write("one\nfail\nlost in the same write\npart", visit) == error::out_of_memory);
    CHECK(!dec.write(" of a dropped line\ntwo\nthree", visit));
    CHECK(!dec.finish(visit));
    CHECK(seen == std::vector<std::string>{"one", "two", "three"});
}

// As for SSE (test_sse.cpp): a reader may free the buffer of a large line it has read.
TEST_CASE("ndjson: a large line's buffer can be released by its reader; later lines decode", "[ndjson]")
{
    const std::string large(std::size_t{200} << 10, 'x');
    const std::string in = large + "\n{\"a\":1}\n" + large + "y";
    for (const std::size_t write : {std::size_t{1} << 12, std::size_t{1} << 16}) {
        INFO("writes of " << write << " bytes");
        ndjson_decoder dec;
        std::vector<std::string> seen;
        std::size_t released = 0;
        const auto visit = [&](const toolstream::wire_event& ev) {
            seen.emplace_back(ev.data);
            ev.release();
            if (ev.buffer != nullptr && ev.buffer->capacity() < toolstream::detail::large_buffer)
                ++released;
        };
        for (std::size_t at = 0; at < in.size(); at += write)
            REQUIRE(!dec.write(std::string_view(in).substr(at, write), visit));
        REQUIRE(!dec.finish(visit));
        CHECK(seen == std::vector<std::string>{large, "{\"a\":1}", large + "y"});
        CHECK(released == 2);   // both large lines; the short one was a view
    }
}

} // namespace test_ndjson
