// pipeline<Provider, Policy, Sink>: raw response bytes in, events and invocations out.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/error.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/event_target.hpp>
#include <toolstream/parse/parser_policy.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline_options.hpp>
#include <toolstream/providers/provider.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/stream_summary.hpp>
#include <toolstream/transport/ndjson.hpp>
#include <toolstream/transport/sse.hpp>

#include <concepts>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace toolstream {

namespace detail {

/// Per-choice bookkeeping between a choice's handler and the user's sink.
struct choice_record {
    choice_summary summary;
    std::optional<finish_kind> finish;     // as the converter normalised the last finish reason
    std::vector<std::string> tool_order;   // tool segment ids in order of START
    bool collect_text = false;
    bool made_calls = false;               // a complete invocation came, kept or not
};

/// The sink of one choice's handler: records what summary() needs, then forwards every kind of
/// event the user's sink takes.
template<class Sink>
struct choice_sink {
    static constexpr bool event_types_erased = erases_event_types<Sink>;

    Sink* user;
    choice_record* record;

    void operator()(const segment_event& e)
    {
        if (e.type == segment_event_type::SEGMENT_START && is_tool_segment(e.segment_kind))
            record->tool_order.emplace_back(e.segment_id);
        else if (record->collect_text && e.type == segment_event_type::SEGMENT_CONTENT) {
            if (e.segment_kind == segment_type::text)
                record->summary.text.append(e.delta);
            else if (e.segment_kind == segment_type::reasoning)
                record->summary.reasoning.append(e.delta);
        }
        if constexpr (segment_event_sink<Sink>)
            (*user)(e);
    }
    void operator()(const tool_invocation& inv)
    {
        record->made_calls = record->made_calls || inv.is_complete();
        if constexpr (invocation_sink<Sink>)
            (*user)(inv);
    }
    template<class Event>
        requires std::invocable<Sink&, const Event&>
    void operator()(const Event& e)
    {
        (*user)(e);
    }
};

} // namespace detail

/// Decodes the transport of `Provider` (SSE or NDJSON), converts each event with
/// `provider_converter<Provider>`, and feeds every choice to its own handler<Policy>; all
/// choices deliver to the one `Sink`. Everything is resolved at compile time.
///
/// Besides each choice's events, the sink gets (when it takes them) the response-level events of
/// response_events.hpp: response_started before anything else, provider_failed where the stream
/// failed, and at finish() one choice_finished per choice, then usage_reported.
///
/// write() consumes every byte. It returns the first error met in those bytes (an oversized
/// event, a payload that is not valid for the dialect, a limit of the policy such as
/// too_many_calls); the offending event is skipped and the stream goes on. finish() ends the
/// transport and finalizes every choice.
///
/// The upstream's terminal state is kept as it said it: nothing after an SSE `[DONE]` is read,
/// and a choice's first finish stands (a later, different one is error::finish_repeated from
/// write(), and is not obeyed). A finish the converter does not know as a clean end is `error`,
/// with the raw reason in choice_finished::reason.
///
/// A stream that is not the provider's says so: when no event of it had the dialect's shape (no
/// chunk came out of the converter: another provider's stream, binary, text), finish() returns
/// error::provider_mismatch, or error::empty_stream when there was no byte but blanks. Either
/// is also the stream's error (summary().error names the provider; the sink gets
/// provider_failed). A valid empty answer is not one: its events (a role, a finish reason) have
/// the shape. Nor is a stream whose every event was dropped as oversized: event_too_large or
/// line_too_large, returned by write(), stays its error.
template<class Provider, parser_policy Policy = api_tool_call, event_sink Sink = recording_sink>
    requires provider_traits<Provider>
class pipeline {
    using converter_type = provider_converter<Provider>;
    static constexpr bool is_sse = converter_type::wire_framing == framing::sse;
    using decoder_type = std::conditional_t<is_sse, sse_decoder, ndjson_decoder>;
    static_assert(detail::sink_signatures_checked<Sink>());

public:
    using handler_type = handler<Policy, detail::choice_sink<Sink>>;
    using policy_factory = std::function<Policy()>;

