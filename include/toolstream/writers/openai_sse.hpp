// openai_sse_writer<Output>: an event sink that writes OpenAI Chat Completions streaming output
// (`chat.completion.chunk` server-sent events), so that unmodified OpenAI clients read any
// provider's stream, and tool calls written in model text, as native tool calls.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/types.hpp>
#include <toolstream/writers/byte_output.hpp>
#include <toolstream/writers/detail/openai_chunk.hpp>

#include <boost/json/value.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream {

/// How tool progress and tool results are put in the stream.
enum class extension_encoding {
    /// A regular chunk with `"choices":[]` and a `tool_progress` / `tool_result` member: every
    /// OpenAI client skips the extra member as it skips a usage chunk's choices.
    chunk,
    /// An SSE comment line (`: tool_progress {…}`), which SSE parsers drop before any client code.
    comment,
};

struct openai_sse_options {
    std::string id;                  ///< Chunk id; empty: the provider's, else `chatcmpl-` + random.
    std::string model;               ///< Model name; empty: the provider's.
    std::int64_t created = 0;        ///< Unix seconds; 0: the time the response starts.
    bool include_usage = true;       ///< Write the usage chunk when the stream reported usage.
    extension_encoding extensions = extension_encoding::chunk;
    /// Argument bytes held for a call whose name is not known yet (see openai_sse_writer); past
    /// this the call is written without its name, which follows once known.
    std::size_t max_held_call_bytes = 256 * 1024;
};

/// The phases of a tool the host runs: started, progressing, done, failed.
enum class tool_phase { step, progress, complete, error };

/// Progress of a tool the host application runs. `data` (any JSON, or null) and `timestamp`
/// (milliseconds, omitted when 0) are optional.
struct tool_progress {
    std::string_view tool;
    std::string_view tool_call_id;
    tool_phase phase = tool_phase::progress;
    std::string_view message;
    const boost::json::value* data = nullptr;
    std::int64_t timestamp = 0;
};

/// The result of a tool call the host application ran.
struct tool_result {
    std::string_view tool_call_id;
    std::string_view name;   ///< The tool's name (omitted when empty).
    std::string_view content;
    bool is_error = false;
};

/// Writes OpenAI Chat Completions SSE from the core's events. Give it to a pipeline (or a
/// handler) as its sink; call `done()` after the pipeline's `finish()` (or the handler's
/// `finalize()`): whatever fed it, the stream is then complete, one `finish_reason` per choice.
///
/// - Every chunk: `id`, `object:"chat.completion.chunk"`, `created`, `model`, and one choice
///   `{index, delta, finish_reason}`. The first delta of a choice carries `role:"assistant"`.
/// - Text → `delta.content`; reasoning → `delta.reasoning_content`.
/// - Tool segments (native calls, and calls and file/shell tools from text formats alike):
///   `delta.tool_calls[{index, …}]`, `index` counting the choice's calls in order of START. The
///   first delta carries `id` (the segment id), `type:"function"`, `function.name` and
///   `arguments:""`; then each argument fragment of the core, verbatim, as `function.arguments`.
/// - Late names: a `tool_call` whose START has no `tool_name` is held (up to
///   `max_held_call_bytes` of arguments) until its END names it, then written as one delta with
///   name and arguments. Past the bound it is written without the `name` member, and the name
///   follows once, at END, in a delta with `arguments:""`: clients that assign (openai-node),
///   concatenate (openai-python) or buffer until the name (AI SDK 7) all assemble it. A call that
///   never gets a name is not written: no OpenAI client can take a function call without one.
/// - One `finish_reason` per choice, from `choice_finished::kind`; `usage_reported` → a chunk
///   with `"choices":[]` and `usage`; `done()` → `data: [DONE]`.
/// - `provider_failed` (or a choice that finishes with kind `error`) → `data: {"error":{…}}`,
///   which the OpenAI SDKs raise as an API error; nothing is written after it, not even [DONE].
/// - `progress()` / `result()`: tool progress and results, encoded per `extension_encoding`.
///
/// - A free-form call (OpenAI Responses custom tool, metadata `free_form`) is a function call
///   whose `arguments` text is its raw input; once complete, its choice finishes `tool_calls`.
///
/// Text, reasoning and generated arguments are held back by at most 3 bytes when a delta ends
/// inside a UTF-8 character, so each chunk's JSON is valid UTF-8 on its own; bytes that are not
/// UTF-8 at all are written as U+FFFD. One buffer is reused
/// for every chunk: steady state does not allocate.
template<byte_output Output>
class openai_sse_writer {
public:
    explicit openai_sse_writer(Output output, openai_sse_options options = {})
        : output_(std::move(output)), options_(std::move(options))
    {
    }

