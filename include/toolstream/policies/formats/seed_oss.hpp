// seed_oss: ByteDance Seed-OSS tool calls and reasoning, as vLLM's --tool-call-parser seed_oss and
// --reasoning-parser seed_oss read them: Qwen3-Coder's XML grammar inside <seed:…> wrappers,
// <seed:think>…</seed:think><seed:tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</seed:tool_call>
#pragma once

#include <toolstream/policies/formats/qwen3_coder.hpp>
#include <toolstream/policies/text_format.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the seed_oss format (text_format_traits): qwen3_coder's grammar and value rules
/// (header `<function=NAME>`, raw values with one line break after `<parameter=K>` and one
/// before `</parameter>` as syntax, schema typing, live `write_file` bodies), with:
/// - `<seed:tool_call>` … `</seed:tool_call>` around each call; a stream that ends after
///   `</function>` ENDs the call `complete`, anywhere before it `incomplete`;
/// - reasoning `<seed:think>` … `</seed:think>`, opened by the model (vLLM's seed_oss reasoning
///   parser reads a stream without `<seed:think>` as content); set
///   `options.reasoning_open_at_start` when the template opens it. A call opener inside an
///   explicit region is reasoning; a region open from the start ends at `<seed:tool_call>`.
struct seed_oss_format : qwen3_coder_format {
    static constexpr std::string_view name = "seed_oss";
    static constexpr std::string_view call_open = "<seed:tool_call>";
    static constexpr std::string_view call_close = "</seed:tool_call>";
    static constexpr std::string_view reasoning_open = "<seed:think>";
    static constexpr std::string_view reasoning_close = "</seed:think>";
    static constexpr bool reasoning_ends_at_call = true;
};

using seed_oss = text_format_policy<seed_oss_format>;

} // namespace toolstream
