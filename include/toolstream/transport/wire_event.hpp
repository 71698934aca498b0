// What the transport stage hands to the provider converters: one decoded event, and the framings
// that produce them.
#pragma once

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
};

} // namespace toolstream
