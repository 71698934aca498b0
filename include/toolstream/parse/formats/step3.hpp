// step3: StepFun Step-3 tool calls, as vLLM's --tool-call-parser step3 reads them:
// <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="NAME">
// <steptml:parameter name="K">V</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace toolstream {

/// Traits of the step3 format (text_format_traits). `｜` is U+FF5C: a chunk may end inside a
/// marker's UTF-8 sequence.
/// - A section `<｜tool_calls_begin｜>` … `<｜tool_calls_end｜>` of calls `<｜tool_call_begin｜>`
///   `function<｜tool_sep｜><steptml:invoke name="NAME">` … `</steptml:invoke><｜tool_call_end｜>`,
///   blanks between them. The `function<｜tool_sep｜>` prefix may be left out, as vLLM's streaming
///   parser and its shared tests have it; a call of another type than `function`, or a header that
///   names no tool, makes the opener text.
/// - Parameters `<steptml:parameter name="K">V</steptml:parameter>`: values are raw text, one line
///   break after the opening tag and one before the close are syntax; they stream as JSON string
///   fragments and `write_file` streams its body live. With `options.schemas`, a value typed
///   non-string by the tool's schema is held to its close and converted.
/// - `</steptml:parameter>` ends a value only when blanks and then the next parameter or
///   `</steptml:invoke>` follow (lookahead of 64 blanks, error::marker_too_long past it).
/// - A stream that ends after `</steptml:invoke>` (the closing tokens stripped) ENDs the call
///   `complete`; before it, `incomplete`. Reasoning (`<think>…</think>`) comes from a reasoning
///   parser.
struct step3_format : marker_format {
    static constexpr std::string_view name = "step3";
    static constexpr std::string_view section_open = "<\xef\xbd\x9c" "tool_calls_begin\xef\xbd\x9c>";
    static constexpr std::string_view section_close = "<\xef\xbd\x9c" "tool_calls_end\xef\xbd\x9c>";
    static constexpr std::string_view call_open = "<\xef\xbd\x9c" "tool_call_begin\xef\xbd\x9c>";
    static constexpr std::string_view header_end = "\">";
    static constexpr std::string_view call_close = "<\xef\xbd\x9c" "tool_call_end\xef\xbd\x9c>";
    static constexpr text_arguments arguments = text_arguments::key_value;
    static constexpr std::string_view parameter_open = "<steptml:parameter name=";
    static constexpr std::string_view parameter_name_end = ">";
    static constexpr std::string_view value_close = "</steptml:parameter>";
    static constexpr std::string_view parameters_close = "</steptml:invoke>";
    static constexpr bool strip_value_newline = true;

    /// `"K"`: the key.
    static std::string read_parameter_name(std::string_view raw) { return std::string(unquote(raw)); }

    /// `[function<｜tool_sep｜>]<steptml:invoke name="NAME` (blanks around the parts; `">` ends it).
    static std::optional<call_header> read_header(std::string_view header)
    {
        constexpr std::string_view type = "function";
        constexpr std::string_view sep = "<\xef\xbd\x9c" "tool_sep\xef\xbd\x9c>";
        constexpr std::string_view invoke = "<steptml:invoke name=\"";
        std::string_view h = detail::skip_blanks(header);
        if (h.starts_with(type)) {
            h = detail::skip_blanks(h.substr(type.size()));
            if (!h.starts_with(sep))
                return std::nullopt;
            h = detail::skip_blanks(h.substr(sep.size()));
        }
        if (!h.starts_with(invoke))
            return std::nullopt;
        return named_call(h.substr(invoke.size()));
    }

private:
    static std::string_view unquote(std::string_view s)
    {
        s = detail::trim_blanks(s);
        if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
            s = s.substr(1, s.size() - 2);
        return s;
    }
};

using step3 = text_format_policy<step3_format>;
static_assert(text_format_traits<step3_format> && parser_policy<step3>);

} // namespace toolstream
