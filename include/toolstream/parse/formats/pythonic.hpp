// pythonic: tool calls in Python call syntax, as vLLM's --tool-call-parser pythonic reads them
// (Llama 3.2, ToolACE): `[get_weather(city="Paris", days=3), other(x=[1, {"a": None}])]`.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/pythonic_reader.hpp>

#include <string_view>

namespace toolstream {

/// How pythonic groups its calls: a Python list, no wrapper.
struct pythonic_syntax {
    static constexpr bool bracketed = true;
    static constexpr bool bare_list = true;
    static constexpr std::string_view wrapper_open{};
    static constexpr std::string_view wrapper_close{};
};

/// Traits of the pythonic format (text_format_traits):
/// - `[NAME(KEY=VALUE, …), …]`: a `[` opens calls where `NAME(` then `)` or `KEY=` follows
///   (vLLM's pattern); any other `[` is text. VALUE is a Python literal (strings with escapes,
///   numbers, True/False/None or true/false/null, lists, tuples, sets, dicts with literal keys),
///   written out as JSON as it streams; `write_file` / `patch_file` / `run_bash` stream their
///   decoded body, `path` waited for.
/// - A call ENDs at its `)`: `invalid_arguments` when its syntax is not that (a positional
///   argument, a name that is not a literal, `b'…'`, `1e999`…), the calls after it still read.
/// - After `]` (or anything but `,` and another call) the rest is text.
struct pythonic_format : reader_format<detail::pythonic_reader<pythonic_syntax>> {
    static constexpr std::string_view name = "pythonic";
};

using pythonic = text_format_policy<pythonic_format>;
static_assert(text_format_traits<pythonic_format> && parser_policy<pythonic>);

} // namespace toolstream
