// Out-of-line members of toolstream::text_format_policy.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include <algorithm>
#include <utility>

namespace toolstream {

namespace detail {

// The tools' schemas of a format's options, when its options have them: they show which calls
// are file tools (call_frame).
template<class Options>
const tool_schemas* schemas_of(const Options& options) noexcept
{
    if constexpr (requires { options.schemas.get(); })
        return options.schemas.get();
    else
        return nullptr;
}

} // namespace detail

template<text_format_traits Traits>
text_format_policy<Traits>::text_format_policy(options_type options)
    : options_(std::move(options)), reader_(options_), call_(reader_.limits(), detail::schemas_of(options_)),
      openers_(reader_.openers().first(std::min(reader_.openers().size(), max_openers)), Traits::ignore_case)
{
    reset();
}

template<text_format_traits Traits>
template<emitter Emitter>
void text_format_policy<Traits>::on_content(std::string_view text, Emitter& out)
{
    buf_.lend(text);
    while (!buf_.empty() && step(out)) {
    }
    buf_.keep();
}

template<text_format_traits Traits>
template<emitter Emitter>
void text_format_policy<Traits>::finalize(Emitter& out)
{
    switch (state_) {
    case state::block: {
        block_context<Emitter> ctx{buf_, call_, out};
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
    state_ = state::text;
}

template<text_format_traits Traits>
template<emitter Emitter>
bool text_format_policy<Traits>::step(Emitter& out)
{
    switch (state_) {
    case state::text: return scan(out);
    case state::opening: return opening(out);
    case state::block: break;
    }
    block_context<Emitter> ctx{buf_, call_, out};
    const bool progressed = reader_.step(ctx);
    if (!reader_.done())
        return progressed;
    state_ = state::text;
    return true;
}

template<text_format_traits Traits>
template<emitter Emitter>
void text_format_policy<Traits>::text(std::string_view bytes, Emitter& out)
{
    out.text(bytes);
    if constexpr (requires { reader_.on_text(bytes); })
        reader_.on_text(bytes);
}

// Text up to the first opener; an opener's prefix at the end is held.
template<text_format_traits Traits>
template<emitter Emitter>
bool text_format_policy<Traits>::scan(Emitter& out)
{
    const auto m = detail::find_marker(buf_.view(), openers_);
    text(buf_.view().substr(0, m.position), out);
    buf_.consume(m.position);
    if (m.marker == detail::marker_match::npos)
        return false;
    opener_ = m.marker;
    state_ = state::opening;
    return true;
}

template<text_format_traits Traits>
template<emitter Emitter>
bool text_format_policy<Traits>::opening(Emitter& out)
{
    const std::string_view v = buf_.view();
    const opening_verdict verdict = reader_.open(opener_, v);
    switch (verdict.what) {
    case opening_verdict::kind::more: return false;
    case opening_verdict::kind::text:
        if (verdict.too_long)
            out.report(error::marker_too_long);   // released as text, unread past the cap
        text(v.substr(0, verdict.size), out);
        buf_.consume(verdict.size);
        state_ = state::text;
        return true;
    case opening_verdict::kind::block: break;
    }
    out.markup(v.substr(0, verdict.size));   // the opening comes before the block's START
    buf_.consume(verdict.size);
    block_context<Emitter> ctx{buf_, call_, out};
    reader_.begin(ctx);
    state_ = reader_.done() ? state::text : state::block;
    return true;
}

} // namespace toolstream
