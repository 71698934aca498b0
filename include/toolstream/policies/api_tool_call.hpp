// The api_tool_call policy: content is text; tool calls come from the provider's native fields.
#pragma once

#include <toolstream/policies/detail/native_call_assembler.hpp>
#include <toolstream/limits.hpp>
#include <toolstream/types.hpp>

#include <string_view>

namespace toolstream {

/// Content becomes text segments; each native call becomes a segment whose id is the provider's
/// call id (`seg_N` when it has none):
/// - `write_file` / `patch_file`: a file segment streaming the decoded `content` / `patch`
///   string; START waits for `path` (decoded content that came first follows it at once);
/// - any other tool: a `tool_call` segment streaming the raw argument fragments; its END carries
///   the parsed `arguments`.
/// A call ends when the provider says it is complete (`tool_call_delta::is_complete`), else at
/// finalize() as `incomplete`.
/// Limits (`native_call_limits`) bound what a hostile stream can make it hold.
class api_tool_call {
public:
    api_tool_call() = default;
    explicit api_tool_call(native_call_limits limits) : calls_(limits) {}

    template<class Writer>
    void on_content(std::string_view text, Writer& out)
    {
        out.text(text);
    }
    template<class Writer>
    void on_tool_call(const tool_call_delta& d, Writer& out)
    {
        calls_.on_tool_call(d, out);
    }
    template<class Writer>
    void finalize(Writer& out)
    {
        calls_.finalize(out);
    }
    void reset() { calls_.reset(); }

private:
    detail::native_call_assembler calls_;
};

} // namespace toolstream
