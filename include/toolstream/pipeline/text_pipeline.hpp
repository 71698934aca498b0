// text_pipeline<Policy, Sink>: plain model text in (no provider framing), with pipeline's interface.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/error.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/parser_policy.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/stream_summary.hpp>

#include <concepts>
#include <functional>
#include <string_view>
#include <utility>

namespace toolstream {

/// Plain model text (what a completion endpoint or a local model prints), read as one choice:
/// the bytes written are the text itself. The sink gets what a pipeline's sink gets, in the same
/// order: response_started (no id, no model) first, the choice's events, and at finish() one
/// choice_finished (`tool_calls` when a call completed, else `stop`; no raw reason). No usage.
/// runtime_pipeline::create(text_provider_name, ...) builds one by name.
template<parser_policy Policy = api_tool_call, event_sink Sink = recording_sink>
class text_pipeline {
    static_assert(detail::sink_signatures_checked<Sink>());

public:
    using handler_type = handler<Policy, detail::choice_sink<Sink>>;
    using policy_factory = std::function<Policy()>;

    text_pipeline()
        requires std::default_initializable<Sink>
        : text_pipeline(Sink{})
    {
    }
    /// `options.sse`, `options.ndjson` and the choice suffix of segment ids do not apply.
    explicit text_pipeline(Sink sink, pipeline_options options = {},
                           policy_factory make_policy = [] { return Policy{}; })
        : sink_(std::move(sink)), record_{{}, {}, {}, options.collect_text},
          handler_(detail::choice_sink<Sink>{&sink_, &record_},
                   handler_options{std::move(options.segment_id_prefix), 0, options.native_limits,
                                   options.keep_invocations, options.keep_file_bodies},
                   make_policy())
    {
    }

    // The handler's sink points into this object.
    text_pipeline(const text_pipeline&) = delete;
    text_pipeline& operator=(const text_pipeline&) = delete;

    /// Consumes model text; returns the first problem the policy reported (a limit it hit).
    error_code write(std::string_view bytes)
    {
        if (finished_)
            return error::feed_after_finalize;
        start();
        return note(handler_.feed(bytes));
    }

    /// Ends the text: held bytes are flushed, open calls END `incomplete`, then choice_finished.
    error_code finish()
    {
        if (finished_)
            return {};
        finished_ = true;
        start();
        const error_code ec = note(handler_.finalize());
        deliver(choice_finished{0, {}, record_.made_calls ? finish_kind::tool_calls : finish_kind::stop});
        return ec;
    }

    /// The one choice (text and reasoning only with `collect_text`); no usage, no stream error.
    stream_summary summary() const
    {
        choice_summary c = record_.summary;
        const auto& invocations = handler_.invocations();
        for (const auto& id : record_.tool_order)
            for (const auto& inv : invocations)
                if (inv.id == id) {
                    c.tool_calls.push_back(inv);
                    break;
                }
        stream_summary s;
        s.choices.push_back(std::move(c));
        return s;
    }

    error_code first_error() const noexcept { return first_error_; }
    Sink& sink() noexcept { return sink_; }
    std::size_t choice_count() const noexcept { return 1; }
    /// The handler of the one choice (index 0).
    handler_type& choice(std::size_t) noexcept { return handler_; }

private:
    void start()
    {
        if (started_)
            return;
        started_ = true;
        deliver(response_started{});
    }
    error_code note(error_code ec)
    {
        if (ec && !first_error_)
            first_error_ = ec;
        return ec;
    }
    template<class Event>
    void deliver(const Event& e)
    {
        if constexpr (std::invocable<Sink&, const Event&>)
            sink_(e);
    }

    Sink sink_;
    detail::choice_record record_;
    handler_type handler_;
    error_code first_error_;
    bool started_ = false;
    bool finished_ = false;
};

} // namespace toolstream
