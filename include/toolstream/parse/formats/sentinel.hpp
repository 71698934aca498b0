// The sentinel policy: blocks written as [[SEG_START {json header}]]body[[SEG_END]].
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/sentinel_reader.hpp>

#include <cstddef>
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
///   sit in the header (an object, or a JSON string holding one); without them the body is the
///   arguments: a JSON object, streamed as argument fragments, or XML (`<arguments><arg…>`),
///   read when the block ends;
/// - the header ends where its JSON does, so `]]` inside its strings or arrays is fine; whitespace
///   may precede and follow it;
/// - `[[SEG_START` is matched case-sensitively, `[[SEG_END]]` case-insensitively, both split at
///   any byte; the body is raw content;
/// - an opening that is not one (no `{` after the marker, no `]]` after the header, invalid JSON,
///   a non-object header, an unknown type, longer than `max_held`) is text, byte for byte;
/// - markers and the header are consumed markup; a `text` block is a text segment of its own.
/// A stream ending inside a body ENDs the block `incomplete` after flushing its content (a
/// partial end marker included); a half-read opening is text. Bytes held after a feed: at most
/// 10 (a marker prefix) or `max_held`.
struct sentinel_format : reader_format<detail::sentinel_reader, sentinel_options> {
    static constexpr std::string_view name = "sentinel";   ///< As the registry and the CLI spell it.
    static constexpr bool agent_syntax = true;
};

using sentinel = text_format_policy<sentinel_format>;
static_assert(text_format_traits<sentinel_format> && parser_policy<sentinel>);

} // namespace toolstream
