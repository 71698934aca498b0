// Out-of-line members of toolstream::auto_policy.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/policies/auto_detect.hpp>
#include <toolstream/parse/policies/detail/auto_formats.hpp>

#include <algorithm>
#include <array>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace toolstream {

template<class... Formats>
std::span<const std::string_view> auto_policy<Formats...>::openers()
{
    static const std::vector<std::string_view> all = [] {
        std::vector<std::string_view> v;
        const auto add = [&v]<class P>(std::type_identity<P>) {
            for (const std::string_view o : detail::format_openers<P>())
                if (!o.empty() && std::find(v.begin(), v.end(), o) == v.end())
                    v.push_back(o);
        };
        (add(std::type_identity<Formats>{}), ...);
        return v;
    }();
    return all;
}

template<class... Formats>
detail::marker_match auto_policy<Formats...>::find_opener(std::string_view text)
{
    static const detail::scan::first_byte_table first = detail::scan::first_bytes(openers(), true);
    return detail::scan::find_by_table(text, openers(), first, true);
}

template<class... Formats>
detail::marker_match auto_policy<Formats...>::find_stop(std::string_view text)
{
    static const std::vector<std::string_view> stops = [] {
        std::vector<std::string_view> v(openers().begin(), openers().end());
        const auto add = [&v]<class P>(std::type_identity<P>) {
            if constexpr (detail::has_text_block<P>)
                v.push_back(P::traits_type::text_block.close);
        };
        (add(std::type_identity<Formats>{}), ...);
        return v;
    }();
    static const detail::scan::first_byte_table first = detail::scan::first_bytes(stops, true);
    return detail::scan::find_by_table(text, stops, first, true);
}

template<class... Formats>
std::string_view auto_policy<Formats...>::format_in(std::string_view text)
{
    auto_policy p;
    detail::trial_watch watch;
    segment_emitter<event_target> out(watch);   // the writer the trials use: no code more
    p.on_content(text, out);
    p.finalize(out);
    return watch.calls_done > 0 ? p.format() : std::string_view{};
}

template<class... Formats>
template<emitter Emitter>
void auto_policy<Formats...>::on_content(std::string_view text, Emitter& out)
{
    if (chosen_.index() != 0) {
        forward(text, out);
        return;
    }
    buf_.lend(text);
    search(out, false);
    buf_.keep();
}

template<class... Formats>
template<emitter Emitter>
void auto_policy<Formats...>::finalize(Emitter& out)
{
    if (chosen_.index() == 0) {
        search(out, true);
        emit_text(buf_.view(), out);   // a marker's prefix that the stream ended in
    }
    std::visit(
        [&out](auto& p) {
            if constexpr (!std::is_same_v<std::remove_cvref_t<decltype(p)>, std::monostate>)
                p.finalize(out);
        },
        chosen_);
    const std::size_t chosen = last_;
    reset();
    last_ = chosen;
}

template<class... Formats>
void auto_policy<Formats...>::reset()
{
    chosen_ = std::monostate{};
    last_ = 0;
    buf_.clear();
    deciding_ = false;
    text_before_ = false;
    fed_ = 0;
    in_text_block_ = {};
    skipping_ = none;
}

template<class... Formats>
std::size_t auto_policy<Formats...>::held_bytes() const noexcept
{
    return std::visit(
        [this](const auto& p) -> std::size_t {
            if constexpr (std::is_same_v<std::remove_cvref_t<decltype(p)>, std::monostate>)
                return buf_.size();
            else
                return p.held_bytes();
        },
        chosen_);
}

template<class... Formats>
bool auto_policy<Formats...>::decodes_file_bodies_now() const noexcept
{
    return std::visit(
        [](const auto& p) {
            using P = std::remove_cvref_t<decltype(p)>;
            if constexpr (std::is_same_v<P, std::monostate>)
                return false;
            else
                return P::decodes_file_bodies;
        },
        chosen_);
}

template<class... Formats>
bool auto_policy<Formats...>::in_block() const noexcept
{
    return std::visit(
        [this](const auto& p) {
            if constexpr (std::is_same_v<std::remove_cvref_t<decltype(p)>, std::monostate>)
                return deciding_;
            else
                return p.in_block();
        },
        chosen_);
}

