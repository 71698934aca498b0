// qwen3_coder: Qwen3-Coder tool calls, as vLLM's --tool-call-parser qwen3_coder reads them:
// <tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n</function>\n</tool_call>
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include <optional>
#include <string_view>

namespace toolstream {

/// Traits of the qwen3_coder format (text_format_traits):
/// - `<tool_call>`, blanks, `<function=NAME>`: the header, which must name the tool within
///   `max_held` (else the opener is text); then parameters, `</function>`, `</tool_call>`.
/// - `<function=NAME>` without the `<tool_call>` wrapper is a call too, prose before it or not
///   (vLLM, SGLang and llama.cpp accept it); it ENDs at `</function>` (and a `</tool_call>`
///   right after it is its markup).
/// - A value is raw text: one line break after `<parameter=KEY>` and one before `</parameter>`
///   are syntax. Values stream as JSON string fragments as they arrive; a `write_file` body
///   streams live as the file's content (its path waits in START's metadata).
/// - With `options.schemas`, a value typed non-string by the tool's schema is held until it
///   closes and converted as vLLM does (integer, number, boolean, object/array, null).
/// - `</parameter>` ends a value only when blanks and then `<parameter=` or `</function>` follow
///   (lookahead of 64 blanks, error::marker_too_long past it): a file body may hold it.
/// - A stream that ends after `</function>` (the stop sequence took `</tool_call>`) ENDs the call
///   `complete`; anywhere before, `incomplete`.
struct qwen3_coder_format : marker_format {
    static constexpr std::string_view name = "qwen3_coder";
    static constexpr std::string_view call_open = "<tool_call>";
    static constexpr std::string_view bare_call_open = "<function=";
    static constexpr std::string_view header_end = ">";
    static constexpr std::string_view call_close = "</tool_call>";
    static constexpr text_arguments arguments = text_arguments::key_value;
    static constexpr std::string_view parameter_open = "<parameter=";
    static constexpr std::string_view parameter_name_end = ">";
    static constexpr std::string_view value_close = "</parameter>";
    static constexpr std::string_view parameters_close = "</function>";
    static constexpr bool strip_value_newline = true;

    /// `<function=NAME`, after blanks only.
    static std::optional<call_header> read_header(std::string_view header)
    {
        constexpr std::string_view function = "<function=";
        const std::string_view opening = detail::skip_blanks(header);
        if (!opening.starts_with(function))
            return std::nullopt;
        return named_call(opening.substr(function.size()));
    }
};

using qwen3_coder = text_format_policy<qwen3_coder_format>;
static_assert(text_format_traits<qwen3_coder_format> && parser_policy<qwen3_coder>);

} // namespace toolstream
