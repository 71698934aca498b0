// How buffers that may hold a whole call grow.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Buffers of at least this size grow by halves, and give their slack back.
inline constexpr std::size_t large_buffer = std::size_t{64} << 10;

/// Gives `s` a capacity of `capacity` bytes (when larger than its own), not the double of its
/// old one that libstdc++'s reserve() may take.
inline void reserve_exactly(std::string& s, std::size_t capacity)
{
    if (capacity <= s.capacity())
        return;
    std::string grown;
    grown.reserve(capacity);
    grown.append(s);
    s.swap(grown);
}

/// Makes room for `extra` more bytes in `s`, a buffer that may come to hold a whole call. Once
/// large, it grows by half its capacity instead of doubling (libstdc++ doubles even on reserve(),
/// so the new buffer is allocated exactly and the text moved over): while it grows, old and new
/// buffers together hold at most 2.5 times its content, not 3, and its slack afterwards is at
/// most a half.
inline void reserve_growing(std::string& s, std::size_t extra)
{
    const std::size_t need = s.size() + extra;
    if (need <= s.capacity() || s.capacity() < large_buffer)
        return;
    reserve_exactly(s, std::max(need, s.capacity() + s.capacity() / 2));
}

/// Appends `piece` to `s`, growing it as reserve_growing() does.
inline void append_growing(std::string& s, std::string_view piece)
{
    reserve_growing(s, piece.size());
    s.append(piece);
}

/// Gives back the slack of a large buffer that holds a whole call and is about to be handed on
/// (into an invocation, or kept while others are built): when more than a sixteenth of its size,
/// it moves to a buffer of its size. One copy, once per call.
inline void shrink_to_size(std::string& s)
{
    if (s.capacity() >= large_buffer && s.capacity() - s.size() > s.size() / 16)
        s.shrink_to_fit();
}

} // namespace toolstream::detail
