// Test support shared by the text policies (xml, json_calls, sentinel and every text format): chunk
// invariance and byte conservation, each checked over many chunkings of one input, and on every
// run the argument-fragment contract (support/argument_contract.hpp).
#pragma once

#include <toolstream/handler/handler.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/tool_syntax.hpp>

#include "catch_compat.hpp"
#include "support/argument_contract.hpp"
#include "support/events.hpp"

#include <boost/describe/enum_to_string.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::test {

/// A feed succeeded, or released bytes past a held-bytes cap (error::marker_too_long): both
/// leave every byte accounted for.
inline bool fed_cleanly(error_code ec)
{
    return !ec || ec == error::marker_too_long;
}

struct policy_run {
    std::vector<owned_segment_event> events;   ///< Coalesced.
    std::vector<tool_invocation> invocations;
};

/// The one sink of every check here (one handler<Policy, Sink> instantiation per policy, which
/// keeps the format tests' build small): records the events, checks the argument-fragment contract
/// of every tool segment, and puts text, content deltas and consumed markup back together in
/// emission order. With `decoded_bodies`, the content of file and shell segments is left out of
/// `bytes`: it is decoded from JSON, whose raw bytes the policy reports as markup.
struct contract_recording_sink : recording_sink {
    argument_contract_checker contract;
    bool record_events = true;   ///< off: no events kept (long runs)
    bool reconstruct = true;     ///< off: `bytes` stays empty (long runs)
    bool decoded_bodies = false;
    std::string bytes;

    using recording_sink::operator();
    void operator()(const segment_event& e)
    {
        contract(e);
        if (reconstruct && e.type == segment_event_type::SEGMENT_CONTENT
            && !(decoded_bodies && find_tool_syntax(e.segment_kind) != nullptr))
            bytes += e.delta;
        if (record_events)
            recording_sink::operator()(e);
    }
    void operator()(const argument_fragment& f) { contract(f); }
    void operator()(consumed_markup m)
    {
        if (reconstruct)
            bytes += m.bytes;
    }
};

/// The checks' sink, keeping neither events nor bytes: for long runs.
inline contract_recording_sink quiet_sink()
{
    contract_recording_sink s;
    s.record_events = s.reconstruct = false;
    return s;
}

/// REQUIREs that a finished run kept the argument-fragment contract.
inline void require_contract_kept(const argument_contract_checker& contract)
{
    std::string all;
    for (const auto& f : contract.failures)
        all += f + "\n";
    INFO(all);
    REQUIRE(contract.failures.empty());
    REQUIRE(contract.open.empty());
}

/// Feeds `pieces` in order through a fresh handler<Policy>, built as `Policy(args...)`, then
/// finalizes; the argument-fragment contract must hold.
template<class Policy, class... Args>
policy_run run_pieces(const std::vector<std::string_view>& pieces, const Args&... args)
{
    handler<Policy, contract_recording_sink> h(contract_recording_sink{}, {}, Policy(args...));
    for (auto piece : pieces)
        REQUIRE(fed_cleanly(with_exact_copy(piece, [&](std::string_view p) { return h.feed(p); })));
    REQUIRE(!h.finalize());
    require_contract_kept(h.sink().contract);
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
            for (auto p : pieces)   // append, not "|" + std::string(p): GCC 12 -O2 -Wrestrict (PR105329)
                cut.append(1, '|').append(p);
            INFO("input: " << input << "\nchunks: " << cut << "\nwhole:\n"
                           << dump(whole.events) << dump(whole.invocations) << "chunked:\n"
                           << dump(got.events) << dump(got.invocations));
            REQUIRE(got.events == whole.events);
            REQUIRE(got.invocations == whole.invocations);
        }
    }
}

/// Whether `Policy` decodes file bodies out of JSON strings (text_format_policy).
template<class Policy>
constexpr bool decodes_file_bodies() noexcept
{
    if constexpr (requires { Policy::decodes_file_bodies; })
        return Policy::decodes_file_bodies;
    else
        return false;
}

