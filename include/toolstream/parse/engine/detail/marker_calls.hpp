// The block reader of formats made of markers: [section_open] (call_open [header header_end]
// arguments [call_close])* [section_close], the arguments JSON call objects (one, an array, a
// sequence), a JSON object or key/value parameters.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/error.hpp>
#include <toolstream/parse/engine/detail/json_call_objects.hpp>
#include <toolstream/parse/engine/detail/json_object_reader.hpp>
#include <toolstream/parse/engine/detail/key_value_reader.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/engine/detail/marker_traits_check.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace toolstream::detail {

/// Reads the blocks of a marker format `T`, as marker_format (format_traits.hpp) states them.
template<class T>
class marker_calls {
    static_assert(marker_traits_checked<T>());

public:
    /// A file body is decoded out of a JSON string, except in key/value arguments (raw text).
    static constexpr bool decodes_file_bodies = T::arguments != text_arguments::key_value;

    /// Options with `max_held` (the hold cap: at least 16 bytes past the format's longest
    /// markers) and `max_held_body`, and optionally `schemas` (key_value: typed values).
    template<class Options>
    explicit marker_calls(const Options& options)
        : cap_(std::max(options.max_held, min_cap)), limits_{cap_, options.max_held_body}
    {
        if constexpr (requires { options.schemas; })
            schemas_ = options.schemas;
    }

    std::span<const std::string_view> openers() const noexcept { return openers_; }
    call_frame_limits limits() const noexcept { return limits_; }
    bool done() const noexcept { return phase_ == phase::done; }
    std::size_t held_bytes() const noexcept
    {
        if constexpr (kind == text_arguments::key_value)
            return key_value_.held_bytes();
        return 0;
    }

    opening_verdict open(std::size_t i, std::string_view v)
    {
        // A longer opener that begins with this one (```json after ```) is read as itself, at any
        // chunking: the scan may have stopped at the shorter one before the rest arrived.
        for (std::size_t k = 0; k < table_.size; ++k) {
            const std::string_view u = table_.text[k];
            if (u.size() <= table_.text[i].size() || scan::common_prefix(u, table_.text[i], ignore_case) < table_.text[i].size())
                continue;
            const std::size_t n = scan::common_prefix(v, u, ignore_case);
            if (n == u.size())
                i = k;
            else if (n == v.size())
                return opening_verdict::more();
        }
        const std::size_t role = table_.role[i];
        markup_only_ = role == markup;
        if (markup_only_)
            return opening_verdict::block(table_.text[i].size());
        if constexpr (section)
            return opening_verdict::block(section_open.size());
        close_ = call_close;
        if (role == primary)
            return read_opening(v, call_open.size(), call_open.size());
        if (role == bare)
            return read_opening(v, 0, bare_call_open.size());
        if (role == array_start) {
            close_ = {};
            return at_start_ ? read_opening(v, 0, 1) : opening_verdict::text(1);
        }
        if constexpr (!other_calls.empty()) {
            const call_markers& m = other_calls[role - other];
            close_ = m.close;
            return read_opening(v, m.open.size(), m.open.size());
        }
        return opening_verdict::text(1);
    }

    /// Text outside blocks: only before any does a bare `[` open an array.
    void on_text(std::string_view t) noexcept
        requires(T::bare_array_at_start)
    {
        at_start_ = at_start_ && all_blank(t);
    }

    template<emitter W>
    void begin(block_context<W>& ctx)
    {
        if (std::exchange(markup_only_, false))
            return;   // the marker was all there is: no block, text again
        at_start_ = false;
        if constexpr (section)
            phase_ = phase::section;
        else
            begin_call(ctx);
    }

    template<emitter W>
    bool step(block_context<W>& ctx)
    {
        switch (phase_) {
        case phase::section: return between_calls(ctx);
        case phase::arguments: return arguments(ctx);
        case phase::close: return close(ctx);
        case phase::done: break;
        }
        return false;
    }

    /// Held bytes in the section or before `call_close` are left as text; arguments flush
    /// their own. Complete arguments waiting for `call_close` END `complete`.
    template<emitter W>
    void finalize(block_context<W>& ctx)
    {
        if (phase_ == phase::arguments && finalize_arguments(ctx))
            phase_ = phase::close;
        if (phase_ == phase::close && ctx.call.open())
            end_call(ctx);
        phase_ = phase::done;
    }

