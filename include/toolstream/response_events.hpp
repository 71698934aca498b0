// Response-level events, for sinks that write a whole response (an OpenAI-compatible stream, say).
#pragma once

#include <toolstream/types.hpp>

#include <cstddef>
#include <string_view>

namespace toolstream {

/// The first event of a pipeline's stream, before any segment: the provider's message/response
/// id and model as the first chunk carried them (either may be empty; a sink that needs an id
/// makes one).
struct response_started {
    std::string_view id;
    std::string_view model;
};

/// One per choice at the end of the stream, after the choice's last segment event.
/// `reason` is the provider's raw value (empty when it sent none); `kind` is normalised:
/// the converter's mapping, `tool_calls` for a choice that made calls and stopped, `length`
/// for a stream cut before the provider said it was finished, `error` for a broken stream.
struct choice_finished {
    std::size_t choice = 0;
    std::string_view reason;
    finish_kind kind = finish_kind::stop;
};

/// The last usage the stream reported; at the end of the stream, after every choice_finished.
struct usage_reported {
    token_usage usage;
};

/// An error the provider put in the stream, or why the stream broke; delivered where it
/// happened in the stream.
struct provider_failed {
    std::string_view message;
};

} // namespace toolstream
