// OpenAI Chat Completions streaming, as spoken by OpenAI and Azure OpenAI and copied by DeepSeek,
// Groq, xAI, Qwen (DashScope), OpenRouter, vLLM and other OpenAI-compatible servers.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/error.hpp>
#include <toolstream/providers/detail/finish_words.hpp>
#include <toolstream/providers/detail/openai_chat_stream.hpp>
#include <toolstream/providers/provider.hpp>
#include <toolstream/types.hpp>

#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace toolstream {

/// The provider tag: OpenAI Chat Completions streams; OpenAI-compatible vendors use it too.
struct openai_chat {};

/// Emits, per SSE event, one chunk for each choice it touches (`n > 1` streams interleave
/// choices): `delta.content` as content, `reasoning_content`/`reasoning` as reasoning, `refusal`
/// apart from content, tool-call fragments as `tool_call_delta`s numbered per choice in order of
/// first appearance, and on a `finish_reason` the raw reason, its normalised `finish`,
/// `is_complete`, and a completion delta for each call still open. The chunk's `id` and `model`
/// come once, with the first chunk emitted. Usage (`usage` or `x_groq.usage`) and in-stream
/// errors (`{"error":...}`, vLLM's `"object":"error"`; `finish` error) go on choice 0. `[DONE]`
/// and empty data are skipped (a pipeline reads nothing after `[DONE]`); data that is not a JSON
/// object gives `error::invalid_payload`.
template<>
struct provider_converter<openai_chat> : converter_defaults<provider_converter<openai_chat>> {
    static constexpr framing wire_framing = framing::sse;
    static constexpr std::string_view name = "openai_chat";

    /// A `finish_reason` normalised: `stop`, `length` and `content_filter` are themselves;
    /// `tool_calls` and the legacy `function_call` are tool_calls. Any other reason (`error`,
    /// vLLM's and SGLang's `abort`) is error: an end not known to be clean never reads as one. The
    /// raw reason goes with it (choice_finished::reason). The conversion also makes error of a
    /// `function_call` whose choice opened no call.
    static constexpr finish_kind normalise_finish(std::string_view reason) noexcept
    {
        return detail::finish_of({{"stop", finish_kind::stop}, {"length", finish_kind::length},
                                  {"tool_calls", finish_kind::tool_calls}, {"function_call", finish_kind::tool_calls},
                                  {"content_filter", finish_kind::content_filter}},
                                 reason, finish_kind::error);
    }

    /// Converts one event; chat_stream guards its own allocations. Its SSE `event:` name plays no
    /// part in this dialect, but for `error` without `choices`: the response's error (llama.cpp's
    /// server ends a failed stream so). Every event is emitted as it converts, so finish() (the
    /// default) adds nothing.
    template<chunk_consumer Emit>
    error_code convert(const wire_event& ev, Emit& emit)
    {
        const auto read_content = [](const boost::json::value& content, std::string& text, std::string&) {
            if (const auto* s = content.if_string())
                text.append(s->data(), s->size());
        };
        if (detail::equals(ev.name, "error"))
            return stream_.convert_error_event(ev, emit, read_content);
        return stream_.convert(ev, emit, read_content);
    }

private:
    detail::chat_stream stream_{&normalise_finish};
};

static_assert(provider_traits<openai_chat>);

} // namespace toolstream
