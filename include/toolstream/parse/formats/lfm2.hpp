// lfm2: Liquid LFM2's tool calls, as vLLM's --tool-call-parser lfm2 reads them: pythonic's list
// between `<|tool_call_start|>` and `<|tool_call_end|>`
// (`<|tool_call_start|>[get_weather(location="Paris")]<|tool_call_end|>`).
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/pythonic_reader.hpp>

#include <string_view>

namespace toolstream {

/// How lfm2 groups its calls: a Python list inside LFM2's tool-call tokens, never bare.
struct lfm2_syntax {
    static constexpr bool bracketed = true;
    static constexpr bool bare_list = false;
    static constexpr std::string_view wrapper_open = "<|tool_call_start|>";
    static constexpr std::string_view wrapper_close = "<|tool_call_end|>";
};

/// Traits of the lfm2 format (text_format_traits): pythonic's calls and rules
/// (parse/formats/pythonic.hpp). `<|tool_call_start|>`, blanks and the list's `[` are markup, and so
/// are blanks and `<|tool_call_end|>` after its `]`; `<|tool_call_start|>` followed by anything
/// but a call list, and a list without the token, are text.
struct lfm2_format : reader_format<detail::pythonic_reader<lfm2_syntax>> {
    static constexpr std::string_view name = "lfm2";
};

using lfm2 = text_format_policy<lfm2_format>;
static_assert(text_format_traits<lfm2_format> && parser_policy<lfm2>);

} // namespace toolstream
