// step3p5: StepFun Step-3.5 / Step-3.7 tool calls, as vLLM's --tool-call-parser step3p5 reads
// them: Qwen3-Coder's grammar, <tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</tool_call>
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/qwen3_coder.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the step3p5 format (text_format_traits): the grammar, value rules and schema typing
/// of qwen3_coder. vLLM's Step3p5 parser is its own class (a copy of its streaming XML reader of
/// that grammar; the unified Step3p5Parser subclasses Qwen3Parser and changes only reasoning),
/// so the name is a format of its own rather than an alias. Reasoning (`<think>` prefilled by the
/// template, `</think>` closing it) comes from a reasoning parser.
struct step3p5_format : qwen3_coder_format {
    static constexpr std::string_view name = "step3p5";
};

using step3p5 = text_format_policy<step3p5_format>;
static_assert(text_format_traits<step3p5_format> && parser_policy<step3p5>);

} // namespace toolstream