    void reset() noexcept
    {
        phase_ = phase::done;
        at_start_ = true;
        markup_only_ = false;
        calls_.reset();
        object_.reset();
        if constexpr (kind == text_arguments::key_value)
            key_value_.reset();
    }

private:
    static constexpr std::string_view call_open = T::call_open;
    static constexpr std::string_view call_close = T::call_close;
    static constexpr std::string_view section_open = T::section_open;
    static constexpr std::string_view section_close = T::section_close;
    static constexpr std::string_view header_end = T::header_end;
    static constexpr bool section = !section_open.empty();
    static constexpr bool ignore_case = T::ignore_case;
    static constexpr text_arguments kind = T::arguments;
    static constexpr std::string_view bare_call_open = section ? std::string_view{} : T::bare_call_open;
    static constexpr std::array<std::string_view, 2> header_stops = T::header_stops;
    static constexpr json_call_list call_list = T::call_list;
    static constexpr auto other_calls = T::other_calls;
    static constexpr auto markup_markers = T::markup_markers;

    // The openers (empty ones left out) and what each is: other + j is other_calls[j].
    static constexpr std::size_t primary = 0, bare = 1, array_start = 2, markup = 3, other = 4;
    static constexpr std::size_t max_table = other + other_calls.size() + markup_markers.size();
    struct opener_table {
        std::array<std::string_view, max_table> text{};
        std::array<std::size_t, max_table> role{};
        std::size_t size = 0;
        constexpr void add(std::string_view m, std::size_t r)
        {
            if (!m.empty()) {
                text[size] = m;
                role[size++] = r;
            }
        }
    };
    static constexpr opener_table table_ = [] {
        opener_table t;
        t.add(section ? section_open : call_open, primary);
        t.add(bare_call_open, bare);
        t.add(T::bare_array_at_start ? "[" : "", array_start);
        for (std::size_t j = 0; j < other_calls.size(); ++j)
            t.add(other_calls[j].open, other + j);
        for (const std::string_view m : markup_markers)
            t.add(m, markup);
        return t;
    }();
    static_assert(table_.size <= 8, "toolstream: a marker format has at most 8 openers");
    static constexpr std::span<const std::string_view> openers_{table_.text.data(), table_.size};
    // An opening must fit its markers and a short header (DeepSeek's are 27 bytes each).
    static constexpr std::size_t min_cap = 16 + [] {
        std::size_t n = std::max({call_open.size() + header_end.size(), section_open.size(), section_close.size(),
                                  call_close.size()});
        for (const call_markers& m : other_calls)
            n = std::max({n, m.open.size(), m.close.size()});
        for (const std::string_view m : markup_markers)
            n = std::max(n, m.size());
        return n;
    }();

    enum class phase { section, arguments, close, done };

    // A call opening at v[0]: its header from v[at] (after the opener; 0 for a bare opening), or
    // the first byte of the arguments. Not an opening: its first `text_size` bytes are text.
    opening_verdict read_opening(std::string_view v, std::size_t at, std::size_t text_size)
    {
        const std::string_view w = v.substr(0, cap_);
        if constexpr (!header_end.empty()) {
            const std::array<std::string_view, 3> ends{header_end, header_stops[0], header_stops[1]};
            const auto m = find_marker(w.substr(at), ends, ignore_case);
            if (m.marker == marker_match::npos)
                return w.size() < cap_ ? opening_verdict::more() : opening_verdict::text(text_size, true);
            header_ = T::read_header(w.substr(at, m.position));
            if (!header_ || header_->name.empty())
                return opening_verdict::text(text_size);
            // header_end is syntax; a stop (glm45's `<arg_key>` right after the name) is the arguments'.
            return opening_verdict::block(at + m.position + (m.marker == 0 ? header_end.size() : 0));
        } else {
            header_.reset();
            const std::size_t i = skip_blanks(w, at);
            if (i == w.size())
                return w.size() < cap_ ? opening_verdict::more() : opening_verdict::text(text_size, true);
            if constexpr (call_list == json_call_list::array) {   // `[`, blanks, then `{` or `]`
                const std::size_t j = w[i] == '[' ? skip_blanks(w, i + 1) : i;
                if (j == w.size())
                    return w.size() < cap_ ? opening_verdict::more() : opening_verdict::text(text_size, true);
                return j > i && (w[j] == '{' || w[j] == ']') ? opening_verdict::block(i) : opening_verdict::text(text_size);
            }
            if (kind != text_arguments::key_value && w[i] != '{')
                return opening_verdict::text(text_size);
            return opening_verdict::block(i);
        }
    }

    template<emitter W>
    void begin_call(block_context<W>& ctx)
    {
        phase_ = phase::arguments;
        const json_stop stop(close_.empty() ? call_open : close_);   // the marker after the call
        if constexpr (kind == text_arguments::json_call) {
            calls_.begin(call_list, stop, close_.empty(), T::call_keyed_by_name, T::call_name_key, T::call_needs_arguments);
            return;
        }
        ctx.call.begin_tool(header_->name, {}, header_->id, ctx.out);
        if constexpr (kind == text_arguments::json_object)
            object_.begin(ctx.call, stop);
        else if constexpr (kind == text_arguments::key_value)
            key_value_.begin(ctx.call, header_->name, schemas_.get(), cap_);
    }

