// handler<Policy, Sink>: chunks in, segment events and tool invocations out.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/error.hpp>
#include <toolstream/handler/detail/native_call_assembler.hpp>
#include <toolstream/handler/invocation_adapter.hpp>
#include <toolstream/limits.hpp>
#include <toolstream/parse/event_target.hpp>
#include <toolstream/parse/parser_policy.hpp>
#include <toolstream/parse/segment_emitter.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/types.hpp>

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace toolstream {

struct handler_options {
    /// Put before every generated segment id (`seg_N`), e.g. a per-turn `"turn_3f2a:"`.
    /// Native tool calls keep the provider's call id as is.
    std::string segment_id_prefix;
    /// The choice this handler serves, stamped on its events (a pipeline sets it).
    std::size_t choice = 0;
    /// Bounds on native tool calls; `max_depth` also bounds every tool segment's arguments.
    native_call_limits native_limits;
    /// Keep each invocation for invocations() (off: the sink still gets each one, and a call's
    /// arguments are freed once it has: a server relaying a stream holds no finished call).
    bool keep_invocations = true;
    /// Keep the body of each write_file and patch_file call (off: the body streams through the
    /// sink's CONTENT events and is not held, so a call costs O(1) heap whatever its size; its
    /// invocation has no body key in `arguments`, an empty `arguments_raw`, and
    /// `streamed_body_bytes` set to the body's size; see tool_invocation).
    bool keep_file_bodies = true;
};

/// Feeds one response stream through `Policy` and delivers events and invocations to `Sink`.
///
/// Every event reaches the sink; an invocation reaches it right after the END event that
/// completed it, built from the writer's storage for that END (moved, not copied). Every other
/// kind of event the writer makes (argument fragments, consumed markup) reaches the sink when it
/// takes that kind.
/// `chunk.reasoning` becomes reasoning segments whatever the policy; `chunk.content` goes to the
/// policy; `chunk.tool_calls` are assembled here, for every policy: a provider may send native
/// calls beside content with calls written in it.
template<parser_policy Policy, event_sink Sink = recording_sink>
class handler {
    static_assert(detail::sink_signatures_checked<Sink>());

public:
    handler()
        requires std::default_initializable<Sink>
        : handler(Sink{})
    {
    }

    explicit handler(Sink sink, handler_options options = {}, Policy policy = {})
        : dispatch_{std::move(sink), {}, {}, nullptr, options.keep_invocations},
          writer_(dispatch_, emitter_options{std::move(options.segment_id_prefix), options.choice,
                                            options.native_limits.max_depth, options.keep_file_bodies}),
          native_(options.native_limits, options.keep_file_bodies), policy_(std::move(policy))
    {
        dispatch_.writer = &writer_;
    }

    // The writer points into this object.
    handler(const handler&) = delete;
    handler& operator=(const handler&) = delete;

    /// Consumes one chunk. Returns error::feed_after_finalize, or the first problem the policy
    /// reported (a limit hit: see the policy); the events emitted before it stay valid. An
    /// allocation that fails is error::out_of_memory, never an exception (a sink's own
    /// exceptions pass through).
    error_code feed(const chunk_response& chunk);

    /// As feed(chunk), but a whole call's argument text may be taken from `chunk` rather than
    /// copied (a large file call that starts in it), so that a call is not held twice.
    error_code feed(chunk_response&& chunk);

    /// Consumes model text, as a chunk with only `content` would.
    error_code feed(std::string_view content);

    /// Ends the stream: held text is flushed and open segments END (`incomplete` for tool calls
    /// that had not finished). A second call does nothing and succeeds.
    error_code finalize();

    /// Back to a fresh stream with the same sink, policy type and options.
    void reset();

    bool finalized() const noexcept { return finalized_; }
    const std::vector<tool_invocation>& invocations() const noexcept { return dispatch_.invocations; }
    Sink& sink() noexcept { return dispatch_.sink; }
    Policy& policy() noexcept { return policy_; }

    /// The recorded events, when the sink records them.
    const auto& events() const noexcept
        requires requires(const Sink& s) { s.events; }
    {
        return dispatch_.sink.events;
    }

private:
    struct dispatcher;

    // `owned`: the same chunk, when its strings may be taken.
    error_code feed_chunk(const chunk_response& chunk, chunk_response* owned);

    // A sink that erases its events' types (the run-time path's) gets an emitter that erases
    // its target's, so that its policies are compiled once, for it and for auto's trials alike.
    using writer_type = std::conditional_t<erases_event_types<Sink>, segment_emitter<event_target>,
                                           segment_emitter<dispatcher>>;

    // Receives every event from the writer: the user's sink, then the invocation an END made.
    struct dispatcher {
        Sink sink;
        std::vector<tool_invocation> invocations;
        invocation_adapter adapter;
        writer_type* writer;
        bool keep_invocations;

        void operator()(const segment_event& e);
        template<class Event>
            requires std::invocable<Sink&, const Event&>
        void operator()(const Event& e)
        {
            sink(e);
        }
    };

    dispatcher dispatch_;
    writer_type writer_;
    detail::native_call_assembler native_;
    Policy policy_;
    bool finalized_ = false;
};

} // namespace toolstream

#include <toolstream/handler/impl/handler.hpp>
