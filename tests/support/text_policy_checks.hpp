// Test support shared by the text policies (xml, json, sentinel): chunk invariance and byte
// conservation, each checked over many chunkings of one input.
#pragma once

#include <toolstream/handler.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/tool_invocation.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace toolstream::test {

struct policy_run {
    std::vector<owned_segment_event> events;   ///< Coalesced.
    std::vector<tool_invocation> invocations;
};

/// Feeds `pieces` in order through a fresh handler<Policy>, built as `Policy(args...)`, then finalizes.
template<class Policy, class... Args>
policy_run run_pieces(const std::vector<std::string_view>& pieces, const Args&... args)
{
    handler<Policy> h(recording_sink{}, {}, Policy(args...));
    for (auto piece : pieces)
        REQUIRE(!h.feed(piece));
    REQUIRE(!h.finalize());
    return {coalesce(h.events()), h.invocations()};
}

template<class Policy, class... Args>
policy_run run_whole(std::string_view input, const Args&... args)
{
    return run_pieces<Policy>({input}, args...);
}

inline std::string dump(const std::vector<tool_invocation>& invocations)
{
    std::string s;
    for (const auto& inv : invocations)
        s += boost::json::serialize(boost::json::value_from(inv)) + "\n";
    return s;
}

/// Feeds `input` whole, split at every position, in 1-byte chunks and in random chunkings; each
/// run must give the coalesced events and the invocations of the whole-input run. Each run uses a
/// fresh `Policy(args...)` (e.g. an options struct).
template<class Policy, class... Args>
void check_chunk_invariance(std::string_view input, const Args&... args)
{
    const auto whole = run_whole<Policy>(input, args...);
    for (const auto& pieces : chunkings(input)) {
        const auto got = run_pieces<Policy>(pieces, args...);
        if (got.events != whole.events || got.invocations != whole.invocations) {
            std::string cut;
            for (auto p : pieces)
                cut += "|" + std::string(p);
            INFO("input: " << input << "\nchunks: " << cut << "\nwhole:\n"
                           << dump(whole.events) << dump(whole.invocations) << "chunked:\n"
                           << dump(got.events) << dump(got.invocations));
            REQUIRE(got.events == whole.events);
            REQUIRE(got.invocations == whole.invocations);
        }
    }
}

/// Puts text deltas, content deltas and consumed markup back together in emission order.
struct reconstruction_sink {
    std::string bytes;

    void operator()(const segment_event& e)
    {
        if (e.type == segment_event_type::SEGMENT_CONTENT)
            bytes += e.delta;
    }
    void operator()(consumed_markup m) { bytes += m.bytes; }
};

/// Every input byte must land exactly once in text, a segment's content or consumed markup, in
/// input order, whatever the chunking (including a stream cut off anywhere: finalize flushes).
/// Runs whole, in 1-byte chunks and in three random chunkings, each with a fresh `Policy(args...)`.
template<class Policy, class... Args>
void check_byte_conservation(std::string_view input, const Args&... args)
{
    constexpr std::ptrdiff_t random_runs = 3;
    auto run = [&](const std::vector<std::string_view>& pieces) {
        handler<Policy, reconstruction_sink> h(reconstruction_sink{}, {}, Policy(args...));
        for (auto piece : pieces)
            REQUIRE(!h.feed(piece));
        REQUIRE(!h.finalize());
        return std::move(h.sink().bytes);
    };
    std::vector<std::vector<std::string_view>> all{{input}};
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < input.size(); ++i)
        bytes.push_back(input.substr(i, 1));
    all.push_back(std::move(bytes));
    auto random = chunkings(input, random_runs);
    all.insert(all.end(), random.end() - random_runs, random.end());
    for (const auto& pieces : all) {
        const auto got = run(pieces);
        if (got != input) {
            INFO("pieces: " << pieces.size() << "\ninput:\n" << input << "\nreconstructed:\n" << got);
            REQUIRE(got == input);
        }
    }
}

} // namespace toolstream::test
