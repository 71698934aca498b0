// The one place segment events are made. Parser policies write through it; it assigns ids, keeps
// metadata (END repeats it) and the content of tool segments (invocations need it).
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/types.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream {

/// Identifies an open segment of a segment_writer.
enum class segment_ref : std::uint32_t {};

/// Writes segment events to `Target`, a callable taking `const segment_event&`.
///
/// Text and reasoning are *flowing* segments: consecutive writes extend one open segment, and
/// starting any other segment ends it. Block segments (tool calls, files, commands) may be open
/// several at a time (parallel native calls interleave) and end only when their policy says.
/// Empty deltas are never emitted.
template<class Target>
class segment_writer {
public:
    explicit segment_writer(Target& target, std::string id_prefix = {})
        : target_(&target), prefix_(std::move(id_prefix))
    {
    }

    void text(std::string_view s) { flow(segment_type::text, s); }
    void reasoning(std::string_view s) { flow(segment_type::reasoning, s); }

    /// Ends the open text or reasoning segment, if any.
    void end_flow()
    {
        if (flow_open_) {
            flow_open_ = false;
            end(flow_ref_);
        }
    }

    /// Reports bytes the policy consumed as syntax. Free unless the target takes them.
    void markup(std::string_view bytes)
    {
        if constexpr (requires(Target& t) { t(consumed_markup{bytes}); })
            if (!bytes.empty())
                (*target_)(consumed_markup{bytes});
    }

    /// Records a problem met while parsing (a limit hit, say); the handler's feed() or finalize()
    /// returns the first one reported during that call.
    void report(error_code ec) noexcept
    {
        if (!reported_)
            reported_ = ec;
    }

    /// The first problem reported since the last call, and forgets it.
    error_code take_reported() noexcept { return std::exchange(reported_, {}); }

    /// Starts a block segment (ending the flow first). An empty `id` gets the next `seg_N`.
    segment_ref start(segment_type type, boost::json::object metadata = {}, std::string_view id = {})
    {
        end_flow();
        return open(type, std::move(metadata), id);
    }

    void content(segment_ref r, std::string_view delta)
    {
        if (delta.empty())
            return;
        auto& s = slot(r);
        if (is_tool_segment(s.type))
            s.content.append(delta);
        auto e = event_of(segment_event_type::SEGMENT_CONTENT, s);
        e.delta = delta;
        (*target_)(e);
    }

    /// The segment's metadata; changes made before end() appear in the END event.
    boost::json::object& metadata(segment_ref r) { return slot(r).metadata; }

    /// Everything emitted as content so far (kept for tool segments only).
    std::string_view content_of(segment_ref r) const { return slots_[index(r)].content; }

    std::string_view id_of(segment_ref r) const { return slots_[index(r)].id; }

    /// Emits END with the accumulated metadata. `raw` is the received argument text when the
    /// content is a decoded form of it (see segment_event::raw).
    void end(segment_ref r, segment_status status = segment_status::complete, std::string_view error = {},
             std::string_view raw = {})
    {
        auto& s = slot(r);
        auto e = event_of(segment_event_type::SEGMENT_END, s);
        e.metadata = &s.metadata;
        e.status = status;
        e.error = error;
        e.content = s.content;
        e.raw = raw;
        (*target_)(e);
        s.open = false;
        free_.push_back(index(r));
    }

    /// Forgets every segment and restarts the id counter; keeps buffer capacity.
    void reset()
    {
        free_.clear();
        for (std::uint32_t i = 0; i < slots_.size(); ++i) {
            slots_[i].open = false;
            free_.push_back(i);
        }
        flow_open_ = false;
        counter_ = 0;
        reported_ = {};
    }

private:
    struct open_segment {
        std::string id;
        segment_type type = segment_type::text;
        boost::json::object metadata;
        std::string content;
        bool open = false;
    };

    static segment_event event_of(segment_event_type type, const open_segment& s)
    {
        segment_event e;
        e.type = type;
        e.segment_id = s.id;
        e.segment_kind = s.type;
        return e;
    }

    static std::uint32_t index(segment_ref r) { return static_cast<std::uint32_t>(r); }
    open_segment& slot(segment_ref r) { return slots_[index(r)]; }

    void flow(segment_type type, std::string_view s)
    {
        if (s.empty())
            return;
        if (flow_open_ && slot(flow_ref_).type != type)
            end_flow();
        if (!flow_open_) {
            flow_ref_ = open(type, {}, {});
            flow_open_ = true;
        }
        content(flow_ref_, s);
    }

    segment_ref open(segment_type type, boost::json::object metadata, std::string_view id)
    {
        std::uint32_t i;
        if (!free_.empty()) {
            i = free_.back();
            free_.pop_back();
        } else {
            i = static_cast<std::uint32_t>(slots_.size());
            slots_.emplace_back();
        }
        auto& s = slots_[i];
        if (id.empty()) {
            s.id.assign(prefix_).append("seg_").append(std::to_string(++counter_));
        } else {
            s.id.assign(id);
        }
        s.type = type;
        s.metadata = std::move(metadata);
        s.content.clear();
        s.open = true;
        auto e = event_of(segment_event_type::SEGMENT_START, s);
        e.metadata = &s.metadata;
        (*target_)(e);
        return segment_ref{i};
    }

    Target* target_;
    std::string prefix_;
    std::vector<open_segment> slots_;
    std::vector<std::uint32_t> free_;
    segment_ref flow_ref_{};
    bool flow_open_ = false;
    std::uint64_t counter_ = 0;
    error_code reported_;
};

} // namespace toolstream