/// Every input byte must land exactly once in text, a segment's content or consumed markup, in
/// input order, whatever the chunking (including a stream cut off anywhere: finalize flushes).
/// Runs whole, in 1-byte chunks and in three random chunkings, each with a fresh `Policy(args...)`.
template<class Policy, class... Args>
void check_byte_conservation(std::string_view input, const Args&... args)
{
    auto run = [&](const std::vector<std::string_view>& pieces) {
        contract_recording_sink sink;
        sink.record_events = false;
        sink.decoded_bodies = decodes_file_bodies<Policy>();
        handler<Policy, contract_recording_sink> h(std::move(sink), {}, Policy(args...));
        for (auto piece : pieces)
            REQUIRE(fed_cleanly(h.feed(piece)));
        REQUIRE(!h.finalize());
        require_contract_kept(h.sink().contract);
        return std::move(h.sink().bytes);
    };
    std::vector<std::vector<std::string_view>> all{{input}};
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < input.size(); ++i)
        bytes.push_back(input.substr(i, 1));
    all.push_back(std::move(bytes));
    std::mt19937 rng(static_cast<unsigned>(input.size()));
    for (int r = 0; r < 3; ++r) {
        std::vector<std::string_view> pieces;
        for (std::size_t at = 0; at < input.size();) {
            const std::size_t n = std::min<std::size_t>(input.size() - at, 1 + rng() % 17);
            pieces.push_back(input.substr(at, n));
            at += n;
        }
        all.push_back(std::move(pieces));
    }
    for (const auto& pieces : all) {
        const auto got = run(pieces);
        if (got != input) {
            INFO("pieces: " << pieces.size() << "\ninput:\n" << input << "\nreconstructed:\n" << got);
            REQUIRE(got == input);
        }
    }
}

/// Prose full of near-misses for every text format: `<`, `>`, `{`, `[`, `[[`, JSON and tags that
/// are not tool calls.
inline constexpr std::string_view tricky_prose[] = {
    "Plain words. ", "a < b and c > d. ", "if (x) { y(); } ", "[1, 2] ", "[[wiki link]] ", "{\"to\": 1} ",
    "<div class=\"x\">", "</p> ", "<br/> ", "[[SEG_STAR ", "{ \"key\": [1, {\"a\": 2}] } ", "<too ", "\n",
    "```json\n", "```\n", "[ {\"nam\": 3} ] ", "{{ }} ", "]] }} >> ",
};

/// `count` inputs, each a random sequence of tricky prose and `calls`; every other input is cut off
/// at a random byte (a stream that ends anywhere, inside a call or not).
inline std::vector<std::string> mixed_inputs(std::span<const std::string_view> calls, std::size_t count,
                                             unsigned seed = 2024)
{
    std::mt19937 rng(seed);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < count; ++i) {
        std::string s;
        const auto parts = 2 + rng() % 8;
        for (unsigned p = 0; p < parts; ++p) {
            if (!calls.empty() && rng() % 3 == 0)
                s += calls[rng() % calls.size()];
            else
                s += tricky_prose[rng() % std::size(tricky_prose)];
        }
        if (i % 2 == 1 && !s.empty())
            s.resize(rng() % s.size());
        out.push_back(std::move(s));
    }
    return out;
}

/// Feeds `total` bytes of tricky prose (no tool syntax) in chunks of 1 byte to 3 KiB and REQUIREs
/// `held_bytes()` of the policy to stay within `bound` after every feed.
template<class Policy, class... Args>
void check_bounded_holdback(std::size_t bound, std::size_t total, const Args&... args)
{
    std::string prose;
    for (auto p : tricky_prose)
        prose += p;
    while (prose.size() < 64 * 1024)
        prose += prose;
    handler<Policy, contract_recording_sink> h(quiet_sink(), {}, Policy(args...));
    std::mt19937 rng(99);
    std::size_t fed = 0, most = 0;
    while (fed < total) {
        const std::size_t at = fed % prose.size();
        const std::size_t n = std::min<std::size_t>({prose.size() - at, total - fed, 1 + rng() % 3072});
        REQUIRE(fed_cleanly(h.feed(std::string_view(prose).substr(at, n))));
        fed += n;
        most = std::max(most, h.policy().held_bytes());
        if (most > bound)
            REQUIRE(most <= bound);
    }
    REQUIRE(!h.finalize());
    INFO("most held: " << most);
    CHECK(most <= bound);
}

/// One line per segment: type, START metadata (when any), coalesced content, END status (when
/// not complete).
inline std::string segments(const policy_run& r)
{
    std::map<std::string, std::string> content;
    for (const auto& e : r.events)
        if (e.type == segment_event_type::SEGMENT_CONTENT)
            content[e.segment_id] += e.delta;
    std::string out;
    for (const auto& e : r.events) {
        if (e.type == segment_event_type::SEGMENT_START) {
            out += std::string(boost::describe::enum_to_string(e.segment_kind, "?"));
            if (!e.metadata.empty())
                out += " " + boost::json::serialize(e.metadata);
            out += " " + boost::json::serialize(boost::json::string(content[e.segment_id]));
        } else if (e.type == segment_event_type::SEGMENT_END) {
            if (e.status != segment_status::complete)
                out += std::string(" ") + boost::describe::enum_to_string(e.status, "?");
            out += "\n";
        }
    }
    return out;
}

} // namespace toolstream::test
