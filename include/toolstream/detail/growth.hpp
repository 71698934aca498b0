// How buffers that may hold a whole call grow.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Appends `piece` to `s`, a buffer that may come to hold a whole call. Once large, it grows by
/// half its capacity instead of doubling (libstdc++ doubles even on reserve(), so the new buffer
/// is allocated exactly and the text moved over): while it grows, old and new buffers together
/// hold at most 2.5 times its content, not 3, and its slack afterwards is at most a half.
inline void append_growing(std::string& s, std::string_view piece)
{
    constexpr std::size_t large = std::size_t{64} << 10;
    const std::size_t need = s.size() + piece.size();
    if (need > s.capacity() && s.capacity() >= large) {
        std::string grown;
        grown.reserve(std::max(need, s.capacity() + s.capacity() / 2));
        grown.append(s);
        s.swap(grown);
    }
    s.append(piece);
}

} // namespace toolstream::detail
