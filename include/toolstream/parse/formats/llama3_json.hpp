// llama3_json: Llama 3.1-3.3 / 4 JSON tool calls, as vLLM's --tool-call-parser llama3_json reads
// them: `{"name": …, "parameters": {…}}`, optionally after `<|python_tag|>`, several separated by `;`.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/llama3_json_reader.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the llama3_json format (text_format_traits). When a JSON object is a call follows
/// vLLM's parser (extract_tool_calls), which looks for a call at every `{`, after prose too, and
/// takes an object for one only with a `name` and `parameters` (or `arguments`):
/// - `{` anywhere, or `<|python_tag|>` (a special token), opens a call when the object begins
///   `{"name": "…", "parameters":` (or `"arguments":`; blanks anywhere between). Any other
///   object (no such keys, invalid JSON in them, `{"function":…}`) is text: a model asked for
///   JSON output writes exactly that. Prose before a call stays text (vLLM drops it when it
///   finds calls; a stream has sent it already).
/// - `{"name": NAME, "parameters": {…}}` (or `"arguments"`): the arguments stream as raw JSON
///   fragments; `write_file` / `patch_file` / `run_bash` stream their decoded body.
/// - Calls separated by `;` (blanks around it are syntax); after the last call, the rest is text.
/// - A call ENDs where its object closes (no end marker to lose): braces or `;` inside strings
///   end nothing.
struct llama3_json_format : reader_format<detail::llama3_json_reader> {
    static constexpr std::string_view name = "llama3_json";
};

using llama3_json = text_format_policy<llama3_json_format>;
static_assert(text_format_traits<llama3_json_format> && parser_policy<llama3_json>);

} // namespace toolstream
