// Test support: the sink that keeps a copy of every chunk a provider converter emits, for the
// converter tests to look at one by one.
#pragma once

#include "catch_compat.hpp"

#include <toolstream/types.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace toolstream::test {

/// One chunk a converter emitted, and the choice it went to.
struct emitted_chunk {
    std::size_t choice;
    chunk_response chunk;
};

/// Keeps a copy of every chunk a converter emits. `emitted` holds them all in order with their
/// choices. `chunks` and `starts` split them for the tests that index content: a chunk that only
/// announces a response (its id and model) goes to `starts`, every other one to `chunks`. Each
/// chunk is so held twice, in `emitted` and in one of those.
struct chunk_recorder {
    /// A chunk for a later choice fails the test: most streams under test have one choice. Streams
    /// whose choices are not the point leave it empty, to let any through.
    std::optional<std::size_t> last_choice = 0;
    // Initialised, so that `{.last_choice = n}` leaves them out without a warning from GCC.
    std::vector<emitted_chunk> emitted{};
    std::vector<chunk_response> chunks{};
    std::vector<chunk_response> starts{};

    void operator()(std::size_t choice, const chunk_response& c)
    {
        if (last_choice)
            CHECK(choice <= *last_choice);
        emitted.push_back({choice, c});
        (only_announces(c) ? starts : chunks).push_back(c);
    }

    /// Whether `c` carries a response's id and model and nothing else: compared with an empty
    /// chunk given the same two, so that a chunk of many MB is not copied to find out.
    static bool only_announces(const chunk_response& c)
    {
        chunk_response announcement;
        announcement.response_id = c.response_id;
        announcement.model = c.model;
        return c == announcement;
    }

    /// Every tool-call delta of a choice, in order.
    std::vector<tool_call_delta> deltas(std::size_t choice = 0) const
    {
        std::vector<tool_call_delta> out;
        for (const auto& e : emitted)
            if (e.choice == choice)
                out.insert(out.end(), e.chunk.tool_calls.begin(), e.chunk.tool_calls.end());
        return out;
    }

    /// The arguments of one call of a choice, joined.
    std::string arguments(std::size_t call, std::size_t choice = 0) const
    {
        std::string joined;
        for (const auto& d : deltas(choice))
            if (d.index == call)
                joined += d.arguments_delta;
        return joined;
    }
};

} // namespace toolstream::test
