// DeepSeek V3.1 tool calls (vLLM --tool-call-parser deepseek_v31):
// <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>
#pragma once

#include <toolstream/parse/engine/text_format.hpp>

#include <string_view>

namespace toolstream {

/// The markers are the tokenizer's special tokens: `｜` is U+FF5C and `▁` U+2581, so a chunk may
/// end inside one of their UTF-8 sequences. The header between `<｜tool▁call▁begin｜>` and
/// `<｜tool▁sep｜>` is the tool name (trimmed); the arguments are one JSON object, whose strings
/// may hold any of the markers. Between calls only whitespace is syntax. Reasoning
/// (`<think>…</think>`) comes from a reasoning parser (deepseek_r1).
struct deepseek_v31_format : marker_format {
    static constexpr std::string_view name = "deepseek_v31";
    static constexpr std::string_view section_open = "<｜tool▁calls▁begin｜>";
    static constexpr std::string_view section_close = "<｜tool▁calls▁end｜>";
    static constexpr std::string_view call_open = "<｜tool▁call▁begin｜>";
    static constexpr std::string_view header_end = "<｜tool▁sep｜>";
    static constexpr std::string_view call_close = "<｜tool▁call▁end｜>";
    static constexpr text_arguments arguments = text_arguments::json_object;
};

using deepseek_v31 = text_format_policy<deepseek_v31_format>;
static_assert(text_format_traits<deepseek_v31_format> && parser_policy<deepseek_v31>);

} // namespace toolstream
