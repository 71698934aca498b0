// Shared by the SSE decoder tests (test_sse.cpp, test_sse_limits.cpp): what a run decoded, and
// decoding in pieces, whole, and at every split.
#pragma once

#include <toolstream/transport/sse.hpp>

#include "catch_compat.hpp"

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream::test::sse_support {

using toolstream::error;
using toolstream::sse_decoder;
using toolstream::sse_options;
using event = std::pair<std::string, std::string>;   // name, data

struct decoded {
    std::vector<event> events;
    std::vector<std::string> comments;
    bool too_large = false;   // a write (or finish) returned event_too_large
    bool done = false;

    friend bool operator==(const decoded&, const decoded&) = default;
};

inline std::ostream& operator<<(std::ostream& os, const decoded& d)
{
    os << "events:";
    for (const auto& [name, data] : d.events)
        os << " [" << name << "|" << data << "]";
    os << " comments:" << d.comments.size() << " too_large:" << d.too_large << " done:" << d.done;
    return os;
}

struct recorder {
    decoded* out;
    void operator()(const toolstream::wire_event& ev) const { out->events.emplace_back(ev.name, ev.data); }
    void operator()(toolstream::sse_keep_alive ka) const { out->comments.emplace_back(ka.comment); }
};

// Counts event_too_large results, the only error the decoder has.
inline int count(decoded& r, toolstream::error_code ec)
{
    if (!ec)
        return 0;
    CHECK(ec == error::event_too_large);
    r.too_large = true;
    return 1;
}

// Each piece goes through its own buffer, scribbled over after the write: a view the decoder kept
// past write() would then show up as wrong data (or as a use-after-free under ASan).
inline decoded decode_pieces(const std::vector<std::string_view>& pieces, sse_options opts = {})
{
    sse_decoder dec(opts);
    decoded r;
    for (std::string_view piece : pieces) {
        std::string buf(piece);
        count(r, dec.write(buf, recorder{&r}));
        buf.assign(buf.size(), '#');
    }
    count(r, dec.finish(recorder{&r}));
    r.done = dec.done();
    return r;
}

inline decoded decode(std::string_view whole, sse_options opts = {})
{
    return decode_pieces({whole}, opts);
}

// The whole write gives `expected`, and so does every split into two writes (three for short
// inputs) and 1-byte writes.
inline void check_splits(std::string_view in, const decoded& expected, sse_options opts = {})
{
    REQUIRE(decode(in, opts) == expected);
    for (std::size_t i = 0; i <= in.size(); ++i) {
        INFO("split at " << i);
        REQUIRE(decode_pieces({in.substr(0, i), in.substr(i)}, opts) == expected);
        if (in.size() > 300)
            continue;
        for (std::size_t j = i; j <= in.size(); ++j) {
            INFO("and at " << j);
            REQUIRE(decode_pieces({in.substr(0, i), in.substr(i, j - i), in.substr(j)}, opts) == expected);
        }
    }
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < in.size(); ++i)
        bytes.push_back(in.substr(i, 1));
    REQUIRE(decode_pieces(bytes, opts) == expected);
}

inline decoded events(std::vector<event> evs, bool done = false)
{
    decoded d;
    d.events = std::move(evs);
    d.done = done;
    return d;
}

} // namespace toolstream::test::sse_support
