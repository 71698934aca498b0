// Shared by the SSE decoder tests (test_sse.cpp, test_sse_limits.cpp): what a run decoded, and
// decoding in pieces, whole, and at every split.
#pragma once

#include <toolstream/transport/sse.hpp>

#include "catch_compat.hpp"
#include "transport/split_checks.hpp"

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

// Whole, at every split and in 1-byte writes (split_checks.hpp).
inline void check_splits(std::string_view in, const decoded& expected, sse_options opts = {})
{
    check_splits_with([&](const std::vector<std::string_view>& pieces) { return decode_pieces(pieces, opts); },
                      in, expected);
}

inline decoded events(std::vector<event> evs, bool done = false)
{
    decoded d;
    d.events = std::move(evs);
    d.done = done;
    return d;
}

} // namespace toolstream::test::sse_support
