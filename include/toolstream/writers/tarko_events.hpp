// Agent TARS (`@tarko/agent`) `assistant_streaming_tool_call` events from toolstream's events.
//
//   {"type":"assistant_streaming_tool_call","toolCallId":"…","toolName":"…","arguments":"<raw delta>",
//    "isComplete":false,"messageId":"…"}
//
// A sink: tee it beside any other sink; a pipeline without it does none of this work.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/utf8.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_syntax.hpp>
#include <toolstream/writers/byte_output.hpp>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream {

struct tarko_events_options {
    /// The messageId of every event; empty: the provider's response id from `response_started`,
    /// else one generated per message (`msg_` and 16 hex digits).
    std::string message_id;
};

/// Turns the events of every tool segment (native calls, text formats, structured outputs) into
/// `assistant_streaming_tool_call` events, each handed to `on_event` as one line of JSON text
/// (a `std::string_view` valid during the call, no newline), in stream order:
///
/// - At a tool segment's START: one event with empty `arguments`, carrying the name if known.
/// - One event per argument fragment of the core (see "The argument contract"), its JSON text
///   verbatim in `arguments`: the concatenation per `toolCallId` is the call's argument text.
///   Granularity: a native call's fragments are the provider's (the same at every chunking of
///   the bytes); a text format's are what each feed brought, so their number, but never their
///   concatenation, depends on the chunking.
/// - At a `complete` END: one event with `isComplete: true` and empty `arguments`, the call's
///   last. A call that ends `incomplete` or `invalid_arguments` gets none: its events just stop,
///   and the client learns its status from the tool invocation (the final tool call).
///   A free-form call (an OpenAI Responses custom tool) is complete once the provider completes
///   it: its `arguments` are its raw input, and it gets its `isComplete` event.
/// - Every line is valid UTF-8: a character split between fragments waits for the next one
///   (detail::utf8_carry), and bytes that are not UTF-8 are written as U+FFFD.
/// - `toolName` is the START's `tool_name` (or the file / shell tool of the segment); a name
///   that arrives after START is first reported on the `isComplete` event.
/// - `messageId`: see `tarko_events_options`; `response_started` begins a new message, and so
///   does `new_message()` for handler-only use. It is the id of the final assistant message.
template<byte_output F>
class tarko_event_sink {
public:
    explicit tarko_event_sink(F on_event, tarko_events_options options = {})
        : on_event_(std::move(on_event)), fixed_id_(std::move(options.message_id))
    {
    }

    void operator()(const response_started& r) { new_message(r.id); }

    void operator()(const segment_event& e)
    {
        if (!is_tool_segment(e.segment_kind) || e.type == segment_event_type::SEGMENT_CONTENT)
            return;
        if (e.type == segment_event_type::SEGMENT_START) {
            open_.push_back({std::string(e.segment_id), std::string(tool_name_of(e)), {}, {}});
            open_.back().prefix = prefix_of(open_.back());
            emit(open_.back(), {}, false);
            return;
        }
        const auto it = find(e.segment_id);
        if (it == open_.end())
            return;
        // The input's own invalid UTF-8, held as the start of a character: written as U+FFFD.
        it->carry.flush([&](std::string_view rest) { emit(*it, rest, false); });
        if (e.status == segment_status::complete) {
            if (it->name.empty()) {
                it->name = tool_name_of(e);
                it->prefix = prefix_of(*it);
            }
            emit(*it, {}, true);
        }
        open_.erase(it);
    }

    void operator()(const argument_fragment& f)
    {
        const auto it = find(f.segment_id);
        if (it == open_.end() || f.json.empty())
            return;
        // An event's text must be whole UTF-8 characters (a JSON reader would replace a split
        // one): the bytes of a character cut at the end of a fragment wait for the next.
        // One event per fragment: the carry's pieces (a finished character, the rest) are joined.
        joined_.clear();
        it->carry.feed(f.json, [&](std::string_view piece) { joined_.append(piece); });
        if (!joined_.empty())
            emit(*it, joined_, false);
    }

    /// Starts a new assistant message: `id` when not empty (and no fixed id is set), else a
    /// generated one.
    void new_message(std::string_view id = {})
    {
        message_id_ = !fixed_id_.empty() ? fixed_id_ : !id.empty() ? std::string(id) : generated_id();
        partial_suffix_ = R"(,"isComplete":false,"messageId":)";
        detail::append_json_string_valid(partial_suffix_, message_id_);
        partial_suffix_ += '}';
        complete_suffix_ = R"(,"isComplete":true,"messageId":)";
        detail::append_json_string_valid(complete_suffix_, message_id_);
        complete_suffix_ += '}';
    }

    /// The current message's id (generated on first use when none was given).
    const std::string& message_id()
    {
        if (message_id_.empty())
            new_message();
        return message_id_;
    }

    F& callback() noexcept { return on_event_; }

private:
    struct open_call {
        std::string id;
        std::string name;
        detail::utf8_carry carry;   // the first bytes of a UTF-8 character the next fragment finishes
        std::string prefix;   // every event's text up to `arguments`' value
    };

    typename std::vector<open_call>::iterator find(std::string_view id)
    {
        // Few calls are open at once (parallel calls): a linear search beats hashing.
        return std::find_if(open_.begin(), open_.end(), [id](const open_call& c) { return c.id == id; });
    }

    static std::string generated_id()
    {
        static constexpr char hex[] = "0123456789abcdef";
        std::random_device seed;
        std::uint64_t bits = (std::uint64_t{seed()} << 32) ^ seed();
        std::string id = "msg_";
        for (int i = 0; i < 16; ++i, bits >>= 4)
            id += hex[bits & 0xf];
        return id;
    }

    static std::string prefix_of(const open_call& c)
    {
        std::string prefix = R"({"type":"assistant_streaming_tool_call","toolCallId":)";
        detail::append_json_string_valid(prefix, c.id);
        prefix += R"(,"toolName":)";
        detail::append_json_string_valid(prefix, c.name);
        prefix += R"(,"arguments":)";
        return prefix;
    }

    // The call's prefix and the message's suffix are made once: per event only `arguments` is
    // escaped.
    void emit(const open_call& c, std::string_view arguments, bool complete)
    {
        if (message_id_.empty())
            new_message();
        line_.assign(c.prefix);
        detail::append_json_string_valid(line_, arguments);
        line_ += complete ? complete_suffix_ : partial_suffix_;
        on_event_(std::string_view(line_));
    }

    F on_event_;
    std::string fixed_id_;
    std::string message_id_;
    std::string partial_suffix_;    // `,"isComplete":false,"messageId":…}`
    std::string complete_suffix_;
    std::vector<open_call> open_;
    std::string line_;   // reused: no allocation per event once it has grown
    std::string joined_;   // a fragment's whole characters, reused
};

static_assert(event_sink<tarko_event_sink<detail::byte_output_archetype>>);

} // namespace toolstream