    // Two constructors rather than `Sink sink = {}`: std::variant (runtime_pipeline) asks whether a
    // pipeline is default-constructible, and Clang then instantiates the default argument, a hard
    // error for sinks without a default constructor (openai_sse_writer, callback_sink).
    pipeline()
        requires std::default_initializable<Sink>
        : pipeline(Sink{})
    {
    }
    explicit pipeline(Sink sink, pipeline_options options = {},
                      policy_factory make_policy = [] { return Policy{}; })
        : sink_(std::move(sink)), options_(std::move(options)), make_policy_(std::move(make_policy)),
          decoder_(decoder_options())
    {
    }

    pipeline(const pipeline&) = delete;
    pipeline& operator=(const pipeline&) = delete;

    error_code write(std::string_view bytes);
    error_code finish();

    /// The choices seen so far and the response-level facts. Text and reasoning are filled in
    /// only with `collect_text`.
    stream_summary summary() const;

    /// The first error met by write()/finish() (kept; a stream can carry several).
    error_code first_error() const noexcept { return first_error_; }

    Sink& sink() noexcept { return sink_; }
    std::size_t choice_count() const noexcept { return choices_.size(); }
    /// The handler of choice `index` (created on first use).
    handler_type& choice(std::size_t index);

private:
    struct choice_state {
        detail::choice_record record;
        std::unique_ptr<handler_type> handler;
    };

    auto decoder_options() const
    {
        if constexpr (is_sse)
            return options_.sse;
        else
            return options_.ndjson;
    }

    // What write() and finish() hand the transport (its events and errors) and the converter (its
    // chunks), noting each error in `first` in stream order. One type for both, so the decoder
    // and the converter are instantiated once.
    struct router {
        pipeline& self;
        error_code& first;

        void operator()(const wire_event& ev)
        {
            if (self.ended_by_transport())
                return;   // after `[DONE]`: what a broken upstream sends there is not the answer's
            self.seen_event_ = true;
            self.record_error(self.converter_.convert(ev, *this), first);
        }
        void operator()(error_code ec) { self.record_error(ec, first); }
        void operator()(std::size_t index, const chunk_response& chunk)
        {
            self.record_error(self.route(index, chunk, nullptr), first, false);
        }
        // A chunk its converter lets go: the handler may take a whole call's text from it.
        void operator()(std::size_t index, chunk_response&& chunk)
        {
            self.record_error(self.route(index, chunk, &chunk), first, false);
        }
    };

    bool ended_by_transport() const noexcept
    {
        if constexpr (requires { decoder_.done(); })
            return decoder_.done();
        else
            return false;
    }
    choice_state& state(std::size_t index);
    // `owned`: the same chunk, when the handler may take its strings.
    error_code route(std::size_t index, const chunk_response& chunk, chunk_response* owned);
    // Keeps `ec` as the feed's and the pipeline's first error. `of_stream`: a transport or
    // payload error, which breaks the stream and is delivered as provider_failed (a policy's
    // limit does not: the call or tag it concerns says so).
    void record_error(error_code ec, error_code& first, bool of_stream = true);
    void start_response(const chunk_response* first_chunk);
    void fail(std::string_view message);
    finish_kind finish_of(const choice_state& c) const;
    template<class Event>
    void deliver(const Event& e)
    {
        if constexpr (std::invocable<Sink&, const Event&>)
            sink_(e);
    }

    Sink sink_;
    pipeline_options options_;
    policy_factory make_policy_;
    decoder_type decoder_;
    converter_type converter_;
    std::vector<std::unique_ptr<choice_state>> choices_;   // by choice index
    std::optional<token_usage> usage_;
    std::optional<std::string> provider_error_;
    error_code first_error_;
    error_code stream_error_;   // the first of the stream itself, for summary()
    std::string verdict_;       // why the stream is not the provider's (provider_mismatch, empty_stream)
    bool recognized_ = false;   // the converter made a chunk of some event
    bool seen_input_ = false;   // a byte other than a blank was written
    bool seen_event_ = false;   // the transport passed an event to the converter
    bool started_ = false;      // response_started was delivered
    bool failed_ = false;       // provider_failed was delivered
    bool finished_ = false;
};

} // namespace toolstream

#include <toolstream/pipeline/impl/pipeline.hpp>
