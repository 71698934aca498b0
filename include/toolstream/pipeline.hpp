// pipeline<Provider, Policy, Sink>: raw response bytes in, events and invocations out.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/error.hpp>
#include <toolstream/handler.hpp>
#include <toolstream/policies/api_tool_call.hpp>
#include <toolstream/provider.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/stream_summary.hpp>
#include <toolstream/transport/ndjson.hpp>
#include <toolstream/transport/sse.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace toolstream {

struct pipeline_options {
    /// Prefix of generated segment ids; choice N > 0 adds `cN:` after it, so ids stay unique.
    std::string segment_id_prefix;
    /// Keep each choice's text and reasoning for summary() (off: only calls, finish, usage, error).
    bool collect_text = false;
    sse_options sse;
    ndjson_options ndjson;
};

namespace detail {

/// Per-choice bookkeeping between a choice's handler and the user's sink.
struct choice_record {
    choice_summary summary;
    std::vector<std::string> tool_order;   // tool segment ids in order of START
    bool collect_text = false;
};

/// The sink of one choice's handler: records what summary() needs, then forwards to the
/// user's sink only the kinds it takes.
template<class Sink>
struct choice_sink {
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
    void operator()(const tool_invocation& i)
        requires invocation_sink<Sink>
    {
        (*user)(i);
    }
    void operator()(consumed_markup m)
        requires std::invocable<Sink&, consumed_markup>
    {
        (*user)(m);
    }
};

} // namespace detail

/// Decodes the transport of `Provider` (SSE or NDJSON), converts each event with
/// `provider_converter<Provider>`, and feeds every choice to its own handler<Policy>; all
/// choices deliver to the one `Sink`. Everything is resolved at compile time.
///
/// write() consumes every byte. It returns the first error met in those bytes (an oversized
/// event, a payload that is not valid for the dialect, a limit of the policy such as
/// too_many_calls); the offending event is skipped and the stream goes on. finish() ends the
/// transport and finalizes every choice.
template<class Provider, parser_policy Policy = api_tool_call, event_sink Sink = recording_sink>
    requires provider_traits<Provider>
class pipeline {
    using converter_type = provider_converter<Provider>;
    static constexpr bool is_sse = converter_type::wire_framing == framing::sse;
    using decoder_type = std::conditional_t<is_sse, sse_decoder, ndjson_decoder>;

public:
    using handler_type = handler<Policy, detail::choice_sink<Sink>>;
    using policy_factory = std::function<Policy()>;

    explicit pipeline(Sink sink = {}, pipeline_options options = {},
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

    choice_state& state(std::size_t index);
    error_code route(std::size_t index, const chunk_response& chunk);
    // `of_stream`: a transport or payload error, which breaks the stream (a policy's limit
    // does not: the call or tag it concerns says so).
    void note(error_code ec, error_code& first, bool of_stream = true);

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
    bool finished_ = false;
};

} // namespace toolstream

#include <toolstream/impl/pipeline.hpp>
