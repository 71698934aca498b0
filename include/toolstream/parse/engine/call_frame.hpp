// The open call of a text format: its START deferred until the metadata it must carry is known,
// the bytes before it held in input order (bounded), and its END.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/parse/raw_parameters.hpp>
#include <toolstream/parse/segment_emitter.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_syntax.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream {

/// What a span of a call's bytes is. A block reader says what it read; the frame decides what it
/// becomes once the segment type is known (a tool named write_file may be a file segment).
enum class byte_role : unsigned char {
    markup,          ///< syntax, whatever the segment
    content,         ///< the segment's content, whatever its type
    call_text,       ///< content of a tool_call segment, syntax of a file or shell segment
    argument_text,   ///< as call_text, and for a tool_call also an argument fragment (raw JSON)
    argument,        ///< an argument fragment of a tool_call (generated JSON); dropped otherwise
    decoded,         ///< content decoded from the input's JSON: held without counting toward
                     ///< the hold limit, which its raw bytes (reported as call_text) count
};

/// Bounds of what a frame holds before START.
struct call_frame_limits {
    std::size_t max_held_name = 4096;                    ///< while the tool name is unknown
    std::size_t max_held_body = std::size_t{1} << 20;   ///< while a file waits for its path
};

/// One call at a time. START waits until the tool name is known (when the format writes it inside
/// the call), until the shape of a tool named after a file or shell tool is, and, for file tools,
/// until `path` is; meanwhile every span is held, in input order, up to the limit of what is
/// awaited, past which START goes out without it (a later name or path is then in END's metadata;
/// a shape still unknown makes an ordinary call). Syntax that comes before anything is held goes
/// out at once. The limit counts input bytes: a reader that decodes what it reports keeps START
/// at the same input byte whatever the chunking by writing pieces of at most hold_room() bytes.
///
/// A tool's shape, never its name alone, makes a file or shell segment (has_tool_shape): its
/// schema's, when `schemas` has one for it; else its arguments' first member, which the reader
/// tells member() before it routes the member's value (shape_pending() until then).
class call_frame {
public:
    explicit call_frame(call_frame_limits limits = {}, const tool_schemas* schemas = nullptr)
        : limits_(limits), schemas_(schemas)
    {
    }

    /// Opens a call. `await_name`: its tool name comes later, through name(). The metadata's
    /// `tool_name`, when given, is the name. `id` empty: the writer's next `seg_N`.
    template<emitter W>
    void begin(segment_type type, boost::json::object metadata, std::string_view id, bool await_name, W& out)
    {
        pending_ = nullptr;
        open_call(type, std::move(metadata), id, await_name);
        if (ready())
            start(out);
    }

    /// Opens a call of `tool`, named before its arguments (metadata `tool_name`): a file or shell
    /// segment when the tool has the shape of the tool_syntax row of its name.
    template<emitter W>
    void begin_tool(std::string_view tool, boost::json::object metadata, std::string_view id, W& out)
    {
        metadata["tool_name"] = tool;
        open_call(shape_of(tool), std::move(metadata), id, false);
        if (ready())
            start(out);
    }

    bool open() const noexcept { return open_; }
    bool started() const noexcept { return started_; }
    segment_type type() const noexcept { return type_; }
    /// A file or shell segment: its content is the decoded body, the rest of the call is syntax.
    bool is_file_tool() const noexcept { return find_tool_syntax(type_) != nullptr; }
    /// The shape waits for the arguments' first member (member()); meanwhile the call is read as
    /// an ordinary one, its file members routed nowhere else.
    bool shape_pending() const noexcept { return pending_ != nullptr; }

    /// The tool name, read from the call. The first one counts; before fix_type() it also picks
    /// the segment type.
    template<emitter W>
    void name(std::string_view n, W& out)
    {
        if (name_known_)
            return;
        name_known_ = true;
        await_name_ = false;
        if (!type_fixed_)
            type_ = shape_of(n);
        type_fixed_ = true;
        if (started_)
            out.metadata(ref_)["tool_name"] = n;
        else
            meta_["tool_name"] = n;
        if (!started_ && ready())
            start(out);
    }

    /// The arguments have begun: a name read from now on does not change the segment type.
    void fix_type() noexcept { type_fixed_ = true; }

    /// A top-level member of the arguments begins (its key read, its value not): the first one
    /// settles a pending shape, the row's when it is its leading_member(), else an ordinary call.
    /// Returns the call's row from now on (null: an ordinary call).
    template<emitter W>
    const tool_syntax* member(std::string_view key, W& out)
    {
        if (pending_ != nullptr) {
            if (key == leading_member(*pending_))
                type_ = pending_->type;
            pending_ = nullptr;
            if (!started_ && ready())
                start(out);
        }
        return find_tool_syntax(type_);
    }

    /// Sets a metadata member (a later value wins); the path a file waits for STARTs it.
    template<emitter W>
    void set(std::string_view key, boost::json::value v, W& out)
    {
        if (started_) {
            out.metadata(ref_)[key] = std::move(v);
            return;
        }
        meta_[key] = std::move(v);
        if (ready())
            start(out);
    }

