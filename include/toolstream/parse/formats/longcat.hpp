// longcat: Meituan LongCat-Flash tool calls, as vLLM's --tool-call-parser longcat reads them:
// hermes's JSON calls in <longcat_tool_call>{"name": …, "arguments": {…}}</longcat_tool_call>.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/hermes.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the longcat format (text_format_traits): hermes's rules (one JSON object per call,
/// `"arguments"` or `"parameters"`, markers inside JSON strings end nothing, a call whose object
/// is complete when the stream ends is `complete` without its closing marker, decoded
/// `write_file` bodies streamed live) with LongCat's markers.
struct longcat_format : hermes_format {
    static constexpr std::string_view name = "longcat";
    static constexpr std::string_view call_open = "<longcat_tool_call>";
    static constexpr std::string_view call_close = "</longcat_tool_call>";
};

using longcat = text_format_policy<longcat_format>;
static_assert(text_format_traits<longcat_format> && parser_policy<longcat>);

} // namespace toolstream
