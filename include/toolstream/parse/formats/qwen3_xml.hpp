// qwen3_xml: vLLM's --tool-call-parser qwen3_xml, a second reader of Qwen3-Coder's grammar:
// <tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n</function>\n</tool_call>
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/qwen3_coder.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the qwen3_xml format (text_format_traits): the same grammar, value rules and
/// schema typing as qwen3_coder (vLLM's tests run both of its parsers over the same cases; its
/// qwen3_xml parser streams through an XML parser instead of regular expressions). The name
/// exists so that a server configured with `--tool-call-parser qwen3_xml` finds its reader.
struct qwen3_xml_format : qwen3_coder_format {
    static constexpr std::string_view name = "qwen3_xml";
};

using qwen3_xml = text_format_policy<qwen3_xml_format>;
static_assert(text_format_traits<qwen3_xml_format> && parser_policy<qwen3_xml>);

} // namespace toolstream
