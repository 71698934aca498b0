// ernie45: Baidu ERNIE 4.5 tool calls, as vLLM's --tool-call-parser ernie45 reads them:
// <tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>, any number of them, prose around.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/hermes.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the ernie45 format (text_format_traits): hermes's markers and rules (one JSON
/// object per call, markers inside JSON strings end nothing, a call whose object is complete
/// when the stream ends is `complete` without `</tool_call>`, decoded `write_file` bodies
/// streamed live). The text around calls is kept byte for byte: vLLM's parser also drops the
/// `<response>`/`</response>` tags and the line breaks next to `</think>` and the calls, which
/// this format leaves as text. Reasoning (`<think>…</think>`) comes from a reasoning parser.
struct ernie45_format : hermes_format {
    static constexpr std::string_view name = "ernie45";
};

using ernie45 = text_format_policy<ernie45_format>;
static_assert(text_format_traits<ernie45_format> && parser_policy<ernie45>);

} // namespace toolstream
