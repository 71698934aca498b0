// Out-of-line members of toolstream::text_format_policy.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/policies/text_format.hpp>

#include <algorithm>
#include <array>
#include <utility>

namespace toolstream {

template<text_format_traits Traits>
text_format_policy<Traits>::text_format_policy(options_type options)
    : options_(std::move(options)), reader_(options_), call_(reader_.limits())
{
    const std::span<const std::string_view> openers = reader_.openers().first(
        std::min(reader_.openers().size(), max_openers));
    std::array<std::string_view, max_openers + 1> markers{};
    std::size_t n = 0;
    if (!reasoning_open.empty())
        markers[n++] = reasoning_open;
    first_opener_ = n;
    for (auto m : openers)
        markers[n++] = m;
    text_markers_ = detail::marker_set({markers.data(), n}, ignore_case);
    n = 0;
    markers[n++] = reasoning_close;
    reasoning_markers_ = detail::marker_set({markers.data(), n}, ignore_case);
    if constexpr (detail::reasoning_ends_at_call_of<Traits>())
        for (auto m : openers)
            markers[n++] = m;
    start_reasoning_markers_ = detail::marker_set({markers.data(), n}, ignore_case);
    reset();
}

template<text_format_traits Traits>
bool text_format_policy<Traits>::starts_in_reasoning() const noexcept
{
    if (reasoning_close.empty())
        return false;
    if constexpr (requires { options_.reasoning_open_at_start.has_value(); })
        if (options_.reasoning_open_at_start.has_value())
            return *options_.reasoning_open_at_start;
    return detail::reasoning_open_at_start_of<Traits>();
}

template<text_format_traits Traits>
template<class Writer>
void text_format_policy<Traits>::on_content(std::string_view text, Writer& out)
{
    buf_.lend(text);
    while (!buf_.empty() && step(out)) {
    }
    buf_.keep();
}

template<text_format_traits Traits>
template<class Writer>
void text_format_policy<Traits>::finalize(Writer& out)
{
    switch (state_) {
    case state::reasoning: out.reasoning(buf_.view()); break;
    case state::block: {
        detail::block_context<Writer> ctx{buf_, call_, out};
        reader_.finalize(ctx);
        [[fallthrough]];   // what the reader left unread is text
    }
    case state::text:
    case state::opening: out.text(buf_.view()); break;
    }
    call_.end_incomplete(out);
    reset();
}

template<text_format_traits Traits>
void text_format_policy<Traits>::reset()
{
    buf_.clear();
    reader_.reset();
    call_.reset();
    implicit_reasoning_ = starts_in_reasoning();
    state_ = implicit_reasoning_ ? state::reasoning : state::text;
}

template<text_format_traits Traits>
template<class Writer>
bool text_format_policy<Traits>::step(Writer& out)
{
    switch (state_) {
    case state::text: return scan(text_markers_, false, out);
    case state::reasoning: return scan(implicit_reasoning_ ? start_reasoning_markers_ : reasoning_markers_, true, out);
    case state::opening: return opening(out);
    case state::block: break;
    }
    detail::block_context<Writer> ctx{buf_, call_, out};
    const bool progressed = reader_.step(ctx);
    if (!reader_.done())
        return progressed;
    state_ = state::text;
    return true;
}

template<text_format_traits Traits>
template<class Writer>
void text_format_policy<Traits>::text(std::string_view bytes, Writer& out)
{
    out.text(bytes);
    if constexpr (requires { reader_.on_text(bytes); })
        reader_.on_text(bytes);
}

// Text or reasoning up to the first marker; a marker prefix at the end is held.
template<text_format_traits Traits>
template<class Writer>
bool text_format_policy<Traits>::scan(const detail::marker_set& set, bool reasoning, Writer& out)
{
    const auto m = detail::find_marker(buf_.view(), set);
    const auto markers = set.markers();
    const std::string_view before = buf_.view().substr(0, m.position);
    if (reasoning)
        out.reasoning(before);
    else
        text(before, out);
    buf_.consume(m.position);
    if (m.marker == detail::marker_match::npos)
        return false;
    const bool reasoning_marker = reasoning ? m.marker == 0 : m.marker < first_opener_;
    if (reasoning_marker) {
        out.markup(buf_.view().substr(0, markers[m.marker].size()));
        buf_.consume(markers[m.marker].size());
        state_ = reasoning ? state::text : state::reasoning;
        implicit_reasoning_ = false;
        return true;
    }
    // An opener (in reasoning: one that ends a region open from the start).
    opener_ = reasoning ? m.marker - 1 : m.marker - first_opener_;
    state_ = state::opening;
    implicit_reasoning_ = false;
    return true;
}

template<text_format_traits Traits>
template<class Writer>
bool text_format_policy<Traits>::opening(Writer& out)
{
    const std::string_view v = buf_.view();
    const detail::opening_verdict verdict = reader_.open(opener_, v);
    switch (verdict.what) {
    case detail::opening_verdict::kind::more: return false;
    case detail::opening_verdict::kind::text:
        if (verdict.too_long)
            out.report(error::marker_too_long);   // released as text, unread past the cap
        text(v.substr(0, verdict.size), out);
        buf_.consume(verdict.size);
        state_ = state::text;
        return true;
    case detail::opening_verdict::kind::block: break;
    }
    out.markup(v.substr(0, verdict.size));   // the opening comes before the block's START
    buf_.consume(verdict.size);
    detail::block_context<Writer> ctx{buf_, call_, out};
    reader_.begin(ctx);
    state_ = reader_.done() ? state::text : state::block;
    return true;
}

} // namespace toolstream