    void operator()(const response_started& r) { start(r.id, r.model); }
    void operator()(const segment_event& e);
    void operator()(const argument_fragment& f);
    void operator()(const choice_finished& c);
    void operator()(const usage_reported& u);
    void operator()(const provider_failed& p) { fail(p.message); }

    /// Tool progress from the host application; may come at any time before done().
    void progress(const tool_progress& p);
    /// A tool's result from the host application; may come at any time before done().
    void result(const tool_result& r);
    /// An SSE comment (`: text`), e.g. a keep-alive; line breaks in `text` become spaces.
    void comment(std::string_view text);
    /// Ends every choice no `choice_finished` ended (`tool_calls` when it completed a call, else
    /// `stop`: a handler feeds no `choice_finished`), then writes `data: [DONE]` (not after an
    /// error). Later calls and events write nothing.
    void done();

    /// The response's chunk id, created and model (fixed by the first chunk written).
    const std::string& id() const noexcept { return identity_.id; }
    const std::string& model() const noexcept { return identity_.model; }
    std::int64_t created() const noexcept { return identity_.created; }
    /// True once an error was written.
    bool failed() const noexcept { return failed_; }
    /// True once done() ran or an error was written: the stream's bytes are all out.
    bool closed() const noexcept { return closed_; }

    Output& output() noexcept { return output_; }
    const Output& output() const noexcept { return output_; }

private:
    struct choice_state {
        bool role_sent = false;
        bool finished = false;
        bool made_calls = false;             // a tool call of the choice ENDed complete
        std::uint32_t calls = 0;             // tool calls started, for the next index
        detail::utf8_carry text, reasoning;  // the flowing segments' unfinished characters
    };
    struct open_call {
        std::string id;
        std::size_t choice = 0;
        std::uint32_t index = 0;
        bool open = false;
        bool announced = false;   // the first delta (id, type) is out
        bool named = false;       // the name is out
        std::string held;         // arguments held until the name is known
        detail::utf8_carry carry;
    };

    void start(std::string_view provider_id = {}, std::string_view provider_model = {});
    choice_state& choice(std::size_t index);
    open_call* find_call(std::size_t choice, std::string_view id);
    void start_call(const segment_event& e);
    void end_call(const segment_event& e);
    void text_delta(std::size_t choice, std::string_view field, detail::utf8_carry& carry, std::string_view delta);
    void write_text(std::size_t choice, std::string_view field, std::string_view text);
    void write_arguments(open_call& c, std::string_view json);
    void write_arguments_delta(const open_call& c, std::string_view piece);
    template<class AppendObject>
    void write_extension(std::string_view member, AppendObject&& append_object);
    void announce(open_call& c, std::string_view name, bool with_name);
    void fail(std::string_view message);
    void finish_choices();

    // Chunk assembly into buf_: open_choice() … close_choice(); or open_chunk() … close_chunk().
    void open_chunk();
    void close_chunk();
    void open_choice(std::size_t choice);
    void close_choice(std::string_view finish_reason = {});
    void open_tool_call(const open_call& c);
    void flush_buffer();

    Output output_;
    openai_sse_options options_;
    detail::response_identity identity_;
    std::string prefix_;   // `{"id":…,"object":…,"created":…,"model":…,` of every chunk
    std::string buf_;      // the chunk being written, reused
    std::vector<choice_state> choices_;
    std::vector<open_call> calls_;   // slots reused once a call ends
    std::size_t last_call_ = 0;      // the slot the last fragment went to
    bool failed_ = false;
    bool closed_ = false;
};

static_assert(event_sink<openai_sse_writer<detail::byte_output_archetype>>);

} // namespace toolstream

#include <toolstream/writers/impl/openai_sse.hpp>
#include <toolstream/writers/impl/openai_sse_chunks.hpp>
