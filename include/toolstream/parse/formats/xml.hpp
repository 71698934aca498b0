// The xml policy: tool calls written as XML tags inside the model's text.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/xml_reader.hpp>
#include <toolstream/types.hpp>

#include <cstddef>
#include <string_view>

namespace toolstream {

struct xml_options {
    /// The longest opening tag, argument value (path, run_bash option) or undecided stretch
    /// (whitespace before a start marker, the lookahead after an end marker) the policy holds
    /// while reading it. Past it the bytes are released: as text outside a tool, as content
    /// or syntax inside one. Values below 64 count as 64.
    std::size_t max_tag_size = 4096;
    /// The most bytes of a file tool's body (and the markup among it) held while its START
    /// waits for a path that comes after the body. Past it the segment STARTs without a path;
    /// a path that comes later is in the END's metadata and the invocation.
    std::size_t max_held_body = std::size_t{1} << 20;
    /// When false, `<tool …>` stays text; the shorthand tags are still parsed (as
    /// AutoByteus's parser does for api_tool_call).
    bool parse_tool_calls = true;
};

/// Tool calls written as XML in the text (docs/formats.md has the grammar):
/// - `<tool name="X">…</tool>`: a `tool_call` segment, START `{tool_name}`, content the raw inner
///   XML. It ends at the first `</tool>` outside `<arg>` elements, CDATA sections and comments.
/// - `write_file`, `patch_file` and `run_bash` tools, and the shorthand `<write_file path="P">`
///   and `<run_bash>`: file or shell segments whose content is the body or command only (the
///   `__START_CONTENT__`/`__END_CONTENT__` markers stripped). START waits for the path, which may
///   come after the body, up to `max_held_body` bytes; past it START goes without the path and
///   END carries it.
/// - Names match ASCII case-insensitively; any other `<` stays text byte for byte, and so does an
///   opening tag longer than `max_tag_size`.
/// - `held_bytes()` stays below `max(max_tag_size, 64) + 16`, plus up to `max_held_body` while a
///   file body waits for its path. finalize(): held bytes are what they would be had no tag
///   completed, and an open block ENDs `incomplete`.
struct xml_format : reader_format<detail::xml_reader, xml_options> {
    static constexpr std::string_view name = "xml";   ///< As the registry and the CLI spell it.
    static constexpr bool agent_syntax = true;
    static constexpr bool ignore_case = true;
};

using xml = text_format_policy<xml_format>;
static_assert(text_format_traits<xml_format> && parser_policy<xml>);

} // namespace toolstream
