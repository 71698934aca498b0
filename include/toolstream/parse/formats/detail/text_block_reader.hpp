// A marker format's reader with a block in which no call opens: vLLM's minimax parser ignores
// the calls written inside `<think>…</think>` and leaves the block in the content.
#pragma once

#include <toolstream/parse/engine/detail/marker_calls.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <utility>

namespace toolstream::detail {

/// The reader of marker format `T` (marker_calls<T>), except that from `T::text_block.open` to
/// `T::text_block.close` (or the end of the stream) every byte is text, both markers included:
/// no call opens there. Elsewhere marker_calls<T> reads as usual. `T::text_block.close` must not
/// occur inside `T::text_block.open`.
template<class T>
class text_block_reader {
    using inner_type = marker_calls<T>;

public:
    static constexpr bool decodes_file_bodies = inner_type::decodes_file_bodies;

    template<class Options>
    explicit text_block_reader(const Options& options) : inner_(options)
    {
        const auto inner = inner_.openers();
        for (std::size_t i = 0; i < inner.size(); ++i)
            openers_[i] = inner[i];
        block_opener_ = inner.size();
        openers_[block_opener_] = T::text_block.open;
    }

    std::span<const std::string_view> openers() const noexcept { return {openers_.data(), block_opener_ + 1}; }
    call_frame_limits limits() const noexcept { return inner_.limits(); }
    bool done() const noexcept { return !in_text_ && inner_.done(); }
    std::size_t held_bytes() const noexcept { return inner_.held_bytes(); }

    /// Whether opener `i` opens a call (format_openings.hpp): the text block opens none.
    bool opens_call(std::size_t i) const noexcept { return i != block_opener_; }

    opening_verdict open(std::size_t i, std::string_view v)
    {
        opening_text_ = i == block_opener_;
        return opening_text_ ? opening_verdict::block(0) : inner_.open(i, v);
    }

    void on_text(std::string_view t) noexcept
    {
        if constexpr (requires { inner_.on_text(t); })
            inner_.on_text(t);
    }

    template<emitter W>
    void begin(block_context<W>& ctx)
    {
        if (opening_text_)
            in_text_ = true;
        else
            inner_.begin(ctx);
    }

    // Text up to the close, the close included; a prefix of it at the end is held.
    template<emitter W>
    bool step(block_context<W>& ctx)
    {
        if (!in_text_)
            return inner_.step(ctx);
        const std::string_view v = ctx.view();
        const marker_match m = find_marker(v, {T::text_block.close});
        const bool closed = m.marker != marker_match::npos;
        const std::size_t n = m.position + (closed ? T::text_block.close.size() : 0);
        ctx.out.text(v.substr(0, n));
        ctx.consume(n);
        in_text_ = !closed;
        return n > 0;
    }

    template<emitter W>
    void finalize(block_context<W>& ctx)
    {
        if (std::exchange(in_text_, false))
            return;   // a held prefix of the close is text, which the driver emits
        inner_.finalize(ctx);
    }

    void reset() noexcept
    {
        inner_.reset();
        in_text_ = opening_text_ = false;
    }

private:
    inner_type inner_;
    std::array<std::string_view, 9> openers_{};
    std::size_t block_opener_ = 0;
    bool opening_text_ = false;   // the opening being read is the text block's
    bool in_text_ = false;
};

} // namespace toolstream::detail
