// What a chat's pipeline delivers to: the client's writer behind a guard that keeps the upstream's
// word (no clean finish it did not give), the --viewer's tap beside it, and the upstream's error
// messages redacted for both.
#pragma once

#include "client_writers.hpp"
#include "exchange.hpp"
#include "gateway_viewer.hpp"   // programs/viewer: --viewer
#include "redaction.hpp"

#include <toolstream/sinks.hpp>

#include <concepts>
#include <string>
#include <string_view>
#include <utility>

namespace gateway {

/// A writer between the pipeline and the client that turns a choice ended without the
/// provider's finish (the upstream stopped early) into an `upstream_truncated` error, never a
/// `length` finish, and a choice with a broken tool call (`invalid_arguments`, `incomplete`) into
/// an error after the call, never a clean finish. A call cut by a `length` finish is left to
/// writers whose dialect has an honest shape for it (`writer_ends_cut_calls`: Anthropic's
/// `max_tokens` with the call's block unstopped, Responses' `incomplete`). It notes whether the
/// stream had anything of its dialect at all, and keeps the first error the client is told for
/// the log.
template<class Inner>
struct guarded_sink {
    Inner inner;
    bool writer_ends_cut_calls = false;
    bool saw_event = false;
    bool failed = false;
    bool truncated = false;
    std::string failure_message{};
    std::string broken_call{};   // why the first broken tool call is broken

    template<class Event>
        requires std::invocable<Inner&, const Event&>
    void operator()(const Event& e)
    {
        saw_event = true;
        inner(e);
    }
    void operator()(const toolstream::segment_event& e)
    {
        saw_event = true;
        if (e.type == toolstream::segment_event_type::SEGMENT_END && toolstream::is_tool_segment(e.segment_kind)
            && e.status != toolstream::segment_status::complete && broken_call.empty())
            broken_call = "the model's tool call '" + std::string(toolstream::tool_name_of(e)) + "' is " +
                          (e.status == toolstream::segment_status::incomplete ? "incomplete" : "broken") +
                          (e.error.empty() ? std::string() : ": " + std::string(e.error));
        inner(e);
    }
    void operator()(const toolstream::provider_failed& p)
    {
        note_failure(p.message);
        inner(p);
    }
    void operator()(const toolstream::choice_finished& c)
    {
        if (c.kind == toolstream::finish_kind::error)   // the writer reports it as this error
            note_failure(toolstream::detail::error_finish_message(c.reason));
        if (c.reason.empty() && !failed) {
            failed = truncated = true;
            inner(toolstream::provider_failed{describe(failure::truncated)});
            return;
        }
        const bool cut_by_length = c.kind == toolstream::finish_kind::length && writer_ends_cut_calls;
        if (!broken_call.empty() && !failed && !cut_by_length) {   // the client could not run that call
            note_failure(broken_call);
            inner(toolstream::provider_failed{broken_call});
            return;
        }
        inner(c);
    }

private:
    void note_failure(std::string_view message)
    {
        if (!failed)
            failure_message = message;
        failed = true;
    }
};

// The client's copy (first) and the --viewer's (second, which does nothing without a viewer),
// the upstream's error messages redacted for both. One type for every dialect and mode.
using client_sink = guarded_sink<client_writer>;
using chat_sink = redacting_sink<toolstream::tee_sink<client_sink, toolstream_viewer::viewer_tap>>;

/// The chat's tap into the --viewer feed, its stream named in the access log.
inline toolstream_viewer::viewer_tap viewer_tap_for(exchange& x)
{
    if (x.state.viewer == nullptr)
        return {};
    x.record.viewer_stream = x.state.viewer->next_stream();
    return {x.state.viewer, x.record.viewer_stream};
}

/// Ends the viewer's copy of a stream that stops early (the client left, the upstream failed
/// before its end): an `error` line, then finish(), which ends its open segments, so that the
/// viewer's snapshot never keeps them open. Nothing without a viewer.
template<class Pipeline>
class viewer_ending {
public:
    viewer_ending(Pipeline& p, const exchange& x) : pipeline_(x.state.viewer != nullptr ? &p : nullptr), state_(&x.state)
    {
    }
    viewer_ending(const viewer_ending&) = delete;
    viewer_ending& operator=(const viewer_ending&) = delete;
    ~viewer_ending()
    {
        if (pipeline_ == nullptr || state_->viewer == nullptr)   // none, or the gateway is exiting
            return;
        try {
            pipeline_->sink().inner.second()(toolstream::provider_failed{why_});
            pipeline_->finish();
        } catch (...) {   // out of memory: the viewer's copy stays open; the gateway goes on
        }
    }
    /// The pipeline was finished normally: nothing to do.
    void finished() noexcept { pipeline_ = nullptr; }
    void because(std::string why) { why_ = std::move(why); }

private:
    Pipeline* pipeline_;
    const shared_state* state_;
    std::string why_{describe(failure::client_gone)};
};

} // namespace gateway
