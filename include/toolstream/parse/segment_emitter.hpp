// The one place segment events are made. Parser policies write through it; it assigns ids, keeps
// metadata (END repeats it), writes every tool segment's argument fragments and parses them once
// at END into the segment's arguments.
#pragma once

#include <toolstream/detail/utf8.hpp>
#include <toolstream/error.hpp>
#include <toolstream/parse/event_target.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_syntax.hpp>

#include <boost/json/object.hpp>
#include <boost/json/parse_options.hpp>
#include <boost/json/string.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace toolstream {

/// Identifies an open segment of a segment_emitter.
enum class segment_ref : std::uint32_t {};

struct emitter_options {
    std::string id_prefix;       ///< Put before every generated `seg_N` id.
    std::size_t choice = 0;      ///< Stamped on every event.
    std::size_t max_depth = 64;  ///< JSON nesting allowed in arguments (error::nesting_too_deep past it).
    /// Keep the body of write_file and patch_file segments (off: see handler_options::keep_file_bodies).
    bool keep_file_bodies = true;
};

/// Writes segment events to `Target`, which takes `const segment_event&` and, when it wants
/// them, `const argument_fragment&` and `consumed_markup`.
///
/// Text and reasoning are *flowing* segments: consecutive writes extend one open segment, and
/// starting any other segment ends it. Block segments (tool calls, files, commands) may be open
/// several at a time (parallel native calls interleave) and end only when their policy says.
/// Empty deltas are never emitted.
///
/// Whole characters. A CONTENT delta never ends inside a UTF-8 character that the segment's
/// next content may complete: the first bytes (3 at most) wait for the next delta, so that every
/// event is valid UTF-8 on its own at any chunking. They are released, as they are, by the
/// segment's END and before any markup (the input had no character there).
///
/// Argument fragments. A policy that has the arguments as JSON text (a native call, a JSON call
/// in the text) passes them to arguments(). For a file or shell segment whose policy does not,
/// the writer writes them from the tool_syntax table: `{"path":…,"content":"` when the first
/// content arrives, each content delta escaped, and at END the closing quote, the metadata that
/// came late, and `}`. A tool_call segment whose policy wrote none but set metadata `arguments`
/// gets them as one fragment at END.
///
/// A file or shell segment keeps its body once, as the argument text (escaped); only a tool_call
/// segment keeps its content as well (content_of()). With `keep_file_bodies` off, a write_file or
/// patch_file segment keeps neither: each argument fragment is dropped once delivered, and END's
/// arguments are the metadata members of the tool_syntax row (`path`), without the body key.
///
/// END of a tool segment that its policy ends `complete` parses the joined fragments (no
/// fragments, or only whitespace, stand for `{}`, as a native call's `"arguments":""` does);
/// JSON that is not an object, or a file/shell tool without its required field, makes it
/// `invalid_arguments`. The parsed object is the END event's `arguments` (and, for
/// tool_call segments, metadata `arguments`, as AutoByteus's segment events carry it).
template<class Target>
class segment_emitter {
    // Checked here rather than on the parameter: a target may name segment_emitter<Target>
    // before it is complete (handler's dispatcher holds a pointer to its emitter).
    static_assert(segment_event_sink<Target>, "a segment_emitter target must take const segment_event&");

public:
    explicit segment_emitter(Target& target, emitter_options options = {})
        : target_(hold(target)), options_(std::move(options))
    {
    }

    /// A segment_emitter<event_target> writes to any target, through an event_target made here.
    template<segment_event_sink Erased>
        requires(std::same_as<Target, event_target> && !std::same_as<Erased, event_target>)
    explicit segment_emitter(Erased& target, emitter_options options = {})
        : target_(target), options_(std::move(options))
    {
    }

    void text(std::string_view s) { flow(segment_type::text, s); }
    void reasoning(std::string_view s) { flow(segment_type::reasoning, s); }

    /// Ends the open text or reasoning segment, if any.
    void end_flow()
    {
        if (flow_open_) {
            flow_open_ = false;
            end(flow_ref_);
        }
    }

    /// Reports bytes the policy consumed as syntax. Free unless the target takes them.
    void markup(std::string_view bytes)
    {
        if (bytes.empty())
            return;
        release_held();   // the bytes before the markup come first
        deliver(consumed_markup{bytes});
    }

    /// Records a problem met while parsing (a limit hit, say); the handler's feed() or finalize()
    /// returns the first one reported during that call.
    void report(error_code ec) noexcept
    {
        if (!reported_)
            reported_ = ec;
    }

    /// The first problem reported since the last call, and forgets it.
    error_code take_reported() noexcept { return std::exchange(reported_, {}); }

    /// Starts a block segment (ending the flow first). An empty `id` gets the next `seg_N`.
    segment_ref start(segment_type type, boost::json::object metadata = {}, std::string_view id = {})
    {
        end_flow();
        return open(type, std::move(metadata), id);
    }