    template<emitter W>
    bool arguments(block_context<W>& ctx)
    {
        bool progressed = false;
        bool finished = false;
        if constexpr (kind == text_arguments::json_call) {
            progressed = calls_.step(ctx, cap_);
            finished = calls_.done();
        } else if constexpr (kind == text_arguments::json_object) {
            progressed = object_.step(ctx);
            finished = object_.done();
        } else {
            progressed = key_value_.step(ctx, cap_);
            finished = key_value_.done();
        }
        if (!finished)
            return progressed;
        phase_ = phase::close;
        if (close_.empty())
            end_call(ctx);
        return true;
    }

    // Whether the arguments are complete at the end of the stream (key_value without parameters_close).
    template<emitter W>
    bool finalize_arguments(block_context<W>& ctx)
    {
        if constexpr (kind == text_arguments::key_value)
            return key_value_.finalize(ctx);
        else
            return kind == text_arguments::json_call ? calls_.finalize(ctx) : object_.finalize(ctx);
    }

    template<emitter W>
    void end_call(block_context<W>& ctx)
    {
        if constexpr (kind == text_arguments::json_call) {
            if (calls_.finished())
                calls_.end_finished(ctx);
        } else if constexpr (kind == text_arguments::json_object) {
            object_.end(ctx);
        } else {
            key_value_.end(ctx);
        }
        if (phase_ == phase::close)
            phase_ = section ? phase::section : phase::done;
    }

    // After the arguments: blanks, then the call's closing marker.
    template<emitter W>
    bool close(block_context<W>& ctx)
    {
        if (!close_.empty()) {
            const std::string_view v = ctx.view();
            std::size_t i = 0;
            while (i < v.size() && is_blank(v[i]) && i < cap_)
                ++i;
            const std::string_view rest = v.substr(i);
            const std::size_t n = scan::common_prefix(rest, close_, ignore_case);
            if (n == close_.size()) {
                ctx.take(i + n, byte_role::markup);
                end_call(ctx);
                return true;
            }
            if (n == rest.size() && i < cap_)
                return false;   // blanks or a prefix of call_close so far
        }
        // Something else follows: the call is over, and so is the block.
        end_call(ctx);
        phase_ = phase::done;
        return true;
    }

    // Between the calls of a section: blanks, call_open, section_close; anything else ends it.
    template<emitter W>
    bool between_calls(block_context<W>& ctx)
    {
        const std::string_view v = ctx.view();
        std::size_t i = 0;
        while (i < v.size() && is_blank(v[i]) && i < cap_)
            ++i;
        const std::string_view rest = v.substr(i);
        const std::size_t closing = scan::common_prefix(rest, section_close, ignore_case);
        if (!section_close.empty() && closing == section_close.size()) {
            ctx.take(i + closing, byte_role::markup);
            phase_ = phase::done;
            return true;
        }
        const std::size_t opening = scan::common_prefix(rest, call_open, ignore_case);
        if (opening == call_open.size()) {
            const opening_verdict verdict = read_opening(rest, call_open.size(), call_open.size());
            if (verdict.what == opening_verdict::kind::more)
                return false;
            if (verdict.what == opening_verdict::kind::block) {
                ctx.take(i + verdict.size, byte_role::markup);
                close_ = call_close;
                begin_call(ctx);
                return true;
            }
            if (verdict.too_long)
                ctx.out.report(error::marker_too_long);
        } else if ((opening == rest.size() || (closing == rest.size() && !section_close.empty())) && i < cap_) {
            return false;   // blanks or a marker prefix so far
        }
        ctx.take(i, byte_role::markup);
        phase_ = phase::done;   // what follows is text
        return true;
    }

    std::size_t cap_;
    call_frame_limits limits_;
    std::shared_ptr<const tool_schemas> schemas_;
    phase phase_ = phase::done;
    std::optional<call_header> header_;
    std::string_view close_;   // the open call's closing marker (empty: the arguments' end)
    bool at_start_ = true;     // no text or block yet (bare_array_at_start)
    bool markup_only_ = false; // the opening is one of markup_markers
    json_call_objects calls_;
    json_object_reader object_;
    struct no_key_values {};
    [[no_unique_address]] std::conditional_t<kind == text_arguments::key_value, key_value_reader<T>, no_key_values>
        key_value_;
};

} // namespace toolstream::detail
