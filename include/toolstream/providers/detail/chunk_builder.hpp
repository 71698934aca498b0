// The one chunk_response a converter reuses for every chunk it emits.
#pragma once

#include <toolstream/types.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace toolstream::detail {

/// Owns the chunk a converter fills and emits, chunk after chunk.
///
/// chunk_response::clear() keeps the capacity of its own strings but destroys the deltas in
/// `tool_calls`, and the buffers of their strings with them. begin() parks those deltas in a
/// spare pool instead, and add_call() moves them back, so arguments are assigned into strings
/// that have already grown: no allocation once the largest chunk of the stream has been seen.
class chunk_builder {
public:
    /// Empties the chunk for the next event and returns it.
    chunk_response& begin()
    {
        auto& calls = chunk_.tool_calls;
        if (spare_.empty()) {
            calls.swap(spare_);   // the usual case, and no delta moves
        } else {
            while (!calls.empty()) {
                spare_.push_back(std::move(calls.back()));
                calls.pop_back();
            }
        }
        chunk_.clear();
        return chunk_;
    }

    chunk_response& chunk() noexcept { return chunk_; }

    /// Appends a delta for call `index` with every other field empty.
    tool_call_delta& add_call(std::size_t index)
    {
        auto& calls = chunk_.tool_calls;
        if (spare_.empty()) {
            calls.emplace_back();
        } else if (calls.empty() && spare_.size() == 1) {
            calls.swap(spare_);   // the usual chunk of one call: no delta moves
        } else {
            calls.push_back(std::move(spare_.back()));
            spare_.pop_back();
        }
        auto& d = calls.back();
        d.index = index;
        d.call_id.clear();
        d.name.clear();
        d.arguments_delta.clear();
        d.is_complete = false;
        d.free_form = false;
        return d;
    }

    /// True when the chunk carries nothing worth emitting.
    bool empty() const noexcept
    {
        const auto& c = chunk_;
        return c.content.empty() && c.reasoning.empty() && !c.is_complete && !c.usage
            && c.image_urls.empty() && c.audio_urls.empty() && c.video_urls.empty()
            && c.tool_calls.empty() && c.refusal.empty() && c.finish_reason.empty() && !c.finish
            && c.error.empty() && c.response_id.empty() && c.model.empty();
    }

private:
    chunk_response chunk_;
    std::vector<tool_call_delta> spare_;
};

} // namespace toolstream::detail
