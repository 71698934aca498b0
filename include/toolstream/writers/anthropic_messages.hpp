// anthropic_sse_writer<Output>: an event sink that writes Anthropic Messages streaming output
// (`message_start` … `message_stop` server-sent events), so that unmodified Anthropic clients
// (@anthropic-ai/sdk, anthropic-sdk-python, Claude Code) read any provider's stream, and tool
// calls written in model text, as a native Claude message.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/types.hpp>
#include <toolstream/writers/byte_output.hpp>
#include <toolstream/writers/detail/anthropic_blocks.hpp>
#include <toolstream/writers/detail/anthropic_message.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream {

struct anthropic_options {
    std::string id;      ///< Message id; empty: the provider's, else `msg_` + 24 random hex digits.
    std::string model;   ///< Model name; empty: the provider's.
    /// Bytes held while a tool call's block is open (what other blocks get meanwhile) or before
    /// a call's name is known (its arguments): an Anthropic stream writes one block at a time,
    /// and a tool_use block starts with its name. Past this the message fails with an error
    /// event saying so, rather than interleave blocks or write a call without a name.
    std::size_t max_held_bytes = 256 * 1024;
};

/// The `signature` every thinking block carries (see detail::anthropic_thinking_signature):
/// none of this stream's thinking was signed by Anthropic. A gateway that gets a thinking block
/// with it back in a request must ignore the signature, and never forward it to Anthropic.
inline constexpr std::string_view anthropic_unsigned_signature = detail::anthropic_thinking_signature;

/// Writes Anthropic Messages SSE (`event: <type>` + `data: <json>` per event) from the core's
/// events. Give it to a pipeline (or a handler) as its sink; call `done()` after the pipeline's
/// `finish()` (or the handler's `finalize()`).
///
/// - `message_start` at the first event: `{id, type:"message", role:"assistant", model,
///   content:[], stop_reason:null, stop_sequence:null, usage:{input_tokens:0, output_tokens:0}}`
///   (input tokens are not known before the end; they come with message_delta).
/// - Choice 0 only: a Message has one choice, so other choices' events are ignored. Media
///   segments have no block here and are skipped.
/// - Each text, reasoning and tool segment is one content block, `index` counting blocks from 0
///   in the order they open: `content_block_start`, deltas, `content_block_stop`.
///   Text → `{"type":"text","text":""}` and `text_delta`s; reasoning →
///   `{"type":"thinking","thinking":"","signature":""}` (as Anthropic writes it), `thinking_delta`s
///   and, just before its stop, a `signature_delta` of anthropic_unsigned_signature; a tool
///   segment (native call, call or file/shell tool from text) →
///   `{"type":"tool_use","id":<segment id>,"name":…,"input":{}}` and one `input_json_delta`
///   per argument fragment, its JSON text verbatim, as it arrives. A free-form call (OpenAI
///   custom tool) has no JSON input; its text is written as `{"input":"<text>"}`.
/// - Text and thinking open at their first character (never an empty block). One block is open
///   at a time, as Anthropic clients assume: a block closes before the next opens, and output
///   for other blocks while a call's block is open waits (bounded: max_held_bytes) until the
///   call ends. A call whose START has no name waits for the name of its END (bounded alike).
/// - done() → `message_delta` `{"delta":{"stop_reason":R,"stop_sequence":null},"usage":{…}}`
///   then `message_stop`. R from choice 0's finish: stop → `end_turn`, tool_calls → `tool_use`,
///   length → `max_tokens`, content_filter → `refusal`; with no finish (a handler feeds none),
///   `tool_use` when a call completed, else `end_turn`. `usage` has `output_tokens`, and
///   `input_tokens` when the stream reported usage (the SDKs take both from message_delta).
///
/// Honest terminal states: nothing says the model finished cleanly unless it did. A tool call
/// that ENDs other than `complete` (`incomplete`, or `invalid_arguments`: a call cut mid-JSON is
/// either, depending on the provider) is never written as a whole call; the finish says why.
/// | what happened | what is written |
/// |---------------|-----------------|
/// | such a call, then choice 0 finishes `length` (the output was cut) | its block is left open, with no content_block_stop (clients act on a block once stopped), then message_delta `max_tokens` and message_stop: Anthropic's own stream for a tool_use cut by max_tokens, which clients do not run; blocks that waited behind it are not written |
/// | such a call, then another finish, none (done() with a handler), or more output | `event: error` `{"type":"error","error":{"type":"api_error","message":"tool call 'NAME' (id ID) has invalid arguments / is incomplete…: <the segment's error>"}}`, nothing after |
/// | a call never gets a name, or waits past max_held_bytes | an error event saying so |
/// | choice 0 finishes with kind `error` (an unknown or aborted finish) | an error event naming the provider's reason (detail::error_finish_message) |
/// | `provider_failed` | an error event with its message, where it happened |
/// The SDKs raise an error event as an API error; nothing is written after one.
///
/// Text, thinking and arguments are held back by at most 3 bytes when a delta ends inside a
/// UTF-8 character, so each event's JSON is valid UTF-8 on its own; bytes that are not UTF-8 at
/// all are written as U+FFFD. One buffer is reused for every event: steady state does not
/// allocate, and a call's arguments are never held whole (but in the bounded cases above).
template<byte_output Output>
class anthropic_sse_writer {
public:
    explicit anthropic_sse_writer(Output output, anthropic_options options = {})
        : output_(std::move(output)), options_(std::move(options)), blocks_(options_.max_held_bytes)
    {
    }

