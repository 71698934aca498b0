// The sentinel policy: blocks written as [[SEG_START {json header}]]body[[SEG_END]].
#pragma once

#include <toolstream/policies/detail/marker_scanner.hpp>
#include <toolstream/policies/detail/sentinel_header.hpp>
#include <toolstream/policies/detail/xml_arguments.hpp>
#include <toolstream/error.hpp>
#include <toolstream/segment_writer.hpp>
#include <toolstream/types.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream {

struct sentinel_options {
    /// The most bytes of an opening (`[[SEG_START {header}]]`) held while it is read; a longer
    /// opening is text. At least 16.
    std::size_t max_held = 4096;
};

/// Finds sentinel blocks in content:
///
///     [[SEG_START {"type":"write_file","path":"/a.py"}]]print("hi")[[SEG_END]]
///
/// - the header is a JSON object whose string `type` picks the segment: `text`; `tool` or
///   `tool_call` → tool_call; `write_file`; `patch_file`; `run_bash` or `run_terminal_cmd` →
///   run_bash. Its other keys are the START metadata (END repeats them). A tool's `arguments` may
///   sit in the header (an object, or a JSON string holding one); without them the invocation
///   adapter parses the body (JSON or XML arguments);
/// - the header ends where its JSON does, so `]]` inside its strings or arrays is fine; whitespace
///   may precede and follow it;
/// - `[[SEG_START` is matched case-sensitively, `[[SEG_END]]` case-insensitively, both split at
///   any byte; the body is raw content;
/// - an opening that is not one (no `{` after the marker, no `]]` after the header, invalid JSON,
///   a non-object header, an unknown type, longer than `max_held`) is text, byte for byte;
/// - markers and the header are consumed markup; a `text` block is a text segment of its own.
/// A stream ending inside a body ENDs the block `incomplete` after flushing its content; a
/// half-read opening is text. Bytes held after a feed: at most 10 (a marker prefix) or `max_held`.
class sentinel {
public:
    static constexpr std::string_view name = "sentinel";   ///< As the registry and the CLI spell it.

    sentinel() = default;
    explicit sentinel(sentinel_options options) : options_(options)
    {
        options_.max_held = std::max(options_.max_held, min_held);
    }

    template<class Writer>
    void on_content(std::string_view text, Writer& out)
    {
        if (buf_.empty()) {
            buf_.append(text.substr(process(text, out)));
        } else {
            buf_.append(text);
            buf_.consume(process(buf_.view(), out));
        }
    }


    template<class Writer>
    void finalize(Writer& out)
    {
        if (state_ == state::body) {
            out.content(ref_, buf_.view());
            out.end(ref_, segment_status::incomplete, make_error_code(error::incomplete_call).message());
        } else {
            out.text(buf_.view());
        }
        buf_.clear();
        state_ = state::text;
    }

    void reset()
    {
        buf_.clear();
        state_ = state::text;
    }

    /// Bytes received but not yet emitted.
    std::size_t held_bytes() const noexcept { return buf_.size(); }

private:
    static constexpr std::size_t min_held = 16;
    static constexpr std::array<std::string_view, 1> start_markers{detail::sentinel_start_marker};
    static constexpr std::array<std::string_view, 1> end_markers{detail::sentinel_end_marker};

    enum class state { text, opening, body };

    // Emits what `v` allows and returns how many bytes of it are used; the rest is held.
    template<class Writer>
    std::size_t process(std::string_view v, Writer& out)
    {
        std::size_t pos = 0;
        while (pos < v.size()) {
            switch (state_) {
            case state::text: {
                const auto m = detail::find_marker(v.substr(pos), start_markers);
                out.text(v.substr(pos, m.position));
                pos += m.position;
                if (m.marker == detail::marker_match::npos)
                    return pos;   // a marker prefix (or nothing) is left
                state_ = state::opening;
                opening_.reset();
                break;
            }
            case state::opening: {
                const auto opening = v.substr(pos);
                const auto verdict = opening_.advance(opening.substr(0, options_.max_held));
                if (verdict == detail::sentinel_opening_reader::verdict::more && opening_.scanned() < options_.max_held)
                    return pos;
                if (verdict == detail::sentinel_opening_reader::verdict::more)
                    out.report(error::marker_too_long);   // released as text, unread past max_held
                const auto read = opening.substr(0, opening_.scanned());
                pos += read.size();
                state_ = state::text;
                if (verdict == detail::sentinel_opening_reader::verdict::done)
                    open_block(read, out);
                else
                    out.text(read);
                break;
            }
            case state::body: {
                const auto m = detail::find_marker(v.substr(pos), end_markers, true);
                out.content(ref_, v.substr(pos, m.position));
                pos += m.position;
                if (m.marker == detail::marker_match::npos)
                    return pos;
                out.markup(v.substr(pos, detail::sentinel_end_marker.size()));
                pos += detail::sentinel_end_marker.size();
                if (!error_.empty())
                    out.end(ref_, segment_status::invalid_arguments, error_);
                else if (kind_ == segment_type::tool_call)
                    detail::end_with_content_arguments(out, ref_);
                else
                    out.end(ref_);
                state_ = state::text;
                break;
            }
            }
        }
        return pos;
    }

    template<class Writer>
    void open_block(std::string_view opening, Writer& out)
    {
        auto block = detail::read_sentinel_header(opening_.header(opening));
        if (!block) {
            out.text(opening);
            return;
        }
        out.markup(opening);
        kind_ = block->type;
        ref_ = out.start(block->type, std::move(block->metadata));
        error_ = std::move(block->error);
        state_ = state::body;
    }

    sentinel_options options_;
    detail::scan_buffer buf_;   // a marker prefix, or an opening being read
    detail::sentinel_opening_reader opening_;
    segment_ref ref_{};
    segment_type kind_ = segment_type::text;
    std::string error_;         // why the open block's header arguments are unusable
    state state_ = state::text;
};

} // namespace toolstream
