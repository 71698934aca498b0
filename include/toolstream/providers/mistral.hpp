// Mistral chat streaming: the Chat Completions shape with Mistral's differences.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/providers/detail/finish_words.hpp>
#include <toolstream/providers/detail/json_fields.hpp>
#include <toolstream/providers/detail/openai_chat_stream.hpp>
#include <toolstream/providers/provider.hpp>
#include <toolstream/types.hpp>

#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace toolstream {

/// The provider tag: Mistral chat completion streams.
struct mistral {};

/// Converts as `provider_converter<openai_chat>` does, plus what Mistral sends differently:
/// `delta.content` may be an array of typed parts (Magistral), whose `text` parts are content
/// and whose `thinking` parts (nested `text` parts) are reasoning; tool calls come whole, several
/// in one chunk, with no `index` (their position in the array numbers them) and 9-character ids.
template<>
struct provider_converter<mistral> : converter_defaults<provider_converter<mistral>> {
    static constexpr framing wire_framing = framing::sse;
    static constexpr std::string_view name = "mistral";

    /// A `finish_reason` normalised: `stop` is stop; `length` and `model_length` (the context is
    /// full) are length; `tool_calls` is tool_calls; `content_filter` is itself. Any other reason
    /// (`error` among them) is error: an end not known to be clean never reads as one.
    static constexpr finish_kind normalise_finish(std::string_view reason) noexcept
    {
        return detail::finish_of({{"stop", finish_kind::stop}, {"length", finish_kind::length},
                                  {"model_length", finish_kind::length}, {"tool_calls", finish_kind::tool_calls},
                                  {"content_filter", finish_kind::content_filter}},
                                 reason, finish_kind::error);
    }

    /// Converts one event; chat_stream guards its own allocations. Every event is emitted as it
    /// converts, so finish() (the default) adds nothing.
    template<chunk_consumer Emit>
    error_code convert(const wire_event& ev, Emit& emit)
    {
        return stream_.convert(ev, emit, &read_content);
    }

private:
    static void read_content(const boost::json::value& content, std::string& text, std::string& reasoning)
    {
        if (const auto* s = content.if_string()) {
            text.append(s->data(), s->size());
            return;
        }
        const auto* parts = content.if_array();
        if (parts == nullptr)
            return;
        // Other part types (image_url, reference...) carry no text for these fields.
        for (const auto& p : *parts) {
            const auto* part = p.if_object();
            if (part == nullptr)
                continue;
            const std::string_view type = detail::string_field(*part, "type");
            if (type == "text")
                text.append(detail::string_field(*part, "text"));
            else if (type == "thinking")
                append_thinking(part->if_contains("thinking"), reasoning);
        }
    }

    // `thinking` holds text parts; a plain string is taken as it is.
    static void append_thinking(const boost::json::value* thinking, std::string& out)
    {
        if (thinking == nullptr)
            return;
        if (const auto* text = thinking->if_string()) {
            out.append(text->data(), text->size());
            return;
        }
        if (const auto* parts = thinking->if_array())
            for (const auto& p : *parts)
                if (const auto* part = p.if_object(); part != nullptr && detail::string_field(*part, "type") == "text")
                    out.append(detail::string_field(*part, "text"));
    }

    detail::chat_stream stream_{&normalise_finish};
};

static_assert(provider_traits<mistral>);

} // namespace toolstream
