// Reasoning parsers (vLLM's --reasoning-parser): reasoning_policy<Policy, Reasoning> splits the
// model's reasoning out of the content first and forwards the rest to any parser policy.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/parser_policy.hpp>
#include <toolstream/parse/policies/detail/format_openings.hpp>
#include <toolstream/parse/policies/detail/marker_spellings.hpp>
#include <toolstream/parse/policies/reasoning_parsers.hpp>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

namespace toolstream {

/// A reasoning parser known at compile time: `void` (the syntax is given at run time), or a tag
/// whose static `syntax` is a `reasoning_syntax` (qwen3_reasoning, …).
template<class R>
concept reasoning_tag = std::is_void_v<R> || requires {
    { R::syntax } -> std::convertible_to<reasoning_syntax>;
};

namespace detail {
template<reasoning_tag R>
constexpr reasoning_syntax reasoning_syntax_of() noexcept
{
    if constexpr (std::is_void_v<R>)
        return {};
    else
        return R::syntax;
}

/// The state of a reasoning parser: reasoning bytes go out as reasoning segments, its markers as
/// markup, the other bytes to `inner` (any parser policy) in order. Only a marker prefix (at most
/// the longest marker, or up to 256 leading blanks) is held, or an opening of the format in a
/// region that yields to calls, while the format cannot yet tell it (within its hold cap).
class reasoning_splitter {
public:
    explicit reasoning_splitter(reasoning_syntax syntax = {})
        : syntax_(syntax), open_(syntax.open, syntax.open_alternatives), close_(syntax.close, syntax.close_alternatives),
          ends_(region_ends(close_, {}, syntax.yields_to)),
          ends_implicit_(region_ends(close_, syntax.ends_implicit_at, syntax.yields_to)),
          closes_(region_ends(close_, {}, {}))
    {
        if (syntax.recurs)
            for (const std::string_view spelling : open_.view())
                seek_[seek_opens_++] = spelling;
        seek_count_ = seek_opens_;
        for (const std::string_view marker : syntax.markup_outside)
            if (!marker.empty())
                seek_[seek_count_++] = marker;
        reset();
    }

    template<class Inner, emitter Emitter>
    void on_content(std::string_view text, Inner& inner, Emitter& out)
    {
        if (state_ == state::content && buf_.empty()) {
            blank_ = blank_ && all_blank(text);
            inner.on_content(text, out);
            return;
        }
        buf_.append(text);
        while (!buf_.empty() && step(inner, out)) {
        }
    }

    /// A marker spelling held for a longer one is the marker; other held bytes are what they would
    /// be had no marker completed. Then `inner` finalizes.
    template<class Inner, emitter Emitter>
    void finalize(Inner& inner, Emitter& out)
    {
        at_end_ = true;
        while (!buf_.empty() && step(inner, out)) {
        }
        if (!buf_.empty()) {
            if (state_ == state::reasoning || (state_ == state::start && syntax_.open_at_start))
                out.reasoning(buf_.view());
            else
                inner.on_content(buf_.view(), out);
            buf_.clear();
        }
        inner.finalize(out);
    }

    void reset() noexcept
    {
        buf_.clear();
        state_ = syntax_.open.empty() ? after_region() : state::start;
        implicit_ = false;
        at_end_ = false;
        blank_ = true;
    }

    std::size_t held_bytes() const noexcept { return buf_.size(); }
    const reasoning_syntax& syntax() const noexcept { return syntax_; }

private:
    // start: the stream's first bytes may open a region; seek: a recurring region may open, or
    // markup_outside stand, anywhere; reasoning: inside one; content: everything is the format's.
    enum class state { start, seek, reasoning, content };
    static constexpr std::size_t max_leading_blanks = 256;


    // Whether a recurring region may open after the bytes `inner` has read: not inside a block
    // of its syntax (an opening, a call's arguments, a section of calls), whose bytes are the
    // block's; and not while it holds bytes it has not settled, which came before the marker.
    template<class Inner>
    static bool settled(const Inner& inner) noexcept
    {
        if constexpr (requires { { inner.in_block() } -> std::convertible_to<bool>; }) {
            if (inner.in_block())
                return false;
        } else {
            static_assert(!requires { &Inner::in_block; },
                          "toolstream: a parser policy's in_block() must be callable as `bool in_block() const`; "
                          "otherwise a reasoning parser would open regions inside its calls");
        }
        if constexpr (requires { inner.held_bytes(); })
            return inner.held_bytes() == 0;
        else
            return true;
    }

