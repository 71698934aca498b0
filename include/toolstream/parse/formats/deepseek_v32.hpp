// deepseek_v32: DeepSeek V3.2 tool calls (DSML), as vLLM's --tool-call-parser deepseek_v32 reads them:
// <｜DSML｜function_calls>\n<｜DSML｜invoke name="NAME">\n<｜DSML｜parameter name="K" string="true">V</｜DSML｜parameter>
// \n</｜DSML｜invoke>\n</｜DSML｜function_calls>
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/quoted_attribute.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace toolstream {

/// Traits of the deepseek_v32 format (text_format_traits). `｜` is U+FF5C: a chunk may end inside
/// a marker's UTF-8 sequence.
/// - A section `<｜DSML｜function_calls>` … `</｜DSML｜function_calls>` of calls
///   `<｜DSML｜invoke name="NAME">` … `</｜DSML｜invoke>`, blanks between them; anything else ends
///   the section. A header that is not `name="NAME"` (blanks around) makes the opener text.
/// - Parameters `<｜DSML｜parameter name="K" string="true|false">V</｜DSML｜parameter>`: values are
///   raw text, kept as written (no line-break stripping). A `string="true"` value streams as JSON
///   string fragments; `write_file` streams its body live. A `string="false"` value is held to its
///   close and JSON-decoded, a string when it does not parse (as vLLM does). With
///   `options.schemas`, a value the tool's schema types follows the schema instead (a typed one
///   is held to its close and converted).
/// - `</｜DSML｜parameter>` ends a value only when blanks and then the next parameter or
///   `</｜DSML｜invoke>` follow (lookahead of 64 blanks, error::marker_too_long past it).
/// - A stream that ends after `</｜DSML｜invoke>` (the section's close stripped) ENDs the call
///   `complete`; before it, `incomplete`. Reasoning (`<think>`) comes from a reasoning parser.
struct deepseek_v32_format : marker_format {
    static constexpr std::string_view name = "deepseek_v32";
    static constexpr std::string_view section_open = "<\xef\xbd\x9c" "DSML\xef\xbd\x9c" "function_calls>";
    static constexpr std::string_view section_close = "</\xef\xbd\x9c" "DSML\xef\xbd\x9c" "function_calls>";
    static constexpr std::string_view call_open = "<\xef\xbd\x9c" "DSML\xef\xbd\x9c" "invoke";
    static constexpr std::string_view header_end = ">";
    static constexpr text_arguments arguments = text_arguments::key_value;
    static constexpr std::string_view parameter_open = "<\xef\xbd\x9c" "DSML\xef\xbd\x9c" "parameter";
    static constexpr std::string_view parameter_name_end = ">";
    static constexpr std::string_view value_close = "</\xef\xbd\x9c" "DSML\xef\xbd\x9c" "parameter>";
    static constexpr std::string_view parameters_close = "</\xef\xbd\x9c" "DSML\xef\xbd\x9c" "invoke>";
    static constexpr value_type_attribute typed_value_attribute{"string", "true"};

    /// ` name="K" string="true"`: the key.
    static std::string read_parameter_name(std::string_view raw) { return std::string(quoted_name(raw).value_or("")); }

    /// ` name="NAME"`, and nothing else but blanks.
    static std::optional<call_header> read_header(std::string_view header)
    {
        const auto name = quoted_name(header);
        if (!name || name->empty() || !detail::trim_blanks(header.substr(header.find('"', header.find('"') + 1) + 1)).empty())
            return std::nullopt;
        return call_header{std::string(*name), {}};
    }

private:
    // Blanks (at least one), then the `name="…"` attribute.
    static std::optional<std::string_view> quoted_name(std::string_view raw)
    {
        if (raw.empty() || !detail::is_blank(raw.front()))
            return std::nullopt;
        return detail::quoted_attribute(raw, "name");
    }
};

using deepseek_v32 = text_format_policy<deepseek_v32_format>;
static_assert(text_format_traits<deepseek_v32_format> && parser_policy<deepseek_v32>);

} // namespace toolstream
