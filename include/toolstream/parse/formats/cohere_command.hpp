// cohere_command3, cohere_command4: Cohere Command tool calls, as vLLM's --tool-call-parser of
// those names reads them (Command A and R7B; Command A Reasoning and Vision): `<|START_ACTION|>[
// {"tool_call_id": "0", "tool_name": NAME, "parameters": {…}}, …]<|END_ACTION|>`, the answer
// between `<|START_RESPONSE|>` and `<|END_RESPONSE|>` (Command 4 also `<|START_TEXT|>` …).
#pragma once

#include <toolstream/parse/engine/text_format.hpp>

#include <array>
#include <string_view>

namespace toolstream {

/// Traits of the cohere_command3 format (text_format_traits):
/// - `<|START_ACTION|>`, blanks, a JSON array of call objects, blanks, `<|END_ACTION|>`. Each
///   object is a call named by its `tool_name`, its arguments `parameters`; `tool_call_id` is
///   read past. Each call ENDs where its object closes; one cut off ENDs `incomplete`.
/// - `<|START_ACTION|>` not followed (after blanks) by `[`, then `{` or `]`, is text. An element
///   that is not an object ends the array: the calls before it stand, the rest is text.
/// - `<|START_RESPONSE|>` and `<|END_RESPONSE|>` around the answer are markup wherever they
///   stand; the text between them is text. Thinking (`<|START_THINKING|>`) belongs to a
///   reasoning parser of the same name.
/// - The arguments stream as raw JSON fragments; `write_file` streams its decoded body live.
struct cohere_command3_format : marker_format {
    static constexpr std::string_view name = "cohere_command3";
    static constexpr std::string_view call_open = "<|START_ACTION|>";
    static constexpr std::string_view call_close = "<|END_ACTION|>";
    static constexpr text_arguments arguments = text_arguments::json_call;
    static constexpr json_call_list call_list = json_call_list::array;
    static constexpr std::string_view call_name_key = "tool_name";
    static constexpr std::array<std::string_view, 2> markup_markers{"<|START_RESPONSE|>", "<|END_RESPONSE|>"};
};

/// Traits of the cohere_command4 format: cohere_command3's, the answer also between
/// `<|START_TEXT|>` and `<|END_TEXT|>`.
struct cohere_command4_format : cohere_command3_format {
    static constexpr std::string_view name = "cohere_command4";
    static constexpr std::array<std::string_view, 4> markup_markers{"<|START_RESPONSE|>", "<|END_RESPONSE|>",
                                                                    "<|START_TEXT|>", "<|END_TEXT|>"};
};

using cohere_command3 = text_format_policy<cohere_command3_format>;
using cohere_command4 = text_format_policy<cohere_command4_format>;
static_assert(text_format_traits<cohere_command3_format> && parser_policy<cohere_command3>);
static_assert(text_format_traits<cohere_command4_format> && parser_policy<cohere_command4>);

} // namespace toolstream