    template<class Inner, emitter Emitter>
    void forward(std::size_t n, Inner& inner, Emitter& out)
    {
        if (n > 0) {
            blank_ = blank_ && all_blank(buf_.view().substr(0, n));
            inner.on_content(buf_.view().substr(0, n), out);
        }
        buf_.consume(n);
    }

    template<emitter Emitter>
    void emit(std::size_t n, bool reasoning, Emitter& out)
    {
        if (n > 0) {
            blank_ = blank_ && all_blank(buf_.view().substr(0, n));
            if (reasoning)
                out.reasoning(buf_.view().substr(0, n));
            else
                out.markup(buf_.view().substr(0, n));
        }
        buf_.consume(n);
    }

    template<class Inner, emitter Emitter>
    bool step(Inner& inner, Emitter& out)
    {
        const std::string_view v = buf_.view();
        switch (state_) {
        case state::content: forward(v.size(), inner, out); return true;
        case state::start: return start(v, inner, out);
        case state::seek: {
            const auto m = find_marker(v, std::span<const std::string_view>(seek_.data(), seek_count_), false);
            forward(m.position, inner, out);
            if (m.marker == marker_match::npos)
                return false;   // a marker's prefix (or nothing) is left
            if (m.marker >= seek_opens_) {   // markup outside regions, unless it is a block's data
                const std::size_t n = seek_[m.marker].size();
                if (settled(inner))
                    emit(n, false, out);
                else
                    forward(n, inner, out);
                return true;
            }
            const auto spelling = open_.at(buf_.view());
            if (spelling.longer_pending && !at_end_)
                return false;
            if (!settled(inner)) {
                // The marker is the policy's data: a call's bytes are the call's, and a region
                // here would put reasoning before held bytes that came first.
                forward(spelling.length, inner, out);
                return true;
            }
            emit(spelling.length, false, out);
            state_ = state::reasoning;
            return true;
        }
        case state::reasoning: return reasoning(v, inner, out);
        }
        return false;
    }

    // Blanks, then `open` or not: a region opens explicitly, implicitly (open_at_start), or never.
    template<class Inner, emitter Emitter>
    bool start(std::string_view v, Inner& inner, Emitter& out)
    {
        std::size_t i = 0;
        while (i < v.size() && i < max_leading_blanks && is_blank(v[i]))
            ++i;
        const auto spelling = open_.at(v.substr(i));
        const bool undecided = spelling.longer_pending && !at_end_ && i < max_leading_blanks;
        if (spelling.length > 0 && !undecided) {
            if (syntax_.open_at_start)
                emit(i, true, out);
            else
                forward(i, inner, out);
            emit(spelling.length, false, out);
            state_ = state::reasoning;
            return true;
        }
        if (undecided)
            return false;   // blanks or a prefix of `open` so far
        implicit_ = syntax_.open_at_start;
        state_ = implicit_ ? state::reasoning : after_region();
        return true;
    }

    // In a region: reasoning up to its end. Where calls end it (yields_to_calls) and the format
    // tells its openings, the first block the format opens ends it, else only a close does.
    template<class Inner, emitter Emitter>
    bool reasoning(std::string_view v, const Inner& inner, Emitter& out)
    {
        using opening = format_opening::kind;
        const auto closes = close_.view();
        const region_markers& ends = implicit_ ? ends_implicit_ : ends_;
        marker_match m;
        if (syntax_.yields_to_calls && !(ends[closes.size()].empty() && ends[closes.size() + 1].empty())) {
            m = find_marker(v, closes_, false);
            const format_opening o = find_opening(inner, v, m.position, !blank_, at_end_);
            if (o.what == opening::block || o.what == opening::undecided) {
                emit(o.position, true, out);
                if (o.what == opening::undecided)
                    return false;
                end_region();
                return true;
            }
            if (o.what == opening::untold)
                m = find_marker(v, ends, false);
        } else {
            m = find_marker(v, ends, false);
        }
        emit(m.position, true, out);
        if (m.marker == marker_match::npos)
            return false;
        const bool closing = m.marker < closes.size();
        const auto spelling = closing ? close_.at(buf_.view()) : marker_spellings::match{};
        if (closing && spelling.longer_pending && !at_end_)
            return false;
        if (!closing && !syntax_.yields_to.empty() && buf_.view().starts_with(syntax_.yields_to)) {
            switch (yields_here(buf_.view().substr(syntax_.yields_to.size()))) {
            case scan::follows::more: return false;   // `yields_to` and blanks so far: held
            case scan::follows::no:
            case scan::follows::past_lookahead: emit(syntax_.yields_to.size(), true, out); return true;
            case scan::follows::yes: break;
            }
        }
        if (closing)
            emit(spelling.length, false, out);
        end_region();
        return true;
    }

