// anthropic_block_sequencer: the core's events as Anthropic Messages content blocks, one open at a
// time, with the honest end of the message. The streaming writer renders what it decides as SSE,
// the builder as one message object: both say the same because one state machine decides.
#pragma once

#include <toolstream/detail/utf8.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/types.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::detail {

enum class anthropic_block_type : unsigned char { text, thinking, tool_use };

/// Turns choice 0's events into content blocks and the message's end, and calls a Target
/// (`t` an lvalue of it; every view lives for the call only):
///
/// | expression | when |
/// |------------|------|
/// | `t.message_start()` | once, before anything else but an error |
/// | `t.block_start(type, index, id, name)` | a block opens (`id`, `name`: tool_use only) |
/// | `t.block_delta(type, index, piece)` | the block's next text, thinking or partial JSON; `piece` never ends inside a UTF-8 character, but may hold bytes that are not UTF-8 |
/// | `t.block_stop(type, index)` | the block is whole |
/// | `t.message_end(stop_reason)` | done(): the message ended as `stop_reason` says |
/// | `t.error_event(message)` | the message failed; nothing follows |
///
/// Blocks never interleave (Anthropic clients keep one open block): text and thinking open at
/// their first character and close when their segment ends or another block must open; a tool
/// call opens at START (or, without a name there, at END, its arguments held until then) and
/// closes at its END. What arrives for other blocks while a call is open (parallel native calls,
/// text beside a call) is held, up to `max_held_bytes` with any held arguments, and written
/// once the call closes; past the bound the message fails rather than interleave or drop it.
///
/// A tool call that ENDs other than `complete` stays open until the finish says why: a `length`
/// finish (the output was cut) leaves it open, unstopped, and the message ends `max_tokens`, as
/// Anthropic's own stream does for a call cut by max_tokens (what was held behind it is not
/// written); any other finish, or more output after it, is an error naming the call.
class anthropic_block_sequencer {
public:
    explicit anthropic_block_sequencer(std::size_t max_held_bytes) : max_held_(max_held_bytes) {}

    template<class Target>
    void start(Target& t);
    template<class Target>
    void segment(const segment_event& e, Target& t);
    template<class Target>
    void fragment(const argument_fragment& f, Target& t);
    template<class Target>
    void finish(const choice_finished& c, Target& t);
    template<class Target>
    void fail(std::string_view message, Target& t);
    /// Ends the message (or fails it, when a call is left broken); later calls do nothing.
    template<class Target>
    void done(Target& t);

    bool failed() const noexcept { return failed_; }
    bool closed() const noexcept { return closed_; }

private:
    enum class step : unsigned char { start, content, fragment, end };

    // One event of choice 0, as the sequencer needs it (tool names already looked up).
    struct event_view {
        step kind = step::start;
        std::string_view id;
        segment_type type = segment_type::text;
        std::string_view bytes;   // CONTENT delta or fragment JSON
        std::string_view name;    // tool START / END
        segment_status status = segment_status::complete;
        std::string_view error;
        bool free_form = false;
    };

    // An event held while a call's block is open.
    struct held_event {
        step kind = step::start;
        std::string id;
        segment_type type = segment_type::text;
        std::string bytes;
        std::string name;
        segment_status status = segment_status::complete;
        std::string error;
        bool free_form = false;

        event_view view() const noexcept { return {kind, id, type, bytes, name, status, error, free_form}; }
        // What it counts against max_held_bytes: its strings, and a share of bookkeeping, so that
        // many empty events are bounded too.
        std::size_t cost() const noexcept { return 64 + id.size() + bytes.size() + name.size() + error.size(); }
    };

    // The tool call whose block is (or is about to be) the open one.
    struct open_call {
        bool active = false;
        bool announced = false;   // content_block_start is out
        bool ended = false;       // ENDed other than complete: waiting for the finish
        bool free_form = false;
        std::uint32_t index = 0;
        std::string id;
        std::string name;
        std::string held;   // arguments before the name is known
        segment_status status = segment_status::complete;
        std::string error;
        utf8_carry carry;
    };

    template<class Target>
    void handle(const event_view& e, Target& t);
    template<class Target>
    void apply(const event_view& e, Target& t);
    template<class Target>
    void hold(const event_view& e, Target& t);
    template<class Target>
    void drain(Target& t);

    template<class Target>
    void flow_content(anthropic_block_type type, std::string_view delta, Target& t);
    template<class Target>
    void flow_piece(std::string_view piece, Target& t);
    template<class Target>
    void close_flow(Target& t);

    template<class Target>
    void start_call(const event_view& e, Target& t);
    template<class Target>
    void call_arguments(std::string_view json, Target& t);
    template<class Target>
    void write_arguments(std::string_view json, Target& t);
    template<class Target>
    void arguments_piece(std::string_view piece, Target& t);
    template<class Target>
    void announce(Target& t);
    template<class Target>
    void end_call(const event_view& e, Target& t);

    std::string call_problem() const;

    std::size_t max_held_;
    std::optional<finish_kind> finish_;
    bool started_ = false;
    bool closed_ = false;
    bool failed_ = false;
    bool made_call_ = false;   // a tool_use block closed complete

    bool flow_open_ = false;   // a text or thinking block is open
    anthropic_block_type flow_type_ = anthropic_block_type::text;
    std::uint32_t flow_index_ = 0;
    utf8_carry flow_carry_;
    anthropic_block_type carry_type_ = anthropic_block_type::text;   // what flow_carry_ holds

    open_call call_;
    std::uint32_t next_index_ = 0;
    std::vector<held_event> held_;
    std::size_t held_bytes_ = 0;   // held_ and call_.held
    std::string escaped_;          // a free-form call's input piece as JSON string content, reused
    bool draining_ = false;
    bool block_closed_ = false;    // a call's block closed while held events were replayed
};

} // namespace toolstream::detail

#include <toolstream/writers/impl/anthropic_blocks.hpp>
