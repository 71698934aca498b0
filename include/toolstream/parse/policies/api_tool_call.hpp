// The api_tool_call policy: content is text; tool calls come from the provider's native fields.
#pragma once

#include <toolstream/parse/parser_policy.hpp>

#include <string_view>

namespace toolstream {

/// Content becomes text segments, byte for byte. Tool calls are the provider's native ones,
/// which the handler assembles for every policy (see detail::native_call_assembler):
/// - `write_file` / `patch_file`: a file segment streaming the decoded `content` / `patch`
///   string; START waits for `path` (decoded content that came first follows it at once);
/// - any other tool: a `tool_call` segment streaming the raw argument fragments.
/// A call ends when the provider says it is complete (`tool_call_delta::is_complete`), else at
/// finalize() as `incomplete`. `handler_options::native_limits` bound what a hostile stream can
/// make it hold; `handler_options::keep_file_bodies` off keeps no file body at all. The runtime name `passthrough` is this policy too.
struct api_tool_call {
    static constexpr std::string_view name = "api_tool_call";   ///< As the registry and the CLI spell it.

    template<emitter Emitter>
    void on_content(std::string_view text, Emitter& out)
    {
        out.text(text);
    }
    template<emitter Emitter>
    void finalize(Emitter&)
    {
    }
    void reset() noexcept {}
};

static_assert(parser_policy<api_tool_call>);

} // namespace toolstream
