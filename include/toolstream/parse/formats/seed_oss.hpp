// seed_oss: ByteDance Seed-OSS tool calls, as vLLM's --tool-call-parser seed_oss reads them:
// Qwen3-Coder's XML grammar inside <seed:tool_call> wrappers,
// <seed:tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</seed:tool_call>
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/qwen3_coder.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the seed_oss format (text_format_traits): qwen3_coder's grammar and value rules
/// (header `<function=NAME>`, raw values with one line break after `<parameter=K>` and one
/// before `</parameter>` as syntax, schema typing, live `write_file` bodies), with:
/// - `<seed:tool_call>` … `</seed:tool_call>` around each call; a stream that ends after
///   `</function>` ENDs the call `complete`, anywhere before it `incomplete`.
///
/// Its reasoning, `<seed:think>` … `</seed:think>`, is the seed_oss reasoning parser's
/// (seed_oss_reasoning in parse/policies/reasoning.hpp): `reasoning_policy<seed_oss, seed_oss_reasoning>`.
struct seed_oss_format : qwen3_coder_format {
    static constexpr std::string_view name = "seed_oss";
    static constexpr std::string_view call_open = "<seed:tool_call>";
    static constexpr std::string_view call_close = "</seed:tool_call>";
};

using seed_oss = text_format_policy<seed_oss_format>;
static_assert(text_format_traits<seed_oss_format> && parser_policy<seed_oss>);

} // namespace toolstream
