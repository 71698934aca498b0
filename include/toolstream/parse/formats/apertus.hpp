// apertus: Swiss AI Apertus tool calls, as vLLM's --tool-call-parser apertus reads them:
// `<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>`, each call an object keyed by its tool name.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the apertus format (text_format_traits):
/// - `<|tools_prefix|>`, blanks, a JSON array of call objects `{"NAME": {…}}` (the object's key
///   is the tool name, its value the arguments), blanks, `<|tools_suffix|>`; the markers are
///   special tokens, so the stream must keep them (vLLM sets skip_special_tokens=false). Each
///   object is a call, ENDed where it closes; a stream that ends before `<|tools_suffix|>` keeps
///   its complete calls.
/// - `<|tools_prefix|>` not followed (after blanks) by `[`, then `{` or `]`, is text. An element
///   that is not an object ends the array: the calls before it stand, the rest is text.
/// - The arguments stream as raw JSON fragments; `{"write_file": {…}}` streams its decoded body.
/// - vLLM skips an object with more than one key; here its first key names the call and the
///   others are ignored. vLLM also takes a lone object without the array, which here is text.
///   vLLM returns no content with calls; here the text around them is kept.
struct apertus_format : marker_format {
    static constexpr std::string_view name = "apertus";
    static constexpr std::string_view call_open = "<|tools_prefix|>";
    static constexpr std::string_view call_close = "<|tools_suffix|>";
    static constexpr text_arguments arguments = text_arguments::json_call;
    static constexpr json_call_list call_list = json_call_list::array;
    static constexpr bool call_keyed_by_name = true;
};

using apertus = text_format_policy<apertus_format>;
static_assert(text_format_traits<apertus_format> && parser_policy<apertus>);

} // namespace toolstream