    void content(segment_ref r, std::string_view delta);

    /// Appends JSON text to a tool segment's arguments (see the class comment).
    void arguments(segment_ref r, std::string_view json);

    /// As arguments(r, json), but a segment that has none yet and keeps its body takes the text
    /// itself (`json` gets an empty string): a whole call's arguments are not copied.
    void take_arguments(segment_ref r, std::string& json);

    /// Says where the inside of the body string (a file tool's `content` or `patch`) lies in the
    /// argument text given so far, from its first byte to its closing quote, for a policy whose
    /// decoder has read the text: END then decodes the body from there instead of parsing it with
    /// the rest (a body is most of a file call).
    void locate_body(segment_ref r, std::size_t begin, std::size_t end)
    {
        auto& s = slot(r);
        s.body_begin = begin;
        s.body_end = end;
        s.body_located = true;
    }

    /// Keeps the segment's content, up to `room` bytes, as the body string of its arguments, for a
    /// policy whose content is that body decoded strictly from the argument text it gives: END
    /// then takes it rather than decoding the body again once it is located (locate_body). Content
    /// past `room` stops the keeping and frees it, so that what is held stays within the room,
    /// reserved at the first piece (a call that arrives whole fits; one that streams in small
    /// pieces falls back).
    void keep_decoded_body(segment_ref r, std::size_t room)
    {
        auto& s = slot(r);
        s.decoded_body_room = room;
        s.keeps_decoded_body = true;
    }

    /// The segment's metadata; changes made before end() appear in the END event.
    boost::json::object& metadata(segment_ref r) { return slot(r).metadata; }

    /// Everything given as content so far, bytes held back included (kept for tool_call segments
    /// only: a file or shell segment's body is in its argument text).
    std::string_view content_of(segment_ref r) const { return slots_[index(r)].content; }

    /// The argument fragments given so far, joined (not the ones the writer generates); empty for
    /// a segment whose body is not kept.
    std::string_view arguments_of(segment_ref r) const { return slots_[index(r)].arguments; }

    /// Whether write_file and patch_file bodies are kept (emitter_options::keep_file_bodies): a
    /// policy that holds a body's raw text for its own use holds it only when they are.
    bool keeps_file_bodies() const noexcept { return options_.keep_file_bodies; }

    /// How many bytes of content the segment has had, whether kept or not.
    std::size_t content_size(segment_ref r) const { return slots_[index(r)].content_size; }

    /// Stops keeping the segment's content (content_of() is then empty; content_size() still
    /// counts it), for a policy that never reads it back: a native call's arguments hold it.
    void drop_content(segment_ref r)
    {
        auto& s = slot(r);
        s.keep_content = false;
        std::string().swap(s.content);
    }

    /// The END event of a tool segment being delivered: its parsed arguments (null unless
    /// complete) and their text, for the target that receives it to move out of rather than copy
    /// (the writer drops them after END). Nothing outside that delivery.
    /// `streamed_body`: the bytes of a body that was streamed and not kept (`keep_file_bodies` off).
    struct ending_arguments {
        boost::json::object* parsed;
        std::string& text;
        std::optional<std::size_t> streamed_body;
    };
    std::optional<ending_arguments> ending() noexcept
    {
        if (ending_ == nullptr)
            return std::nullopt;
        return ending_arguments{ending_->end_arguments, ending_->arguments,
                                ending_->streamed ? std::optional<std::size_t>(ending_->content_size) : std::nullopt};
    }

    /// Emits END with the accumulated metadata; see the class comment for tool segments.
    void end(segment_ref r, segment_status status = segment_status::complete, std::string_view error = {});

    /// Forgets every segment and restarts the id counter; keeps buffer capacity.
    void reset()
    {
        free_.clear();
        for (std::uint32_t i = 0; i < slots_.size(); ++i) {
            slots_[i].open = false;
            free_.push_back(i);
        }
        flow_open_ = false;
        counter_ = 0;
        reported_ = {};
        holding_ = 0;
    }

private:
    // Who writes a tool segment's argument fragments.
    enum class fragments { none, policy, generated };

    struct open_segment {
        std::string id;
        segment_type type = segment_type::text;
        boost::json::object metadata;
        std::string content;
        std::size_t content_size = 0;   // bytes of content so far, kept or not
        std::string arguments;          // the fragments so far
        boost::json::object parsed;     // END's arguments (a tool_call's are in its metadata)
        boost::json::string decoded_body;   // the content, kept as the body (keep_decoded_body)
        boost::json::object* end_arguments = nullptr;   // where END's arguments are, when complete
        std::string error;              // END's error, when the writer made it
        fragments writer = fragments::none;
        detail::utf8_carry carry;       // the first bytes of a character the next delta finishes
        bool late_required = false;     // generated before the required metadata was known
        std::size_t body_begin = 0;     // the body string's inside in the arguments: [begin, end)
        std::size_t body_end = 0;
        bool body_located = false;      // by the policy (locate_body), in arguments it gave
        bool keeps_decoded_body = false;
        std::size_t decoded_body_room = 0;
        bool keep_content = true;       // false after drop_content()
        bool streamed = false;          // a file body that is not kept (keep_file_bodies off)
        bool open = false;
    };

