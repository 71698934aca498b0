// What the transport stage hands to the provider converters: one decoded event, and the framings
// that produce them.
#pragma once

#include <toolstream/detail/growth.hpp>

#include <string>
#include <string_view>

namespace toolstream {

/// How a dialect frames its events on the wire; `text`: none, the bytes are the model's text
/// (runtime_pipeline's "text", text_pipeline.hpp).
enum class framing { sse, ndjson, text };

/// One decoded transport event: an SSE event (`event:` name and joined `data:`), or one NDJSON
/// line (empty `name`). Views are valid only during the call that receives them.
struct wire_event {
    std::string_view name;
    std::string_view data;
    /// The decoder's buffer that holds `data` (an event gathered across writes), or null when
    /// `data` points into the bytes the caller wrote.
    std::string* buffer = nullptr;

    /// For a converter that has taken from `data` all it needs (copied out, or parsed into a
    /// tree): frees the buffer holding a large event (a smaller one stays for the next event,
    /// so a steady stream allocates nothing) before the converter builds what the event
    /// becomes, so that the event and a whole call made from it are not held at once. `data` may
    /// not be read after.
    void release() const noexcept
    {
        if (buffer != nullptr && buffer->capacity() >= detail::large_buffer)
            std::string().swap(*buffer);
    }
};

} // namespace toolstream