    void end_region() noexcept
    {
        implicit_ = false;
        state_ = after_region();
    }

    // Outside regions the bytes are scanned only for a recurring region's opening or for
    // markup_outside; else they go straight to the policy.
    state after_region() const noexcept { return seek_count_ > 0 ? state::seek : state::content; }

    // Whether `yields_to`, followed by `rest`, ends the region (yields_before).
    scan::follows yields_here(std::string_view rest) const noexcept
    {
        if (syntax_.yields_before[0].empty())
            return scan::follows::yes;
        return scan::followed_by(rest, syntax_.yields_before, max_leading_blanks, false);
    }

    // What ends a region: the closing spellings first (find_marker numbers the non-empty markers
    // only), then `ends_at` (ends_implicit_at in a region opened implicitly) and `yields_to`.
    using region_markers = std::array<std::string_view, 6>;
    static region_markers region_ends(const marker_spellings& close, std::string_view ends_at,
                                      std::string_view yields_to) noexcept
    {
        region_markers markers{};
        const auto closes = close.view();
        std::copy(closes.begin(), closes.end(), markers.begin());
        markers[closes.size()] = ends_at;
        markers[closes.size() + 1] = yields_to;
        return markers;
    }

    reasoning_syntax syntax_;
    marker_spellings open_;
    marker_spellings close_;
    region_markers ends_;            // in a region the model opened
    region_markers ends_implicit_;   // in one open from the start
    region_markers closes_;          // the closes alone: the format tells where calls open
    std::array<std::string_view, 6> seek_{};   // outside regions: open spellings if recurring, markup_outside
    std::size_t seek_opens_ = 0;
    std::size_t seek_count_ = 0;
    scan_buffer buf_;
    state state_ = state::content;
    bool implicit_ = false;
    bool at_end_ = false;   // in finalize(): no byte can continue a held spelling
    bool blank_ = true;     // every byte consumed so far is blank (format_openings.hpp)
};

} // namespace detail

/// A parser policy: `Policy` behind a reasoning parser (detail::reasoning_splitter). `Reasoning`
/// is a syntax tag (qwen3_reasoning…), or void for a syntax given at run time (none when
/// default-built).
template<parser_policy Policy, reasoning_tag Reasoning = void>
class reasoning_policy {
public:
    using inner_type = Policy;
    static constexpr bool decodes_file_bodies = [] {
        if constexpr (requires { Policy::decodes_file_bodies; })
            return Policy::decodes_file_bodies;
        else
            return false;
    }();

    reasoning_policy() : reasoning_policy(detail::reasoning_syntax_of<Reasoning>()) {}
    explicit reasoning_policy(reasoning_syntax syntax, Policy inner = Policy{})
        : splitter_(syntax), inner_(std::move(inner))
    {
    }

    template<emitter Emitter>
    void on_content(std::string_view text, Emitter& out)
    {
        splitter_.on_content(text, inner_, out);
    }

    template<emitter Emitter>
    void finalize(Emitter& out)
    {
        splitter_.finalize(inner_, out);
    }

    void reset()
    {
        splitter_.reset();
        inner_.reset();
    }

    std::size_t held_bytes() const noexcept
    {
        if constexpr (requires { inner_.held_bytes(); })
            return splitter_.held_bytes() + inner_.held_bytes();
        else
            return splitter_.held_bytes();
    }

    const reasoning_syntax& syntax() const noexcept { return splitter_.syntax(); }
    Policy& inner() noexcept { return inner_; }
    const Policy& inner() const noexcept { return inner_; }

private:
    detail::reasoning_splitter splitter_;
    Policy inner_;
};

static_assert(parser_policy<reasoning_policy<detail::parser_policy_archetype, qwen3_reasoning>>);

} // namespace toolstream
