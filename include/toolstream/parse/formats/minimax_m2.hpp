// minimax_m2: MiniMax-M2 tool calls, as vLLM's --tool-call-parser minimax_m2 reads them:
// <minimax:tool_call>\n<invoke name="NAME">\n<parameter name="K">V</parameter>\n</invoke>\n</minimax:tool_call>
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace toolstream {

/// Traits of the minimax_m2 format (text_format_traits):
/// - a section `<minimax:tool_call>` … `</minimax:tool_call>` of calls `<invoke name="NAME">`
///   (quotes optional) … `</invoke>`, blanks between them; anything else ends the section.
/// - Parameters `<parameter name="K">V</parameter>`; values are raw text, one line break after
///   the opening tag and one before `</parameter>` are syntax. Values stream as JSON string
///   fragments; `write_file` streams its body live. With `options.schemas`, non-string typed
///   values are held to their close and converted.
/// - `</parameter>` ends a value only when blanks and then `<parameter name=` or `</invoke>`
///   follow (lookahead of 64 blanks, error::marker_too_long past it).
/// - A stream that ends after `</invoke>` (the section's close stripped) ENDs the call `complete`.
struct minimax_m2_format : marker_format {
    static constexpr std::string_view name = "minimax_m2";
    static constexpr std::string_view section_open = "<minimax:tool_call>";
    static constexpr std::string_view section_close = "</minimax:tool_call>";
    static constexpr std::string_view call_open = "<invoke name=";
    static constexpr std::string_view header_end = ">";
    static constexpr text_arguments arguments = text_arguments::key_value;
    static constexpr std::string_view parameter_open = "<parameter name=";
    static constexpr std::string_view parameter_name_end = ">";
    static constexpr std::string_view value_close = "</parameter>";
    static constexpr std::string_view parameters_close = "</invoke>";
    static constexpr bool strip_value_newline = true;

    /// `"NAME"`, `'NAME'` or `NAME`.
    static std::string read_parameter_name(std::string_view raw) { return unquote(raw); }

    static std::optional<call_header> read_header(std::string_view header)
    {
        std::string name = unquote(header);
        if (name.empty())
            return std::nullopt;
        return call_header{std::move(name), {}};
    }

private:
    static std::string unquote(std::string_view s)
    {
        s = detail::trim_blanks(s);
        if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
            s = s.substr(1, s.size() - 2);
        return std::string(s);
    }
};

using minimax_m2 = text_format_policy<minimax_m2_format>;
static_assert(text_format_traits<minimax_m2_format> && parser_policy<minimax_m2>);

} // namespace toolstream
