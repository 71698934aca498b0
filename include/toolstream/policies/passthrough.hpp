// The passthrough policy: all content is text; nothing is parsed.
#pragma once

#include <string_view>

namespace toolstream {

/// Every byte of content becomes text, as it arrives. Native tool calls are ignored.
struct passthrough {
    template<class Writer>
    void on_content(std::string_view text, Writer& out)
    {
        out.text(text);
    }
    template<class Writer>
    void finalize(Writer&)
    {
    }
    void reset() noexcept {}
};

} // namespace toolstream