    // An event_target is itself a reference, so it is held as it is; any other target by address.
    static constexpr bool erased = std::is_same_v<Target, event_target>;
    using target_holder = std::conditional_t<erased, event_target, Target*>;

    static target_holder hold(Target& target) noexcept
    {
        if constexpr (erased)
            return target;
        else
            return &target;
    }

    Target& target() noexcept
    {
        if constexpr (erased)
            return target_;
        else
            return *target_;
    }

    template<class Event>
    void deliver(const Event& e)
    {
        if constexpr (std::invocable<Target&, const Event&>)
            target()(e);
    }

    segment_event event_of(segment_event_type type, const open_segment& s) const
    {
        segment_event e;
        e.type = type;
        e.segment_id = s.id;
        e.segment_kind = s.type;
        e.choice = options_.choice;
        return e;
    }

    static std::uint32_t index(segment_ref r) { return static_cast<std::uint32_t>(r); }
    open_segment& slot(segment_ref r) { return slots_[index(r)]; }

    void emit_content(open_segment& s, std::string_view delta);
    void keep_body_piece(open_segment& s, std::string_view delta);
    void release_held();
    void flush_held(open_segment& s);
    void emit_fragment(open_segment& s, std::size_t from);
    void generate_opening(open_segment& s);
    void finish_fragments(open_segment& s, segment_status status);
    segment_status parse_arguments(open_segment& s, segment_status status);
    boost::json::value parse_body_apart(open_segment& s, const tool_syntax& syntax, error_code& ec,
                                        const boost::json::parse_options& options);

    void flow(segment_type type, std::string_view s)
    {
        if (s.empty())
            return;
        if (flow_open_ && slot(flow_ref_).type != type)
            end_flow();
        if (!flow_open_) {
            flow_ref_ = open(type, {}, {});
            flow_open_ = true;
        }
        content(flow_ref_, s);
    }

    segment_ref open(segment_type type, boost::json::object metadata, std::string_view id);

    target_holder target_;
    emitter_options options_;
    std::vector<open_segment> slots_;
    std::vector<std::uint32_t> free_;
    segment_ref flow_ref_{};
    bool flow_open_ = false;
    std::uint64_t counter_ = 0;
    error_code reported_;
    std::size_t holding_ = 0;   // open segments whose carry holds bytes
    open_segment* ending_ = nullptr;   // the tool segment whose END is being delivered
};

/// What a parser policy writes into: the `Emitter` parameter of every policy's on_content() and
/// finalize() (`e` an lvalue of `E`, `s` a `std::string_view`, `t` a `segment_type`, `r` a
/// `segment_ref` that `e` returned, `st` a `segment_status`, `ec` an `error_code`):
///
/// | expression            | semantics                                                            |
/// |-----------------------|----------------------------------------------------------------------|
/// | `e.text(s)`           | extends the open text segment, or opens one (ending the flow of another type) |
/// | `e.reasoning(s)`      | the same for reasoning                                               |
/// | `e.markup(s)`         | bytes consumed as syntax: no segment's content                       |
/// | `e.start(t)`          | opens a block segment; returns its `segment_ref`                     |
/// | `e.content(r, s)`     | appends to the open segment `r`                                      |
/// | `e.arguments(r, s)`   | appends JSON text to the tool segment `r`'s arguments                |
/// | `e.metadata(r)`       | `boost::json::object&`: `r`'s metadata, repeated by its END          |
/// | `e.end(r, st)`        | ends `r` with a status                                               |
/// | `e.report(ec)`        | records a problem; the handler's feed() or finalize() returns the first |
///
/// The model is segment_emitter<Target>, for any Target taking `const segment_event&` (checked
/// below). Output sinks are the *writers* (writers/); an emitter is what a policy writes into.
template<class E>
concept emitter = requires(E& e, std::string_view s, segment_type t, segment_ref r, segment_status st, error_code ec) {
    e.text(s);
    e.reasoning(s);
    e.markup(s);
    { e.start(t) } -> std::same_as<segment_ref>;
    e.content(r, s);
    e.arguments(r, s);
    { e.metadata(r) } -> std::same_as<boost::json::object&>;
    e.end(r, st);
    e.report(ec);
};

namespace detail {
/// The target the concepts check emitters and policies with.
struct event_target_archetype {
    void operator()(const segment_event&) const {}
};
} // namespace detail

static_assert(emitter<segment_emitter<detail::event_target_archetype>>);
static_assert(emitter<segment_emitter<event_target>>);

} // namespace toolstream

#include <toolstream/parse/impl/segment_emitter.hpp>
