// functiongemma: FunctionGemma tool calls, as vLLM's --tool-call-parser functiongemma reads them:
// `<start_function_call>call:NAME{key:<escape>text<escape>,n:42}<end_function_call>`.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/gemma4_reader.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the functiongemma format (text_format_traits): gemma4's serialisation and reader
/// (parse/formats/gemma4.hpp) with FunctionGemma's markers, strings between `<escape>` tokens. As vLLM's
/// functiongemma parser reads them, a value between `<escape>` tokens that is JSON is that value
/// (`<escape>42<escape>` is 42; held to its close, up to `max_held`, while it may be), and pairs
/// need no comma between them (`city:<escape>NYC<escape>unit:<escape>celsius<escape>`); bare
/// values (numbers, `true`/`false`/`null`, objects, arrays) are read as in gemma4.
struct functiongemma_format : reader_format<detail::gemma4_reader<detail::functiongemma_markers>> {
    static constexpr std::string_view name = "functiongemma";
};

using functiongemma = text_format_policy<functiongemma_format>;
static_assert(text_format_traits<functiongemma_format> && parser_policy<functiongemma>);

} // namespace toolstream