template<class... Formats>
detail::format_opening auto_policy<Formats...>::find_opening(std::string_view v, std::size_t limit, bool after_output,
                                                             bool at_end) const
{
    using kind = detail::format_opening::kind;
    if (chosen_.index() != 0)
        return std::visit(
            [&](const auto& p) -> detail::format_opening {
                if constexpr (std::is_same_v<std::remove_cvref_t<decltype(p)>, std::monostate>)
                    return {};
                else
                    return detail::find_opening(p, v, limit, after_output, at_end);
            },
            chosen_);
    for (std::size_t from = 0; from < limit;) {
        const auto m = find_opener(v.substr(from));
        const std::size_t at = from + m.position;
        if (at >= limit)
            break;
        if (m.marker == detail::marker_match::npos)   // a marker's prefix ends `v`
            return at_end ? detail::format_opening{kind::none, limit} : detail::format_opening{kind::undecided, at};
        // Each format that may open here judges the marker alone (a limit of one byte).
        const std::string_view rest = v.substr(at);
        const bool output_before = after_output || !detail::all_blank(v.substr(0, at));
        kind found = kind::none;
        detail::for_each_index(std::index_sequence_for<Formats...>{}, [&](auto i) {
            using P = std::variant_alternative_t<i + 1, decltype(chosen_)>;
            if (found == kind::block || !detail::may_open_at<P>(rest))
                return;
            const detail::opening_judge<P> judge{detail::format_options<P>(options_)};
            const auto o = detail::find_opening(judge, rest, 1, output_before, at_end);
            if (o.what == kind::block || o.what == kind::undecided)
                found = o.what;
        });
        if (found != kind::none)
            return {found, at};
        from = at + 1;
    }
    return {kind::none, limit};
}

// Text up to the next marker; at a marker, the trials until they decide (or, `at_end`, as the
// end of the stream leaves them).
template<class... Formats>
template<emitter Emitter>
void auto_policy<Formats...>::search(Emitter& out, bool at_end)
{
    while (chosen_.index() == 0 && !buf_.empty()) {
        if (skipping_ != none && !skip_text_block(out))
            return;   // the block's close not seen yet
        if (!deciding_) {
            const auto m = find_stop(buf_.view());
            emit_text(buf_.view().substr(0, m.position), out);
            buf_.consume(m.position);
            if (m.marker == detail::marker_match::npos)
                return;   // nothing, or a marker's prefix held
            track_text_blocks();
            start_trials();
        }
        feed_trials();
        const std::size_t verdict = decide(at_end || fed_ == decision_window());
        if (verdict == undecided)
            return;
        if (verdict == none) {   // text to every format: its first byte is text, the search goes on
            emit_text(buf_.view().substr(0, 1), out);
            buf_.consume(1);
            deciding_ = false;
            continue;
        }
        commit(verdict, out);
    }
}

template<class... Formats>
template<emitter Emitter>
void auto_policy<Formats...>::emit_text(std::string_view text, Emitter& out)
{
    if (text.empty())
        return;
    out.text(text);
    text_before_ = text_before_ || !detail::all_blank(text);
}

template<class... Formats>
void auto_policy<Formats...>::track_text_blocks()
{
    const std::string_view v = buf_.view();
    detail::for_each_index(std::index_sequence_for<Formats...>{}, [&](auto i) {
        using P = std::variant_alternative_t<i + 1, decltype(chosen_)>;
        if constexpr (detail::has_text_block<P>) {
            const auto& block = P::traits_type::text_block;
            if (in_text_block_[i])
                in_text_block_[i] = !detail::starts_with_marker<P>(v, block.close);
            else
                in_text_block_[i] = detail::starts_with_marker<P>(v, block.open);
        }
    });
}

template<class... Formats>
template<emitter Emitter>
bool auto_policy<Formats...>::skip_text_block(Emitter& out)
{
    bool closed = false;
    detail::for_each_index(std::index_sequence_for<Formats...>{}, [&](auto i) {
        using P = std::variant_alternative_t<i + 1, decltype(chosen_)>;
        if constexpr (detail::has_text_block<P>) {
            if (i != skipping_)
                return;
            const std::string_view close = P::traits_type::text_block.close;
            const auto m = detail::find_marker(buf_.view(), {close}, P::traits_type::ignore_case);
            closed = m.marker != detail::marker_match::npos;
            const std::size_t n = m.position + (closed ? close.size() : 0);
            emit_text(buf_.view().substr(0, n), out);
            buf_.consume(n);
        }
    });
    if (closed) {
        in_text_block_[skipping_] = false;
        skipping_ = none;
    }
    return closed;
}

