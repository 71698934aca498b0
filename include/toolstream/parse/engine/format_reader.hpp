// The extension point of the text-format engine: a format's block reader, what an opening turned
// out to be, and what a reader gets to read and write a block (docs/text_formats.md has an
// exemplar, a complete reader of about 60 lines).
#pragma once

#include <toolstream/parse/engine/call_frame.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/parser_policy.hpp>

#include <concepts>
#include <cstddef>
#include <span>
#include <string_view>

namespace toolstream {

/// What the bytes at an opener are, decided by the reader from a bounded look at them.
struct opening_verdict {
    enum class kind {
        more,    ///< undecided: hold them and feed more
        block,   ///< a block: the first `size` bytes are its opening syntax (markup)
        text,    ///< not a block: the first `size` bytes (at least 1) are text
    };
    kind what = kind::more;
    std::size_t size = 0;
    bool too_long = false;   ///< text because the opening passed the hold cap (error::marker_too_long)

    static constexpr opening_verdict more() noexcept { return {}; }
    static constexpr opening_verdict block(std::size_t n) noexcept { return {kind::block, n, false}; }
    static constexpr opening_verdict text(std::size_t n, bool too_long = false) noexcept
    {
        return {kind::text, n, too_long};
    }
};

/// What a block reader works with: the unread input (its front is the next byte of the block),
/// the call frame every call goes through (`call`: begin, name, set, add, end), and the writer.
template<emitter Emitter>
struct block_context {
    detail::scan_buffer& buf;
    call_frame& call;
    Emitter& out;

    /// The unread input; it stays valid until the next take() or consume().
    std::string_view view() const noexcept { return buf.view(); }

    /// Reports the first `n` unread bytes as `role` (through the call frame) and consumes them.
    void take(std::size_t n, byte_role role)
    {
        call.add(role, buf.view().substr(0, n), out);
        buf.consume(n);
    }

    /// Consumes the first `n` unread bytes, which the reader has reported some other way.
    void consume(std::size_t n) { buf.consume(n); }
};

/// A format's block reader (`r` an lvalue of `R`, `o` the policy's options, `ctx` a
/// `block_context<W>&` for any writer `W`, `v` the held input starting at an opener):
///
/// | expression          | semantics                                                               |
/// |---------------------|-------------------------------------------------------------------------|
/// | `R(o)`              | a reader for a stream with options `o`                                  |
/// | `r.openers()`       | `std::span<const std::string_view>`: the markers that may open a block |
/// | `r.limits()`        | `call_frame_limits`: what a call may hold before its START             |
/// | `r.open(i, v)`      | `opening_verdict` for opener `i` at `v[0]`; never `more` once `v` holds a cap's worth |
/// | `r.begin(ctx)`      | the opening's markup was consumed: the block begins                    |
/// | `r.step(ctx)`       | reads on; false when it needs more input                                |
/// | `r.done()`          | the block is over; the driver reads text again                         |
/// | `r.finalize(ctx)`   | end of stream inside the block: held bytes go out as what they would be if no marker completed; the driver then ENDs an open call `incomplete` |
/// | `r.held_bytes()`    | bytes the reader keeps besides the buffer and the frame                 |
/// | `r.reset()`         | back to the start state                                                 |
/// | `r.on_text(t)`      | optional: the driver emitted `t` as text outside any block (before an opener, or an opening that was not one) |
///
/// Models: `detail::marker_calls<T>` (every marker format), `detail::xml_reader`,
/// `detail::sentinel_reader`, `detail::json_calls_reader`, `detail::mistral_reader`,
/// `detail::llama3_json_reader`, `detail::harmony_reader`; each has a `static_assert` beside it.
template<class R, class Options>
concept format_reader = std::constructible_from<R, const Options&>
    && requires(R& r, const R& cr, std::size_t i, std::string_view v) {
           { cr.openers() } -> std::convertible_to<std::span<const std::string_view>>;
           { cr.limits() } -> std::convertible_to<call_frame_limits>;
           { r.open(i, v) } -> std::same_as<opening_verdict>;
           { cr.done() } -> std::convertible_to<bool>;
           { cr.held_bytes() } -> std::convertible_to<std::size_t>;
           r.reset();
       }
    && requires(R& r, block_context<detail::emitter_archetype>& ctx) {
           r.begin(ctx);
           { r.step(ctx) } -> std::convertible_to<bool>;
           r.finalize(ctx);
       };

} // namespace toolstream
