// llama4_pythonic: Llama 4's Python-call-syntax tool calls, as vLLM's --tool-call-parser
// llama4_pythonic reads them: pythonic's list, optionally between `<|python_start|>` and
// `<|python_end|>` (`<|python_start|>[get_weather(city="LA")]<|python_end|>`).
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/pythonic_reader.hpp>

#include <string_view>

namespace toolstream {

/// How llama4_pythonic groups its calls: a Python list, bare or in Llama 4's python tokens.
struct llama4_pythonic_syntax {
    static constexpr bool bracketed = true;
    static constexpr bool bare_list = true;
    static constexpr std::string_view wrapper_open = "<|python_start|>";
    static constexpr std::string_view wrapper_close = "<|python_end|>";
};

/// Traits of the llama4_pythonic format (text_format_traits): pythonic's calls and rules
/// (parse/formats/pythonic.hpp). `<|python_start|>`, blanks and the list's `[` are markup, and so are
/// blanks and `<|python_end|>` after its `]`; `<|python_start|>` followed by anything but a call
/// list is text.
struct llama4_pythonic_format : reader_format<detail::pythonic_reader<llama4_pythonic_syntax>> {
    static constexpr std::string_view name = "llama4_pythonic";
};

using llama4_pythonic = text_format_policy<llama4_pythonic_format>;
static_assert(text_format_traits<llama4_pythonic_format> && parser_policy<llama4_pythonic>);

} // namespace toolstream
