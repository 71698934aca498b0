// An SSE comment line, as every SSE writer writes one (a keep-alive, a note for a person).
#pragma once

#include <toolstream/detail/utf8.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Replaces `out` with `: <text>` and the blank line that ends it: `text` as valid UTF-8 (other
/// bytes become U+FFFD) on one line (line breaks become spaces), so it can end no event early.
inline void make_sse_comment(std::string& out, std::string_view text)
{
    out = ": ";
    const std::size_t from = out.size();
    append_valid_utf8(out, text);
    for (std::size_t i = from; i < out.size(); ++i)
        if (out[i] == '\n' || out[i] == '\r')
            out[i] = ' ';
    out += "\n\n";
}

} // namespace toolstream::detail