    /// Reports `bytes` as `role`: written now, or held in input order until START.
    template<emitter W>
    void add(byte_role role, std::string_view bytes, W& out)
    {
        if (bytes.empty())
            return;
        if (!open_) {
            out.markup(bytes);   // between calls everything is syntax
            return;
        }
        if (!started_) {
            bool hold = role != byte_role::markup || !pieces_.empty();
            const bool input = role != byte_role::decoded;
            if (hold && input && bytes.size() > hold_room()) {
                start(out);
                hold = false;
            }
            if (hold) {
                held_.append(bytes);
                if (input)
                    held_input_ += bytes.size();
                if (!pieces_.empty() && pieces_.back().role == role)
                    pieces_.back().size += bytes.size();
                else
                    pieces_.push_back({bytes.size(), role});
                return;
            }
        }
        write(role, bytes, out);
    }

    /// STARTs the segment now if it has not started (an END, or arguments known only at the end).
    template<emitter W>
    segment_ref ensure_started(W& out)
    {
        if (!started_)
            start(out);
        return ref_;
    }

    /// Ends the call: START first if it is still held.
    template<emitter W>
    void end(W& out, segment_status status = segment_status::complete, std::string_view error = {})
    {
        ensure_started(out);
        out.end(ref_, status, error);
        open_ = false;
    }

    /// Ends an open call `incomplete` (the stream ended inside it).
    template<emitter W>
    void end_incomplete(W& out)
    {
        if (open_)
            end(out, segment_status::incomplete, make_error_code(error::incomplete_call).message());
    }

    /// Bytes held until START.
    std::size_t held_bytes() const noexcept { return held_.size(); }

    /// Input bytes the frame still holds before it must START (unbounded once started).
    std::size_t hold_room() const noexcept
    {
        if (started_ || !open_)
            return static_cast<std::size_t>(-1);
        return limit() - std::min(limit(), held_input_);
    }

    void reset() noexcept
    {
        pending_ = nullptr;
        open_ = started_ = false;
        held_.clear();
        held_input_ = 0;
        pieces_.clear();
        meta_.clear();
    }

private:
    struct piece {
        std::size_t size;
        byte_role role;
    };

    void open_call(segment_type type, boost::json::object metadata, std::string_view id, bool await_name)
    {
        type_ = type;
        meta_ = std::move(metadata);
        id_.assign(id);
        await_name_ = await_name;
        name_known_ = !await_name;
        type_fixed_ = !await_name;
        open_ = true;
        started_ = false;
        held_.clear();
        held_input_ = 0;
        pieces_.clear();
    }

    // The segment a call of `tool` makes: a tool named after a tool_syntax row with that row's
    // shape is its file or shell segment. Its schema shows the shape; without one, pending_ waits
    // for its first member.
    segment_type shape_of(std::string_view tool)
    {
        pending_ = nullptr;
        const tool_syntax* row = find_tool_syntax(tool);
        if (row == nullptr)
            return segment_type::tool_call;
        if (const auto* parameters = schemas_ != nullptr ? schemas_->parameters(tool) : nullptr)
            return has_tool_shape(*row, *parameters) ? row->type : segment_type::tool_call;
        pending_ = row;
        return segment_type::tool_call;
    }

    bool ready() const
    {
        if (await_name_ || pending_ != nullptr)
            return false;
        const tool_syntax* syntax = find_tool_syntax(type_);
        return syntax == nullptr || syntax->required_metadata.empty() || meta_.contains(syntax->required_metadata);
    }

    std::size_t limit() const noexcept
    {
        return await_name_ || pending_ != nullptr ? limits_.max_held_name : limits_.max_held_body;
    }

    template<emitter W>
    void start(W& out)
    {
        pending_ = nullptr;   // a shape still unknown: an ordinary call
        ref_ = out.start(type_, std::move(meta_), id_);
        meta_ = {};
        started_ = true;
        await_name_ = false;   // a name after this is END metadata only
        type_fixed_ = true;
        std::size_t at = 0;
        for (const piece& p : pieces_) {
            write(p.role, std::string_view(held_).substr(at, p.size), out);
            at += p.size;
        }
        held_.clear();
        held_input_ = 0;
        pieces_.clear();
    }

    template<emitter W>
    void write(byte_role role, std::string_view bytes, W& out)
    {
        const bool call = type_ == segment_type::tool_call;
        switch (role) {
        case byte_role::markup: out.markup(bytes); return;
        case byte_role::content:
        case byte_role::decoded: out.content(ref_, bytes); return;
        case byte_role::call_text:
        case byte_role::argument_text:
            if (!call) {
                out.markup(bytes);
                return;
            }
            out.content(ref_, bytes);
            if (role == byte_role::argument_text)
                out.arguments(ref_, bytes);
            return;
        case byte_role::argument:
            if (call)
                out.arguments(ref_, bytes);
            return;
        }
    }

    call_frame_limits limits_;
    const tool_schemas* schemas_ = nullptr;   // the tools' schemas, which show their shapes (may be null)
    const tool_syntax* pending_ = nullptr;    // the row whose shape waits for the first member
    segment_type type_ = segment_type::tool_call;
    boost::json::object meta_;   // START metadata while START waits
    std::string id_;
    segment_ref ref_{};
    bool open_ = false;
    bool started_ = false;
    bool await_name_ = false;   // START waits for the name
    bool name_known_ = false;
    bool type_fixed_ = false;
    std::string held_;            // spans held until START, in input order
    std::size_t held_input_ = 0;  // of which input bytes (not decoded ones)
    std::vector<piece> pieces_;   // held_ split by role
};

} // namespace toolstream
