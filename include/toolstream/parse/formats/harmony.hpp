// harmony: gpt-oss harmony messages, as vLLM's --tool-call-parser openai reads them:
// `<|channel|>analysis<|message|>…<|end|>` (reasoning),
// `<|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`
// (a call; `to=` may also sit before `<|channel|>`), `<|start|>assistant<|channel|>final<|message|>…` (text).
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/harmony_reader.hpp>

#include <string_view>

namespace toolstream {

/// Traits of the harmony format (text_format_traits), gpt-oss's messages as raw text
/// (llama.cpp, a text-completion endpoint; the completion starts after the prompt's
/// `<|start|>assistant`, so its first message may begin at `<|channel|>`):
/// - `<|channel|>analysis<|message|>` opens reasoning, up to `<|end|>` (markup) or, when the
///   server stripped `<|end|>`, the next special token (`<|start|>`, `<|channel|>`…).
/// - A header with `to=functions.NAME` (after the channel, or before `<|channel|>` in the role
///   part: `<|start|>assistant to=functions.NAME<|channel|>commentary json<|message|>`, or at the
///   stream's start when the completion began inside the role part) makes a call: its content is one JSON object whose arguments stream as raw JSON
///   fragments (a `write_file` / `patch_file` body decoded); the call ENDs where the object
///   closes, so a stripped `<|call|>` loses nothing. Another recipient (`to=python`,
///   `to=browser.search`) names the tool as written.
/// - `final`, a `commentary` preamble without recipient, any other channel: the content is text.
/// - Every header byte and the end tokens `<|end|>`, `<|return|>`, `<|call|>` are markup.
///   Special tokens inside a JSON string end nothing; a header with no `<|message|>` within
///   `max_held` bytes is text (error::marker_too_long).
struct harmony_format : reader_format<detail::harmony_reader> {
    static constexpr std::string_view name = "harmony";   ///< vLLM's "openai" is an alias
};

using harmony = text_format_policy<harmony_format>;
static_assert(text_format_traits<harmony_format> && parser_policy<harmony>);

} // namespace toolstream
