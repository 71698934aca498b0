// olmo3: OLMo 3's tool calls, as vLLM's --tool-call-parser olmo3 reads them: Python calls, one
// per line, between `<function_calls>` and `</function_calls>`.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/pythonic_reader.hpp>

#include <string_view>

namespace toolstream {

/// How olmo3 groups its calls: one after another inside `<function_calls>`, no list.
struct olmo3_syntax {
    static constexpr bool bracketed = false;
    static constexpr bool bare_list = false;
    static constexpr std::string_view wrapper_open = "<function_calls>";
    static constexpr std::string_view wrapper_close = "</function_calls>";
};

/// Traits of the olmo3 format (text_format_traits): pythonic's call and value rules
/// (parse/formats/pythonic.hpp) for `<function_calls>NAME(KEY=VALUE, …)\nNAME(…)</function_calls>`.
/// Blanks (a line break) and an optional `,` separate the calls; the wrapper and separators are
/// markup. `<function_calls>` followed by anything but a call (or its close) is text.
struct olmo3_format : reader_format<detail::pythonic_reader<olmo3_syntax>> {
    static constexpr std::string_view name = "olmo3";
};

using olmo3 = text_format_policy<olmo3_format>;
static_assert(text_format_traits<olmo3_format> && parser_policy<olmo3>);

} // namespace toolstream
