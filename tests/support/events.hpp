// Test support: comparing event streams independently of how content was split into deltas.
#pragma once

#include <toolstream/segment_event.hpp>
#include <toolstream/sinks.hpp>

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream::test {

/// Merges adjacent CONTENT events of the same segment: two runs are equivalent when their
/// coalesced events are equal.
inline std::vector<owned_segment_event> coalesce(const std::vector<owned_segment_event>& events)
{
    std::vector<owned_segment_event> out;
    for (const auto& e : events) {
        if (e.type == segment_event_type::SEGMENT_CONTENT && !out.empty()
            && out.back().type == segment_event_type::SEGMENT_CONTENT && out.back().segment_id == e.segment_id) {
            out.back().delta += e.delta;
            continue;
        }
        out.push_back(e);
    }
    return out;
}

/// One event per line in the event JSON format: readable in test failure messages.
inline std::string dump(const std::vector<owned_segment_event>& events)
{
    std::string s;
    for (const auto& e : events)
        s += to_json_string(e.view()) + "\n";
    return s;
}

/// Concatenated CONTENT of every segment of a type.
inline std::string content_of_type(const std::vector<owned_segment_event>& events, segment_type type)
{
    std::string s;
    for (const auto& e : events)
        if (e.type == segment_event_type::SEGMENT_CONTENT && e.segment_kind == type)
            s += e.delta;
    return s;
}

/// Split points: every single split position, 1-byte pieces and seeded random chunkings.
inline std::vector<std::vector<std::string_view>> chunkings(std::string_view text, unsigned random_runs = 8)
{
    std::vector<std::vector<std::string_view>> all;
    all.push_back({text});
    if (text.empty())
        return all;
    for (std::size_t i = 1; i < text.size(); ++i)
        all.push_back({text.substr(0, i), text.substr(i)});
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < text.size(); ++i)
        bytes.push_back(text.substr(i, 1));
    all.push_back(bytes);
    std::mt19937 rng(12345);
    for (unsigned r = 0; r < random_runs; ++r) {
        std::vector<std::string_view> pieces;
        for (std::size_t at = 0; at < text.size();) {
            const std::size_t n = std::min<std::size_t>(text.size() - at, 1 + rng() % 9);
            pieces.push_back(text.substr(at, n));
            at += n;
        }
        all.push_back(pieces);
    }
    return all;
}

/// Calls `f` with a copy of `piece` in a heap block of exactly its size: a parser that reads past
/// the end of what it was given is then an ASan error, not a silent look at the next piece's bytes.
template<class F>
decltype(auto) with_exact_copy(std::string_view piece, F&& f)
{
    const auto block = std::make_unique<char[]>(piece.size());
    std::copy(piece.begin(), piece.end(), block.get());
    return std::forward<F>(f)(std::string_view(block.get(), piece.size()));
}

} // namespace toolstream::test