    void operator()(const response_started& r);
    void operator()(const segment_event& e) { blocks_.segment(e, *this); }
    void operator()(const argument_fragment& f) { blocks_.fragment(f, *this); }
    void operator()(const choice_finished& c) { blocks_.finish(c, *this); }
    void operator()(const usage_reported& u) { usage_ = u.usage; }
    void operator()(const provider_failed& p) { blocks_.fail(p.message, *this); }

    /// An SSE comment (`: text`), e.g. a keep-alive (SSE parsers drop it before any client code,
    /// so it may come before message_start); line breaks in `text` become spaces.
    void comment(std::string_view text);
    /// Ends the message (message_delta, message_stop), or writes the error a broken call makes
    /// (see the table above). Later calls and events write nothing.
    void done() { blocks_.done(*this); }

    /// The message's id and model (fixed by message_start).
    const std::string& id() const noexcept { return identity_.id; }
    const std::string& model() const noexcept { return identity_.model; }
    /// True once an error event was written.
    bool failed() const noexcept { return blocks_.failed(); }
    /// True once done() ended the message or an error was written: the stream's bytes are all out.
    bool closed() const noexcept { return blocks_.closed(); }

    Output& output() noexcept { return output_; }
    const Output& output() const noexcept { return output_; }

private:
    friend class detail::anthropic_block_sequencer;

    // The sequencer's target (detail/anthropic_blocks.hpp): each writes one event.
    void message_start();
    void block_start(detail::anthropic_block_type type, std::uint32_t index, std::string_view id,
                     std::string_view name);
    void block_delta(detail::anthropic_block_type type, std::uint32_t index, std::string_view piece);
    void block_stop(detail::anthropic_block_type type, std::uint32_t index);
    void message_end(std::string_view stop_reason);
    void error_event(std::string_view message);

    void open_event(std::string_view type);
    void open_block_event(std::string_view type, std::uint32_t index);
    void close_event();

    Output output_;
    anthropic_options options_;
    detail::response_identity identity_;
    std::optional<token_usage> usage_;
    std::string buf_;   // the event being written, reused
    detail::anthropic_block_sequencer blocks_;
};

static_assert(event_sink<anthropic_sse_writer<detail::byte_output_archetype>>);

} // namespace toolstream

#include <toolstream/writers/impl/anthropic_messages.hpp>
