// deepseek_v41: DeepSeek V4.1 tool calls (spaced DSML), as vLLM's --tool-call-parser deepseek_v41
// reads them: <｜DSML｜ calls>\n<｜DSML｜ invoke name="NAME">\n<｜DSML｜ parameter name="K" string="true">V
// </｜DSML｜ parameter>\n</｜DSML｜ invoke>\n</｜DSML｜ calls>
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/deepseek_v32.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the deepseek_v41 format (text_format_traits): DeepSeek V3.2's DSML grammar (see
/// deepseek_v32_format) with V4.1's markers, where a space follows `｜DSML｜` and the section is
/// `calls`. The attributes are read as V3.2's: ` name="NAME"` on an invoke, ` name="K"
/// string="…"` on a parameter.
/// - Values as V3.2's: a `string="true"` value streams as JSON string fragments (`write_file`
///   streams its body live), a `string="false"` value is JSON-decoded when it parses, and a value
///   typed by `options.schemas` follows the schema.
/// - A value whose `</｜DSML｜ parameter>` is missing ends where the next parameter opens at the
///   start of a line (vLLM: wherever it opens).
/// - Reasoning (`<think>…</think>`, open from the start unless thinking is off; vLLM ends it at
///   the section's opener too) comes from a reasoning parser.
struct deepseek_v41_format : deepseek_v32_format {
    static constexpr std::string_view name = "deepseek_v41";
    static constexpr std::string_view section_open = "<\xef\xbd\x9c" "DSML\xef\xbd\x9c" " calls>";
    static constexpr std::string_view section_close = "</\xef\xbd\x9c" "DSML\xef\xbd\x9c" " calls>";
    static constexpr std::string_view call_open = "<\xef\xbd\x9c" "DSML\xef\xbd\x9c" " invoke";
    static constexpr std::string_view parameter_open = "<\xef\xbd\x9c" "DSML\xef\xbd\x9c" " parameter";
    static constexpr std::string_view value_close = "</\xef\xbd\x9c" "DSML\xef\xbd\x9c" " parameter>";
    static constexpr std::string_view parameters_close = "</\xef\xbd\x9c" "DSML\xef\xbd\x9c" " invoke>";
};

using deepseek_v41 = text_format_policy<deepseek_v41_format>;
static_assert(text_format_traits<deepseek_v41_format> && parser_policy<deepseek_v41>);

} // namespace toolstream
