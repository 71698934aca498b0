// The block reader of the Gemma tool-call formats (parse/formats/gemma4.hpp, parse/formats/functiongemma.hpp):
// `OPEN call:NAME{key:DELIM text DELIM,n:42,flag:true,obj:{…},list:[…]} CLOSE`.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>
#include <toolstream/parse/formats/detail/gemma4_arguments.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Gemma 4: strings between `<|"|>` tokens.
struct gemma4_markers {
    static constexpr std::string_view call_open = "<|tool_call>";
    static constexpr std::string_view call_close = "<tool_call|>";
    static constexpr std::string_view string_delimiter = "<|\"|>";
    static constexpr bool strings_read_as_json = false;
    static constexpr bool pairs_need_commas = true;
};

/// FunctionGemma: the same serialisation, strings between `<escape>` tokens, read as vLLM's
/// functiongemma parser reads them (`key:<escape>V<escape>` pairs found with or without commas
/// between them, V JSON-decoded when it parses).
struct functiongemma_markers {
    static constexpr std::string_view call_open = "<start_function_call>";
    static constexpr std::string_view call_close = "<end_function_call>";
    static constexpr std::string_view string_delimiter = "<escape>";
    static constexpr bool strings_read_as_json = true;
    static constexpr bool pairs_need_commas = false;
};

/// One call per opener. `call:NAME{` must follow the opener at once, NAME of `[A-Za-z0-9_.-]` and
/// non-ASCII bytes, decided within max_held; anything else leaves the opener as text. The
/// arguments are read by gemma4_arguments. Their end, then blanks and the closing marker, ENDs
/// the call `complete`; with no marker there (a stop sequence took it) the call ENDs at the
/// object's end and what follows is text. Syntax that breaks the grammar ENDs it
/// `invalid_arguments` at the closing marker (or before the next opener), the bytes up to it
/// kept as the call's content. The stream ending inside the object leaves it `incomplete`.
template<class Markers>
class gemma4_reader {
public:
    static constexpr bool decodes_file_bodies = false;

    explicit gemma4_reader(const text_format_options& o)
        : cap_(std::max<std::size_t>(o.max_held, 16)), limits_{cap_, o.max_held_body}
    {
    }

    std::span<const std::string_view> openers() const noexcept { return openers_; }
    call_frame_limits limits() const noexcept { return limits_; }
    bool done() const noexcept { return phase_ == phase::done; }
    std::size_t held_bytes() const noexcept { return arguments_.held_bytes(); }

    void reset() noexcept
    {
        phase_ = phase::done;
        arguments_.reset();
    }

    opening_verdict open(std::size_t, std::string_view v)
    {
        const std::string_view w = v.substr(0, cap_);
        const auto more = [&] { return w.size() < cap_ ? opening_verdict::more() : opening_verdict::text(at, true); };
        if (const std::size_t n = scan::common_prefix(w.substr(at), call_prefix, false); n < call_prefix.size())
            return at + n == w.size() ? more() : opening_verdict::text(at);
        const std::size_t name_start = at + call_prefix.size();
        std::size_t i = name_start;
        while (i < w.size() && is_name_byte(w[i]))
            ++i;
        if (i == w.size())
            return more();
        if (i == name_start || w[i] != '{')
            return opening_verdict::text(at);
        name_.assign(w.substr(name_start, i - name_start));
        return opening_verdict::block(i);
    }

    template<emitter W>
    void begin(block_context<W>& ctx)
    {
        ctx.call.begin_tool(name_, {}, {}, ctx.out);
        arguments_.begin(ctx.call, cap_);
        phase_ = phase::arguments;
    }

    template<emitter W>
    bool step(block_context<W>& ctx)
    {
        switch (phase_) {
        case phase::arguments: break;
        case phase::close: return close(ctx);
        case phase::skip: return skip(ctx);
        case phase::done: return false;
        }
        const bool progressed = arguments_.step(ctx);
        switch (arguments_.state()) {
        case arguments::outcome::reading: return progressed;
        case arguments::outcome::closed: phase_ = phase::close; break;
        case arguments::outcome::invalid: phase_ = phase::skip; break;
        }
        return true;
    }

    // What is held goes out as what it would be had no marker completed. Complete arguments END
    // `complete` (a held prefix of the closing marker is then text).
    template<emitter W>
    void finalize(block_context<W>& ctx)
    {
        switch (phase_) {
        case phase::arguments: arguments_.finalize(ctx); break;
        case phase::close: end(ctx, segment_status::complete); break;
        case phase::skip:
            ctx.take(ctx.view().size(), byte_role::call_text);
            end(ctx, segment_status::invalid_arguments);
            break;
        case phase::done: break;
        }
        phase_ = phase::done;
    }

private:
    enum class phase { arguments, close, skip, done };
    using arguments = gemma4_arguments<Markers>;

    static constexpr std::string_view call_prefix = "call:";
    static constexpr std::size_t at = Markers::call_open.size();
    static constexpr std::array<std::string_view, 1> openers_{Markers::call_open};

    static constexpr bool is_name_byte(char c) noexcept
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
            || c == '.' || static_cast<unsigned char>(c) >= 0x80;
    }

    template<emitter W>
    void end(block_context<W>& ctx, segment_status status)
    {
        const bool complete = status == segment_status::complete;
        ctx.call.end(ctx.out, status, complete ? std::string_view{} : std::string_view(arguments_.error()));
        arguments_.reset();
        phase_ = phase::done;
    }

    // After the arguments: blanks (syntax), then the closing marker or text after the call.
    template<emitter W>
    bool close(block_context<W>& ctx)
    {
        const std::string_view v = ctx.view();
        const std::size_t blanks = skip_blanks(v, 0);
        ctx.take(blanks, byte_role::markup);
        if (blanks == v.size())
            return true;
        switch (front_of(ctx.view(), Markers::call_close)) {
        case marker_front::maybe: return false;
        case marker_front::yes: ctx.take(Markers::call_close.size(), byte_role::markup); break;
        case marker_front::no: break;
        }
        end(ctx, segment_status::complete);
        return true;
    }

    // After invalid syntax: call text up to the closing marker (markup) or the next opener.
    template<emitter W>
    bool skip(block_context<W>& ctx)
    {
        static constexpr std::array<std::string_view, 2> markers{Markers::call_close, Markers::call_open};
        const auto m = find_marker(ctx.view(), markers, false);
        ctx.take(m.position, byte_role::call_text);
        if (m.marker == marker_match::npos)
            return m.position > 0;
        if (m.marker == 0)
            ctx.take(Markers::call_close.size(), byte_role::markup);
        end(ctx, segment_status::invalid_arguments);
        return true;
    }

    std::size_t cap_;
    call_frame_limits limits_;
    std::string name_;
    phase phase_ = phase::done;
    arguments arguments_;
};

static_assert(format_reader<gemma4_reader<gemma4_markers>, text_format_options>);
static_assert(format_reader<gemma4_reader<functiongemma_markers>, text_format_options>);

} // namespace toolstream::detail
