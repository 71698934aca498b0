// The calls MiniMax and Hunyuan-A13B write alike: JSON call objects in `<tool_calls>` …
// `</tool_calls>`, none of them opening inside a `<think>` block.
#pragma once

#include <toolstream/parse/engine/format_traits.hpp>
#include <toolstream/parse/formats/detail/text_block_reader.hpp>

#include <string_view>

namespace toolstream::detail {

/// The traits minimax and hunyuan_a13b share (a marker_format): `{"name": …, "arguments": …}`
/// objects between `<tool_calls>` and `</tool_calls>`, read by text_block_reader so that from
/// `<think>` to `</think>` (or the end of the stream) every byte is text, as vLLM's parsers leave
/// calls written there in the content.
struct think_guarded_calls_format : marker_format {
    template<class Self>
    using reader = text_block_reader<Self>;

    static constexpr call_markers text_block{"<think>", "</think>"};
    static constexpr std::string_view call_open = "<tool_calls>";
    static constexpr std::string_view call_close = "</tool_calls>";
    static constexpr text_arguments arguments = text_arguments::json_call;
};

} // namespace toolstream::detail
