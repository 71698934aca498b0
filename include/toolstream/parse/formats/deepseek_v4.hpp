// deepseek_v4: DeepSeek V4 tool calls (DSML), as vLLM's --tool-call-parser deepseek_v4 reads them:
// <｜DSML｜tool_calls>\n<｜DSML｜invoke name="NAME">\n<｜DSML｜parameter name="K" string="true">V</｜DSML｜parameter>
// \n</｜DSML｜invoke>\n</｜DSML｜tool_calls>
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/deepseek_v32.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the deepseek_v4 format (text_format_traits): DeepSeek V3.2's DSML grammar (see
/// deepseek_v32_format: invokes, parameters, values, end of stream) inside a section named
/// `tool_calls` rather than `function_calls`, as vLLM's DeepSeekV4Parser differs from V3.2's.
/// - Values as V3.2's: a `string="true"` value streams as JSON string fragments (`write_file`
///   streams its body live), a `string="false"` value is JSON-decoded when it parses, and a value
///   typed by `options.schemas` follows the schema.
/// - Reasoning (`<think>…</think>`, open from the start unless thinking is off; vLLM ends it at
///   the section's opener too) comes from a reasoning parser.
struct deepseek_v4_format : deepseek_v32_format {
    static constexpr std::string_view name = "deepseek_v4";
    static constexpr std::string_view section_open = "<\xef\xbd\x9c" "DSML\xef\xbd\x9c" "tool_calls>";
    static constexpr std::string_view section_close = "</\xef\xbd\x9c" "DSML\xef\xbd\x9c" "tool_calls>";
};

using deepseek_v4 = text_format_policy<deepseek_v4_format>;
static_assert(text_format_traits<deepseek_v4_format> && parser_policy<deepseek_v4>);

} // namespace toolstream
