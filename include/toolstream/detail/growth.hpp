// How buffers that may hold a whole call grow.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Makes room for `extra` more bytes in `s`, a buffer that may come to hold a whole call. Once
/// large, it grows by half its capacity instead of doubling (libstdc++ doubles even on reserve(),
/// so the new buffer is allocated exactly and the text moved over): while it grows, old and new
/// buffers together hold at most 2.5 times its content, not 3, and its slack afterwards is at
/// most a half.
inline void reserve_growing(std::string& s, std::size_t extra)
{
    constexpr std::size_t large = std::size_t{64} << 10;
    const std::size_t need = s.size() + extra;
    if (need <= s.capacity() || s.capacity() < large)
        return;
    std::string grown;
    grown.reserve(std::max(need, s.capacity() + s.capacity() / 2));
    grown.append(s);
    s.swap(grown);
}

/// Appends `piece` to `s`, growing it as reserve_growing() does.
inline void append_growing(std::string& s, std::string_view piece)
{
    reserve_growing(s, piece.size());
    s.append(piece);
}

} // namespace toolstream::detail
