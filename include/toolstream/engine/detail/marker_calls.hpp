// The block reader of formats made of markers: [section_open] (call_open [header header_end]
// arguments [call_close])* [section_close], the arguments a JSON call object, a JSON object or
// key/value parameters.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/engine/detail/json_call_block.hpp>
#include <toolstream/engine/detail/json_object_reader.hpp>
#include <toolstream/engine/detail/key_value_reader.hpp>
#include <toolstream/engine/detail/marker_scanner.hpp>
#include <toolstream/engine/format_reader.hpp>
#include <toolstream/engine/format_traits.hpp>
#include <toolstream/error.hpp>

#include <boost/json/object.hpp>

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

namespace toolstream::detail {

/// The members a marker format must declare, one static_assert each, so that the first error a
/// traits type missing one gives names it (rather than a use deep in marker_calls).
template<class T>
consteval bool marker_traits_checked()
{
    static_assert(requires { { T::call_open } -> std::convertible_to<std::string_view>; },
                  "toolstream: these format traits lack `call_open`: declare "
                  "`static constexpr std::string_view call_open = \"...\";`, the marker that opens a call "
                  "(or inherit `reader_format<R>` with a reader of their own)");
    static_assert(requires { { T::arguments } -> std::convertible_to<text_arguments>; },
                  "toolstream: these format traits lack `arguments`: declare `static constexpr text_arguments "
                  "arguments = text_arguments::json_call;` (or json_object, key_value), how a call's arguments "
                  "are written");
    if constexpr (requires { { T::arguments } -> std::convertible_to<text_arguments>; }) {
        if constexpr (T::arguments == text_arguments::key_value) {
            static_assert(requires { { T::parameter_open } -> std::convertible_to<std::string_view>; },
                          "toolstream: key_value format traits lack `parameter_open`: declare "
                          "`static constexpr std::string_view parameter_open = \"...\";`, the marker before a "
                          "parameter's name");
            static_assert(requires { { T::parameter_name_end } -> std::convertible_to<std::string_view>; },
                          "toolstream: key_value format traits lack `parameter_name_end`: declare "
                          "`static constexpr std::string_view parameter_name_end = \"...\";`, the marker after "
                          "a parameter's name");
            static_assert(requires { { T::value_close } -> std::convertible_to<std::string_view>; },
                          "toolstream: key_value format traits lack `value_close`: declare "
                          "`static constexpr std::string_view value_close = \"...\";`, the marker after a "
                          "parameter's value");
        }
    }
    return true;
}

/// Reads the blocks of a marker format `T` (see marker_format in format_traits.hpp). A block
/// is one call, or a section of calls (between calls only whitespace, which is syntax; anything
/// else ends the section and is text). A call:
/// - opens at `call_open`; with a `header_end`, the bytes up to it (within the hold cap) are the
///   header, which must give a tool name; without one, the first non-blank byte must start the
///   arguments (`{` for the JSON kinds): else the opener is text;
/// - a header's name picks the segment (a file tool streams its decoded body); a `json_call`
///   object's name does so when it comes before the arguments;
/// - ENDs after `call_close` (whitespace before it is syntax), or where the arguments end when
///   the format has no `call_close`. A stream that ends after complete arguments but before
///   `call_close` (a stop sequence stripped it) ENDs the call `complete`.
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
        else
            return 0;
    }

    opening_verdict open(std::size_t i, std::string_view v)
    {
        if constexpr (section)
            return opening_verdict::block(section_open.size());
        else
            return read_opening(v, i == 0 ? call_open.size() : 0);
    }

    template<class W>
    void begin(block_context<W>& ctx)
    {
        if constexpr (section)
            phase_ = phase::section;
        else
            begin_call(ctx);
    }

    template<class W>
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
    template<class W>
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
        json_.reset();
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
    static constexpr std::array<std::string_view, 2> all_openers_{section ? section_open : call_open, bare_call_open};
    static constexpr std::span<const std::string_view> openers_{all_openers_.data(), bare_call_open.empty() ? 1u : 2u};
    // An opening must fit its markers and a short header (DeepSeek's are 27 bytes each).
    static constexpr std::size_t min_cap = 16 + std::max({call_open.size() + header_end.size(), section_open.size(),
                                                          section_close.size(), call_close.size()});

    enum class phase { section, arguments, close, done };


    // A call opening at v[0]: its header from v[at] (after call_open; 0 for a bare opening), or
    // the first byte of the arguments.
    opening_verdict read_opening(std::string_view v, std::size_t at = call_open.size())
    {
        const std::string_view w = v.substr(0, cap_);
        if constexpr (!header_end.empty()) {
            const std::array<std::string_view, 3> ends{header_end, header_stops[0], header_stops[1]};
            const auto m = find_marker(w.substr(at), ends, ignore_case);
            if (m.marker == marker_match::npos)
                return w.size() < cap_ ? opening_verdict::more() : opening_verdict::text(at == 0 ? bare_call_open.size() : at, true);
            header_ = T::read_header(w.substr(at, m.position));
            if (!header_ || header_->name.empty())
                return opening_verdict::text(at == 0 ? bare_call_open.size() : at);
            // header_end is syntax; a stop (glm45's `<arg_key>` right after the name) is the arguments'.
            return opening_verdict::block(at + m.position + (m.marker == 0 ? header_end.size() : 0));
        } else {
            header_.reset();
            std::size_t i = at;
            while (i < w.size() && is_blank(w[i]))
                ++i;
            if (i == w.size())
                return w.size() < cap_ ? opening_verdict::more() : opening_verdict::text(at, true);
            if (kind != text_arguments::key_value && w[i] != '{')
                return opening_verdict::text(at);
            return opening_verdict::block(i);
        }
    }

    template<class W>
    void begin_call(block_context<W>& ctx)
    {
        phase_ = phase::arguments;
        if constexpr (kind == text_arguments::json_call) {
            json_.begin(json_call_layout::single, call_close.empty());
            started_ = false;
            return;
        }
        boost::json::object metadata;
        metadata["tool_name"] = header_->name;
        ctx.call.begin(segment_type_of_tool(header_->name), std::move(metadata), header_->id, false, ctx.out);
        if constexpr (kind == text_arguments::json_object)
            object_.begin(ctx.call);
        else if constexpr (kind == text_arguments::key_value)
            key_value_.begin(ctx.call, header_->name, schemas_.get(), cap_);
    }

    template<class W>
    bool arguments(block_context<W>& ctx)
    {
        bool progressed = false;
        bool finished = false;
        if constexpr (kind == text_arguments::json_call) {
            if (!started_) {   // blanks before the object are syntax
                const std::string_view v = ctx.view();
                std::size_t i = 0;
                while (i < v.size() && is_blank(v[i]))
                    ++i;
                ctx.take(i, byte_role::markup);
                if (ctx.buf.empty())
                    return i > 0;
                started_ = true;
                progressed = true;
            }
            progressed = json_.step(ctx) || progressed;
            finished = json_.done();
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
        if constexpr (call_close.empty())
            end_call(ctx);
        return true;
    }

    // Whether the arguments are complete at the end of the stream (key_value without parameters_close).
    template<class W>
    bool finalize_arguments(block_context<W>& ctx)
    {
        if constexpr (kind == text_arguments::key_value)
            return key_value_.finalize(ctx);
        else
            return false;
    }

    template<class W>
    void end_call(block_context<W>& ctx)
    {
        if constexpr (kind == text_arguments::json_call) {
            if (json_.finished())
                json_.end_finished(ctx);
        } else if constexpr (kind == text_arguments::json_object) {
            object_.end(ctx);
        } else {
            key_value_.end(ctx);
        }
        if (phase_ == phase::close)
            phase_ = section ? phase::section : phase::done;
    }

    // After the arguments: blanks, then call_close.
    template<class W>
    bool close(block_context<W>& ctx)
    {
        if constexpr (!call_close.empty()) {
            const std::string_view v = ctx.view();
            std::size_t i = 0;
            while (i < v.size() && is_blank(v[i]) && i < cap_)
                ++i;
            const std::string_view rest = v.substr(i);
            const std::size_t n = scan::common_prefix(rest, call_close, ignore_case);
            if (n == call_close.size()) {
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
    template<class W>
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
            const opening_verdict verdict = read_opening(rest);
            if (verdict.what == opening_verdict::kind::more)
                return false;
            if (verdict.what == opening_verdict::kind::block) {
                ctx.take(i + verdict.size, byte_role::markup);
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
    bool started_ = false;   // a json_call object has begun
    json_call_block json_;
    json_object_reader object_;
    struct no_key_values {};
    [[no_unique_address]] std::conditional_t<kind == text_arguments::key_value, key_value_reader<T>, no_key_values>
        key_value_;
};

} // namespace toolstream::detail
