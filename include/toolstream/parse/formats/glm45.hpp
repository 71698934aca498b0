// glm45: GLM-4.5 / GLM-4.6 tool calls, as vLLM's --tool-call-parser glm45 reads them:
// <tool_call>NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n…</tool_call>
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/arg_key_value_format.hpp>

#include <array>
#include <string_view>

namespace toolstream {

/// Traits of the glm45 format (text_format_traits):
/// - `<tool_call>`, the tool name up to the first line break, `<arg_key>` or `</tool_call>`
///   (within `max_held`, and without blanks or `<>` inside, else the opener is text), then `<arg_key>K</arg_key>`, blanks, `<arg_value>V</arg_value>` pairs, and
///   `</tool_call>`. Values are raw text, kept as written (no newline stripping).
/// - Values stream as JSON string fragments; `write_file` streams its body live. With
///   `options.schemas`, non-string typed values are held to their close and converted.
/// - `</arg_value>` ends a value only when blanks and then `<arg_key>` or `</tool_call>` follow
///   (lookahead of 64 blanks, error::marker_too_long past it).
/// - A value no schema types (no `--tools`, an unknown tool or property, a property without a
///   type) is JSON-decoded when it parses, as vLLM's glm45 does (`2` is 2, `"a"` is a, `abc` the
///   string abc): it is held to its close (up to `max_held`, then it streams as a string).
/// - The call's close also closes its arguments: a stream that ends after a value's
///   `</arg_value>` (or right after the name) with only blanks left ENDs the call `complete`.
struct glm45_format : detail::arg_key_value_format {
    static constexpr std::string_view name = "glm45";
    static constexpr std::string_view header_end = "\n";
    /// The name may run straight into its first key, or into the close of a call without any.
    static constexpr std::array<std::string_view, 2> header_stops{"<arg_key>", "</tool_call>"};
    static constexpr bool decode_untyped_values = true;
};

using glm45 = text_format_policy<glm45_format>;
static_assert(text_format_traits<glm45_format> && parser_policy<glm45>);

} // namespace toolstream
