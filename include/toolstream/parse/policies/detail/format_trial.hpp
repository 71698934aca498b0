// One format tried on the bytes at an opening marker, for auto_policy: the format's own policy
// reads them into an emitter whose events are only watched, never delivered, and the watch says
// whether the format reads a call (or markup of its own) there.
#pragma once

#include <toolstream/parse/event_target.hpp>
#include <toolstream/parse/segment_emitter.hpp>
#include <toolstream/segment_event.hpp>

#include <cstddef>
#include <string_view>

namespace toolstream::detail {

/// What a tried format made of the bytes at an opening so far.
enum class trial_verdict {
    undecided,   ///< it holds them, or reads a block that has not yet named a call
    rejected,    ///< its first output is text: the bytes open nothing of this format
    markup,      ///< it reads markup of its own (a block with no call, a marker) that ended cleanly
    flawed,      ///< it reads a block of its own that breaks (a broken call, a limit)
    accepted,    ///< it reads a named call that ends complete (or is still open at the window's end)
};

/// The events of a trial, reduced to what the verdict needs: the first that settles it, in the
/// order of the bytes (so the verdict does not depend on how they were fed), and whether a call
/// was named.
struct trial_watch {
    enum class sign { none, text, call_done, call_failed };
    sign first = sign::none;
    bool seen = false;   // any output yet
    bool call_named = false;
    std::size_t calls_done = 0;   // calls that ended complete

    void operator()(const segment_event& e)
    {
        const bool flowing = e.segment_kind == segment_type::text || e.segment_kind == segment_type::reasoning;
        if (!seen && flowing)
            first = sign::text;
        seen = true;
        if (!flowing && e.type == segment_event_type::SEGMENT_END && e.status == segment_status::complete)
            ++calls_done;
        if (flowing || first != sign::none)
            return;
        if (e.type == segment_event_type::SEGMENT_START)
            call_named = true;
        else if (e.type == segment_event_type::SEGMENT_END && e.status == segment_status::complete)
            first = sign::call_done;
        else if (e.type == segment_event_type::SEGMENT_END && e.status != segment_status::incomplete)
            first = sign::call_failed;   // a cut call is the stream's end, not a sign of the format
    }
    void operator()(const consumed_markup&) { seen = true; }
};

/// Format policy `P` tried on the bytes from one opening on. Not movable: the emitter points at
/// the watch.
template<class P>
class format_trial {
public:
    explicit format_trial(const typename P::options_type& options) : policy_(options) {}
    format_trial(const format_trial&) = delete;
    format_trial& operator=(const format_trial&) = delete;

    /// A new trial at an opening; `text_before` tells the format that non-blank text went out
    /// before it (some openers count only at the start of the output).
    void start(bool text_before)
    {
        policy_.reset();
        out_.reset();
        watch_ = {};
        ended_ = false;
        if (text_before)
            policy_.after_text(non_blank_text);
    }

    void feed(std::string_view bytes) { policy_.on_content(bytes, out_); }

    /// The verdict so far. A call settles it when it ends (complete or not); text first rejects.
    /// `final`: no more bytes will come before the decision (the window's end or the stream's):
    /// the trial ends as a stream would, and a named call still open, or markup with no block
    /// left open, counts.
    trial_verdict verdict(bool final)
    {
        if (watch_.first == trial_watch::sign::none && final && !ended_) {
            ended_ = true;
            markup_closed_ = watch_.seen && !policy_.in_block();
            policy_.finalize(out_);
        }
        switch (watch_.first) {
        case trial_watch::sign::text: return trial_verdict::rejected;
        case trial_watch::sign::call_done: return trial_verdict::accepted;
        case trial_watch::sign::call_failed: return trial_verdict::flawed;
        case trial_watch::sign::none: break;
        }
        if (!ended_)
            return trial_verdict::undecided;
        if (watch_.call_named)
            return trial_verdict::accepted;
        return markup_closed_ ? trial_verdict::markup : trial_verdict::flawed;
    }

private:
    static constexpr std::string_view non_blank_text = ".";

    P policy_;
    trial_watch watch_;
    segment_emitter<event_target> out_{watch_};   // the run-time pipeline's emitter type: no code more
    bool ended_ = false;
    bool markup_closed_ = false;
};

} // namespace toolstream::detail
