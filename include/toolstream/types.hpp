// The data that flows into the handler: one provider-neutral chunk per provider event.
#pragma once

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace toolstream {

/// Token counts, as the provider reports them (never estimated).
struct token_usage {
    std::uint64_t input_tokens = 0;
    std::uint64_t output_tokens = 0;

    friend bool operator==(const token_usage&, const token_usage&) = default;
};
BOOST_DESCRIBE_STRUCT(token_usage, (), (input_tokens, output_tokens))

/// One fragment of a native (provider API) tool call.
///
/// Fragments of the same call share `index`. The first non-empty `call_id` and `name` win;
/// `arguments_delta` is appended raw. `is_complete` is the provider's word that this call's
/// arguments are finished (Anthropic `content_block_stop`, Responses `.done`, a whole Gemini
/// or Ollama call); it may come on a fragment of its own with no other field set.
struct tool_call_delta {
    std::size_t index = 0;
    std::string call_id;
    std::string name;
    std::string arguments_delta;
    bool is_complete = false;
    /// The call's input is free-form text, not JSON (OpenAI Responses custom tools): its
    /// segment carries metadata `"free_form": true` and its text is not parsed.
    bool free_form = false;

    friend bool operator==(const tool_call_delta&, const tool_call_delta&) = default;
};
BOOST_DESCRIBE_STRUCT(tool_call_delta, (), (index, call_id, name, arguments_delta, is_complete, free_form))

/// A provider's finish reason, normalised. `tool_calls` is also what the pipeline reports for a
/// choice that made calls and stopped (Anthropic `tool_use`, Gemini `STOP` with function calls).
enum class finish_kind { stop, tool_calls, length, content_filter, error };
BOOST_DESCRIBE_ENUM(finish_kind, stop, tool_calls, length, content_filter, error)

/// What one provider event contributes to one choice, after conversion.
///
/// Converters reuse one instance per stream: assigning into the strings and resizing
/// `tool_calls` keeps their capacity, so steady-state conversion does not allocate.
struct chunk_response {
    std::string content;
    std::string reasoning;
    bool is_complete = false;   ///< The provider says the response is over.
    std::optional<token_usage> usage;
    std::vector<std::string> image_urls;
    std::vector<std::string> audio_urls;
    std::vector<std::string> video_urls;
    std::vector<tool_call_delta> tool_calls;
    std::string refusal;        ///< OpenAI `delta.refusal`: shown to users, never part of `content`.
    std::string finish_reason;  ///< The provider's raw value (`stop`, `end_turn`, `STOP`...), or empty.
    std::optional<finish_kind> finish;  ///< `finish_reason` normalised by the converter, when it has one.
    std::string error;          ///< A provider error message carried by the stream, or empty.
    std::string response_id;    ///< The provider's message/response id, when this event carries it.
    std::string model;          ///< The model name, when this event carries it.

    /// Empties every field but keeps the capacity of strings and of `tool_calls`.
    void clear() noexcept
    {
        content.clear();
        reasoning.clear();
        is_complete = false;
        usage.reset();
        image_urls.clear();
        audio_urls.clear();
        video_urls.clear();
        tool_calls.clear();
        refusal.clear();
        finish_reason.clear();
        finish.reset();
        error.clear();
        response_id.clear();
        model.clear();
    }

    friend bool operator==(const chunk_response&, const chunk_response&) = default;
};
BOOST_DESCRIBE_STRUCT(chunk_response, (),
    (content, reasoning, is_complete, usage, image_urls, audio_urls, video_urls, tool_calls,
     refusal, finish_reason, finish, error, response_id, model))

} // namespace toolstream