template<class... Formats>
void auto_policy<Formats...>::start_trials()
{
    if (!trials_)
        trials_ = std::make_unique<trials_type>();
    const std::string_view v = buf_.view();
    detail::for_each_index(std::index_sequence_for<Formats...>{}, [&](auto i) {
        using P = std::variant_alternative_t<i + 1, decltype(chosen_)>;
        trying_[i] = detail::may_open_at<P>(v);
        if (!trying_[i])
            return;
        auto& trial = std::get<i>(*trials_);
        if (!trial)
            trial.emplace(detail::format_options<P>(options_));
        trial->start(text_before_);
    });
    deciding_ = true;
    fed_ = 0;
}

template<class... Formats>
void auto_policy<Formats...>::feed_trials()
{
    // Never past max_held: what the trials have read when they decide is the same at any chunking.
    const std::string_view fresh = buf_.view().substr(0, decision_window()).substr(fed_);
    if (fresh.empty())
        return;
    detail::for_each_index(std::index_sequence_for<Formats...>{}, [&](auto i) {
        if (trying_[i])
            std::get<i>(*trials_)->feed(fresh);
    });
    fed_ += fresh.size();
}

template<class... Formats>
std::size_t auto_policy<Formats...>::decide(bool final)
{
    std::size_t markup = none;
    std::size_t flawed = none;
    std::size_t result = none;
    bool waiting = false;
    std::size_t in_block_call = none;
    detail::for_each_index(std::index_sequence_for<Formats...>{}, [&](auto i) {
        if (result != none || waiting || !trying_[i])
            return;
        switch (std::get<i>(*trials_)->verdict(final)) {
        case detail::trial_verdict::undecided: waiting = true; break;
        case detail::trial_verdict::rejected: break;
        case detail::trial_verdict::flawed: flawed = flawed == none ? i : flawed; break;
        case detail::trial_verdict::markup: markup = markup == none ? i : markup; break;
        case detail::trial_verdict::accepted:
            if (in_text_block_[i])
                in_block_call = in_block_call == none ? i : in_block_call;
            else
                result = i;
            break;
        }
    });
    if (result != none)
        return result;
    if (waiting)
        return undecided;
    // A call of a format inside its text block: the block is that format's, and text to its close.
    if (in_block_call != none) {
        skipping_ = in_block_call;
        return none;
    }
    return flawed != none ? flawed : markup;
}

template<class... Formats>
template<emitter Emitter>
void auto_policy<Formats...>::commit(std::size_t format, Emitter& out)
{
    detail::for_each_index(std::index_sequence_for<Formats...>{}, [&](auto i) {
        using P = std::variant_alternative_t<i + 1, decltype(chosen_)>;
        if (i != format)
            return;
        auto& p = chosen_.template emplace<i + 1>(detail::format_options<P>(options_));
        if (text_before_)
            p.after_text(".");
    });
    last_ = chosen_.index();
    deciding_ = false;
    trials_.reset();
    const std::string_view held = buf_.view();
    forward(held, out);   // the chosen policy copies what it holds
    buf_.clear();
}

template<class... Formats>
template<emitter Emitter>
void auto_policy<Formats...>::forward(std::string_view text, Emitter& out)
{
    // A table indexed by chosen_.index(), not std::visit: this runs on every chunk after the
    // choice, and the table's one indirect call is all auto adds to the chosen format's cost.
    using forward_fn = void (*)(decltype(chosen_)&, std::string_view, Emitter&);
    static constexpr auto table = []<std::size_t... I>(std::index_sequence<I...>) {
        return std::array<forward_fn, sizeof...(I)>{+[](decltype(chosen_)& chosen, std::string_view t, Emitter& w) {
            if constexpr (I != 0)
                std::get_if<I>(&chosen)->on_content(t, w);
        }...};
    }(std::make_index_sequence<format_count + 1>{});
    if (chosen_.valueless_by_exception())
        throw std::bad_variant_access{};   // as std::visit would
    table[chosen_.index()](chosen_, text, out);
}

} // namespace toolstream
