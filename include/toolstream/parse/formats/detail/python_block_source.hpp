// A pythonic format's block as the source its Python values are read from
// (detail/python_values.hpp): the bytes read are the call's text.
#pragma once

#include <toolstream/detail/python_literals.hpp>
#include <toolstream/parse/engine/format_reader.hpp>

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace toolstream::detail {

/// Reports `n` bytes as a call's text, in pieces the frame can hold: a file's START waits for its
/// path, and happens at the same input byte whatever the chunking.
template<emitter W>
void take_call_text(block_context<W>& ctx, std::size_t n)
{
    while (n > 0) {
        const std::size_t k = std::min(n, std::max<std::size_t>(ctx.call.hold_room(), 1));
        ctx.take(k, byte_role::call_text);
        n -= k;
    }
}

/// The block's input as a python_source: a piece of decoded text is no longer than the frame can
/// hold, and a file body's decoded text is the call's content.
template<emitter W>
class python_block_source {
public:
    explicit python_block_source(block_context<W>& ctx) noexcept : ctx_(ctx) {}
    std::string_view view() const { return ctx_.view(); }
    std::size_t room() const { return std::max<std::size_t>(ctx_.call.hold_room(), 1); }
    void take(std::size_t n) { take_call_text(ctx_, n); }
    void decoded(std::string_view text) { ctx_.call.add(byte_role::decoded, text, ctx_.out); }

private:
    block_context<W>& ctx_;
};

} // namespace toolstream::detail
