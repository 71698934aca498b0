// What the streaming and the non-streaming OpenAI writers share: the response's identity, the
// wire names of finish kinds, a tool segment's name and the usage object (and, through
// detail/utf8.hpp, holding back a split UTF-8 character).
#pragma once

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/utf8.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_syntax.hpp>
#include <toolstream/types.hpp>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <random>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream::detail {

/// The error a finish of kind `error` is reported as, naming the provider's own reason (an
/// aborted request's `abort`, say) when it gave one other than `error`: at most 64 bytes of it,
/// any byte that is not printable ASCII written as `?`.
inline std::string error_finish_message(std::string_view reason)
{
    std::string message = "the provider ended the response with an error";
    if (reason.empty() || reason == "error")
        return message;
    message += " (finish reason '";
    for (const char c : reason.substr(0, 64))
        message += c >= 0x20 && c < 0x7f ? c : '?';
    return message + (reason.size() > 64 ? "...')" : "')");
}

/// The Chat Completions `finish_reason` of a normalised finish (`error` has none: it is an error).
constexpr std::string_view openai_finish_reason(finish_kind kind) noexcept
{
    switch (kind) {
    case finish_kind::tool_calls: return "tool_calls";
    case finish_kind::length: return "length";
    case finish_kind::content_filter: return "content_filter";
    case finish_kind::stop:
    case finish_kind::error: break;
    }
    return "stop";
}

/// `chatcmpl-` and 24 random hex digits, for a response whose provider gave no id.
inline std::string generated_completion_id()
{
    static constexpr char hex[] = "0123456789abcdef";
    std::random_device seed;
    std::mt19937_64 rng((std::uint64_t{seed()} << 32) ^ seed());
    std::string id = "chatcmpl-";
    for (int half = 0; half < 2; ++half)
        for (std::uint64_t bits = rng(), i = 0; i < 12; ++i, bits >>= 4)
            id += hex[bits & 0xf];
    return id;
}

/// id, created and model of a response, fixed when it starts: the caller's, else the provider's,
/// else made up (the id) or empty (the model).
struct response_identity {
    std::string id;
    std::string model;
    std::int64_t created = 0;
    bool started = false;

    void start(std::string_view given_id, std::string_view given_model, std::int64_t given_created,
               std::string_view provider_id, std::string_view provider_model)
    {
        if (started)
            return;
        started = true;
        id = !given_id.empty() ? given_id : provider_id;
        if (id.empty())
            id = generated_completion_id();
        model = !given_model.empty() ? given_model : provider_model;
        created = given_created != 0 ? given_created : static_cast<std::int64_t>(std::time(nullptr));
    }
};

inline void append_integer(std::string& out, std::uint64_t n)
{
    char buf[24];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
}

inline void append_integer(std::string& out, std::int64_t n)
{
    char buf[24];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
}

/// `{"prompt_tokens":…,"completion_tokens":…,"total_tokens":…}`.
inline void append_openai_usage(std::string& out, const token_usage& u)
{
    out += "{\"prompt_tokens\":";
    append_integer(out, u.input_tokens);
    out += ",\"completion_tokens\":";
    append_integer(out, u.output_tokens);
    out += ",\"total_tokens\":";
    append_integer(out, u.input_tokens + u.output_tokens);
    out += '}';
}

} // namespace toolstream::detail
