// openai_responses_writer<Output>: an event sink that writes an OpenAI Responses API stream
// (`response.*` server-sent events), so that Responses clients (the openai SDKs'
// `responses.stream()`, the AI SDK's Responses provider, Codex CLI) read any provider's stream,
// and tool calls written in model text, as a native response with function calls.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/types.hpp>
#include <toolstream/writers/byte_output.hpp>
#include <toolstream/writers/detail/openai_response_items.hpp>
#include <toolstream/writers/detail/openai_response_json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream {

struct openai_responses_options {
    std::string id;                ///< Response id; empty: the provider's, else `resp_` + random hex.
    std::string model;             ///< Model name; empty: the provider's.
    std::int64_t created_at = 0;   ///< Unix seconds; 0: the time the response starts.
    /// Argument bytes held for a call whose name is not known yet (a Responses call item needs
    /// its name when it is added); past this the response fails, naming the call.
    std::size_t max_held_call_bytes = 256 * 1024;
};

/// Writes an OpenAI Responses SSE stream from the core's events. Give it to a pipeline (or a
/// handler) as its sink; call `done()` after the pipeline's `finish()` (or the handler's
/// `finalize()`).
///
/// Every event is `event: NAME` + `data: {"type":NAME,…,"sequence_number":N}`, N counting from 0.
/// - The first event of any kind writes `response.created` and `response.in_progress` (status
///   `in_progress`, `output` empty).
/// - Choice 0 becomes output items in order of START, one open at a time, `output_index`
///   counting them: text a `message` (`output_text` part, `response.output_text.delta`),
///   reasoning a `reasoning` item (`reasoning_text` part, `response.reasoning_text.delta`, as
///   vLLM and gpt-oss stream it; `summary` empty), each tool segment a `function_call`
///   (`call_id` the segment id, `response.function_call_arguments.delta` per argument fragment,
///   verbatim). A call whose metadata says `free_form` (a Responses custom tool) is a
///   `custom_tool_call` whose `input` is its fragments, which carry the raw input text
///   (`response.custom_tool_call_input.delta`). Each item ends with its `.done` events (the whole
///   text or arguments) and `response.output_item.done`.
///   Text interrupted by a call ends its message; later text is a new message. What arrives for
///   an item while an earlier one is open (text during a parallel call, a call behind another)
///   is written when its turn comes.
/// - Other choices and media segments are not written: a response has one output.
/// - A call whose name is unknown at START (named by its END) is held until then, at most
///   `max_held_call_bytes`; past that the response fails. One that never gets a name is not
///   written (no client takes a call without one) and fails the response.
///
/// How it ends (at done(), or at once on an error): the first rule that applies.
/// 1. `provider_failed`, or choice 0 finished `error`: `response.failed` at once, with
///    `error: {"code":"server_error","message":…}` (a finish's own reason named in it).
/// 2. Choice 0 finished `length`: `response.incomplete`, `incomplete_details.reason`
///    `max_output_tokens`, whatever it cut (a call cut there often ENDs `invalid_arguments`,
///    its JSON unfinished).
/// 3. A call did not END `complete` (cut off, invalid arguments, never named):
///    `response.failed`, the error naming the call and why.
/// 4. Choice 0 finished `content_filter`: `response.incomplete`, reason `content_filter`.
/// 5. Otherwise (`stop`, `tool_calls`, or no finish: a handler feeds none): `response.completed`.
/// A call that did not END `complete` is done with item status `incomplete` (and no
/// `.arguments.done` event): never written as a completed call. A message or reasoning item
/// still open when a `length` or `content_filter` finish cut it is `incomplete` as well. The
/// terminal event carries the whole response (every item as done, `usage` when one was
/// reported, else null); nothing is written after it. Clients: openai-node's `finalResponse()`
/// resolves with a failed or incomplete response (its `status` says so, as for the API's own);
/// the AI SDK (4.0) and Codex still route an `incomplete` call item to their tools, whose
/// argument parsing refuses a cut JSON text, and end with the failure; the AI SDK shows
/// reasoning only from summaries, so it does not show `reasoning_text`.
///
/// Memory: the dialect repeats every text, reasoning and argument text whole, in its `.done`
/// events and in the final response, so the writer keeps each one until done(): exactly one
/// copy per item (the held arguments of a call waiting for its name are that copy). Text,
/// reasoning and arguments are held back by at most 3 bytes when a delta ends inside a UTF-8
/// character, and bytes that are not UTF-8 are written (and kept) as U+FFFD, so every event is
/// valid UTF-8 JSON. One buffer is reused for every event, and a long string is written in
/// slices of a few KiB: an event may reach the output in several writes, none much larger
/// than 40 KiB; steady state does not allocate beyond each item's own text.
template<byte_output Output>
class openai_responses_writer {
public:
    explicit openai_responses_writer(Output output, openai_responses_options options = {})
        : output_(std::move(output)), options_(std::move(options))
    {
    }

    void operator()(const response_started& r) { start(r.id, r.model); }
    void operator()(const segment_event& e);
    void operator()(const argument_fragment& f);
    void operator()(const choice_finished& c);
    void operator()(const usage_reported& u);
    void operator()(const provider_failed& p) { fail(p.message); }

    /// Ends every item still open, then writes the terminal event (see the table above). Later
    /// calls and events write nothing.
    void done();

    const std::string& id() const noexcept { return identity_.id; }
    const std::string& model() const noexcept { return identity_.model; }
    std::int64_t created_at() const noexcept { return identity_.created; }
    /// True once `response.failed` was written.
    bool failed() const noexcept { return failed_; }
    /// True once the terminal event was written: the stream's bytes are all out.
    bool closed() const noexcept { return closed_; }

    Output& output() noexcept { return output_; }
    const Output& output() const noexcept { return output_; }

private:
    void start(std::string_view provider_id = {}, std::string_view provider_model = {});
    void fail(std::string_view message);
    void pump();
    void finish(const detail::response_end& end);

    // Events. open_event() … close_event() assemble one in buf_; spill() hands buf_ to the
    // output once it is large (a long string is appended in slices between).
    void announce(const detail::response_item& item);
    void write_delta(const detail::response_item& item, std::string_view text);
    void write_done(const detail::response_item& item);
    void open_event(std::string_view type);
    void open_item_event(std::string_view type, const detail::response_item& item, bool content_index);
    void close_event();
    void spill();

    Output output_;
    openai_responses_options options_;
    detail::response_identity identity_;
    detail::response_output out_;
    std::string buf_;                       // the event being written, reused
    std::uint64_t sequence_ = 0;
    std::size_t current_ = 0;               // the first item not done
    std::uint64_t output_index_ = 0;        // the output_index of that item
    std::size_t streamed_ = 0;              // bytes of its content written
    bool announced_ = false;                // its output_item.added is out
    std::optional<finish_kind> finish_;     // choice 0's
    std::optional<token_usage> usage_;
    bool failed_ = false;
    bool closed_ = false;
};

static_assert(event_sink<openai_responses_writer<detail::byte_output_archetype>>);

} // namespace toolstream

#include <toolstream/writers/impl/openai_responses.hpp>
