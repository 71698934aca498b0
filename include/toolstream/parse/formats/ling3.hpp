// ling3: inclusionAI Ling 3 tool calls, as vLLM's --tool-call-parser ling3 reads them: GLM-4.7's
// grammar, <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call>
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/glm45.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the ling3 format (text_format_traits): glm45's markers (the name may run straight
/// into its first key; `<tool_call>NAME</tool_call>` has no arguments). vLLM reads Ling 3 with its
/// GLM-4.7 parser engine, which keeps a value no schema types a string: so does this format
/// (glm45 JSON-decodes such values, as vLLM's older GLM-4.5 parser did). Values typed by
/// `options.schemas` are converted. Reasoning (`<think>`, on by default; `<tool_call>` ends it)
/// comes from a reasoning parser.
struct ling3_format : glm45_format {
    static constexpr std::string_view name = "ling3";
    static constexpr bool decode_untyped_values = false;
};

using ling3 = text_format_policy<ling3_format>;
static_assert(text_format_traits<ling3_format> && parser_policy<ling3>);

} // namespace toolstream
