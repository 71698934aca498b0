// A call's arguments written as key/value parameters with raw text values, as qwen3_coder, glm45
// and minimax_m2 write them.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/quoted_attribute.hpp>
#include <toolstream/error.hpp>
#include <toolstream/parse/engine/detail/parameter_value_end.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>
#include <toolstream/parse/raw_parameters.hpp>
#include <toolstream/tool_syntax.hpp>

#include <boost/json/serialize.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Reads `parameter_open NAME parameter_name_end [value_open] VALUE value_close`, repeated, up to
/// `parameters_close` (consumed) or the call's `call_close` (left for the caller). Values are
/// raw text, streamed as they come:
/// - a tool_call's content is the raw parameter text; its argument fragments are `{"NAME":"` +
///   the value escaped + `"`, `,"NEXT":"`…, and `}` at the end;
/// - a file or shell tool's content is its body parameter (`content`, `patch`, `command`); its
///   `path` and options are read whole (within the cap) into the metadata; the rest is syntax.
/// `strip_value_newline`: one line break after the name's end and one before value_close are
/// syntax. Bytes between parameters are the tool_call's raw text. `read_parameter_name(raw)`,
/// when the format has it, turns the raw name into the key (strip quotes...).
///
/// value_close ends a value as parameter_value_end says: otherwise it is a literal part of the
/// value (a file body may hold `</parameter>`).
///
/// With schemas, a tool_call's value whose property has a type other than a plain string (a
/// non-string, nullable or union type) is held (up to the cap) and its fragment `"KEY":VALUE`
/// goes out converted (convert_raw_parameter) when it closes; past the cap it streams as a
/// string (error::marker_too_long). With `T::decode_untyped_values`, or when its header's
/// `T::typed_value_attribute` says JSON, a value no schema types is held the same way and
/// JSON-decoded when it parses (decode_raw_parameter; past the cap a string, nothing reported).
/// Other values stream.
template<class T>
class key_value_reader {
public:
    /// A call named `tool` begins; `schemas` (may be null) type its values; `cap` bounds a held value.
    void begin(const call_frame& call, std::string_view tool, const tool_schemas* schemas, std::size_t cap)
    {
        phase_ = phase::between;
        any_ = false;
        typed_ = false;
        syntax_ = find_tool_syntax(call.type());
        tool_.assign(tool);
        schemas_ = schemas;
        cap_ = cap;
    }

    /// A typed value held until it closes.
    std::size_t held_bytes() const noexcept { return typed_ ? value_.size() : 0; }

    bool done() const noexcept { return phase_ == phase::done; }

    template<emitter W>
    bool step(block_context<W>& ctx, std::size_t cap)
    {
        switch (phase_) {
        case phase::between: return between(ctx);
        case phase::name: return name(ctx, cap);
        case phase::value_open: return value_open(ctx, cap);
        case phase::value: return value(ctx);
        case phase::done: break;
        }
        return false;
    }

    /// End of stream inside the parameters: a value_close that nothing contradicts closes its
    /// value; what else is held is what ordinary bytes would be there. Returns whether the
    /// parameters are complete: the format has no parameters_close (the call's close ends them)
    /// and only blanks follow the last value.
    template<emitter W>
    bool finalize(block_context<W>& ctx)
    {
        while (phase_ == phase::value && !ctx.view().empty()) {   // a close nothing contradicts closes the value
            const auto e = value_end::find(ctx.view(), true, line_start_);
            if (e.what == closing::no) {
                emit_value(ctx, e.position);
                continue;
            }
            close_value(ctx, e.position, e.marker);
        }
        while (phase_ == phase::between && !ctx.view().empty() && between(ctx)) {
        }
        if (phase_ == phase::done)
            return true;   // parameters_close came
        const std::string_view rest = ctx.view();
        const bool complete = parameters_close.empty() && phase_ == phase::between
            && all_blank(rest);
        if (phase_ == phase::value || phase_ == phase::value_open)
            emit_value(ctx, rest.size());
        else
            ctx.take(rest.size(), byte_role::call_text);
        phase_ = phase::done;
        return complete;
    }

    /// ENDs the call after its parameters closed.
    template<emitter W>
    void end(block_context<W>& ctx)
    {
        ctx.call.add(byte_role::argument, any_ ? "}" : "{}", ctx.out);
        ctx.call.end(ctx.out);
    }

    void reset() noexcept { phase_ = phase::done; }

private:
    enum class phase { between, name, value_open, value, done };
    enum class use { argument, body, metadata, ignored };
    using value_end = parameter_value_end<T>;
    using closing = typename value_end::closing;

    static constexpr std::string_view parameter_open = T::parameter_open;
    static constexpr std::string_view parameter_name_end = T::parameter_name_end;
    static constexpr std::string_view value_open_marker = T::value_open;
    static constexpr std::string_view value_close = T::value_close;
    static constexpr std::string_view parameters_close = T::parameters_close;
    static constexpr std::string_view end_marker = parameters_close.empty() ? T::call_close : parameters_close;
    static constexpr bool strip = T::strip_value_newline;
    static constexpr bool ignore_case = T::ignore_case;
    // A value no schema types is JSON-decoded when it parses (glm45, as vLLM reads it).
    static constexpr bool decode_untyped = T::decode_untyped_values;
    static constexpr value_type_attribute value_type = T::typed_value_attribute;
    static constexpr std::array<std::string_view, 2> between_marker_list{parameter_open, end_marker};
    static constexpr marker_set between_markers{between_marker_list, ignore_case};

    template<emitter W>
    bool between(block_context<W>& ctx)
    {
        const auto m = find_marker(ctx.view(), between_markers);
        ctx.take(m.position, byte_role::call_text);
        if (m.marker == marker_match::npos)
            return m.position > 0;
        if (m.marker == 1) {
            ctx.take(parameters_close.size(), byte_role::call_text);   // call_close is the caller's
            phase_ = phase::done;
            return true;
        }
        ctx.take(parameter_open.size(), byte_role::call_text);
        phase_ = phase::name;
        return true;
    }

    template<emitter W>
    bool name(block_context<W>& ctx, std::size_t cap)
    {
        const std::string_view w = ctx.view().substr(0, cap);
        const auto m = find_marker(w, {parameter_name_end}, ignore_case);
        if (m.marker == marker_match::npos) {
            if (w.size() < cap)
                return false;
            ctx.out.report(error::marker_too_long);   // not a parameter: its bytes are raw text
            ctx.take(w.size(), byte_role::call_text);
            phase_ = phase::between;
            return true;
        }
        const std::string_view header = w.substr(0, m.position);
        const std::string key = T::read_parameter_name(header);
        const bool json = written_as_json(header);
        ctx.take(m.position + parameter_name_end.size(), byte_role::call_text);
        route(key, json, ctx);
        phase_ = value_open_marker.empty() ? phase::value : phase::value_open;
        at_value_start_ = true;
        return true;
    }

    // Blanks, then value_open; anything else starts the value itself.
    template<emitter W>
    bool value_open(block_context<W>& ctx, std::size_t cap)
    {
        const std::string_view v = ctx.view();
        std::size_t i = 0;
        while (i < v.size() && i < cap && is_blank(v[i]))
            ++i;
        const std::string_view rest = v.substr(i);
        const std::size_t n = scan::common_prefix(rest, value_open_marker, ignore_case);
        if (n == value_open_marker.size()) {
            ctx.take(i + n, byte_role::call_text);
            phase_ = phase::value;
            return true;
        }
        if (n == rest.size() && i < cap)
            return false;
        phase_ = phase::value;
        return true;
    }

    // The per-byte path of a streamed value. Forced inline: GCC otherwise keeps it out of line in
    // a large translation unit (one holding `auto`'s every format), and a call per feed then costs
    // about 20 instructions, most of what `auto` would add after its decision at 1-byte feeds.
    template<emitter W>
    [[gnu::always_inline]] bool value(block_context<W>& ctx)
    {
        std::string_view v = ctx.view();
        if (strip && at_value_start_) {
            if (v.empty())
                return false;
            at_value_start_ = false;
            if (v[0] == '\n') {
                line_start_ = true;
                ctx.take(1, byte_role::call_text);
                return true;
            }
        }
        at_value_start_ = false;
        const auto e = value_end::find(v, false, line_start_);
        switch (e.what) {
        case closing::no: emit_value(ctx, e.position); return true;   // a literal marker: part of the value
        case closing::past_lookahead: ctx.out.report(error::marker_too_long); [[fallthrough]];
        case closing::yes: close_value(ctx, e.position, e.marker); return true;
        case closing::more: break;
        }
        std::size_t end = e.position;
        if (strip && end > 0 && v[end - 1] == '\n')
            --end;   // possibly the line break before a close: held
        emit_value(ctx, end);
        return end > 0;
    }

    // The value ends at `at`, where its value_close (`marker` bytes, 0 when it is missing) begins.
    template<emitter W>
    void close_value(block_context<W>& ctx, std::size_t at, std::size_t marker)
    {
        std::size_t end = at;
        if (strip && end > 0 && ctx.view()[end - 1] == '\n')
            --end;   // the line break before value_close is syntax
        emit_value(ctx, end);
        ctx.take(at - end + marker, byte_role::call_text);
        finish_value(ctx);
        phase_ = phase::between;
    }

    // Whether a parameter's header marks its value as JSON (typed_value_attribute).
    static bool written_as_json(std::string_view header) noexcept
    {
        if constexpr (value_type.name.empty()) {
            return false;
        } else {
            const auto written = quoted_attribute(header, value_type.name);
            return written && *written != value_type.raw_string;
        }
    }

    // Routes the value of `key` (`json`: its header marks it JSON), and opens its argument fragment.
    template<emitter W>
    void route(std::string_view key, bool json, block_context<W>& ctx)
    {
        value_.clear();
        line_start_ = false;
        use_ = use::argument;
        if (!any_ && ctx.call.shape_pending())   // the first parameter shows the tool's shape
            syntax_ = ctx.call.member(key, ctx.out);
        if (syntax_ != nullptr) {
            use_ = key == syntax_->content_argument ? use::body : use::ignored;
            if (key == syntax_->required_metadata || key == syntax_->extra_metadata[0]
                || key == syntax_->extra_metadata[1])
                use_ = use::metadata;
        }
        key_ = key;
        scratch_.assign(any_ ? "," : "{");
        any_ = true;
        append_json_string(scratch_, key);
        scratch_.push_back(':');
        const raw_type type = raw_type_of(schemas_ != nullptr ? schemas_->property(tool_, key) : nullptr);
        decode_ = use_ == use::argument && (decode_untyped || json) && type.count == 0 && !type.nullable;
        typed_ = use_ == use::argument && (decode_ || !type.is_plain_string());
        if (typed_)
            return;   // the fragment waits for the converted value
        scratch_.push_back('"');
        ctx.call.add(byte_role::argument, scratch_, ctx.out);
    }

    template<emitter W>
    void emit_value(block_context<W>& ctx, std::size_t n)
    {
        const std::string_view bytes = ctx.view().substr(0, n);
        if (n > 0)
            line_start_ = bytes.back() == '\n';
        switch (use_) {
        case use::body: ctx.take(n, byte_role::content); return;
        case use::metadata: value_.append(bytes.substr(0, value_.size() < 4096 ? 4096 - value_.size() : 0)); break;
        case use::argument:
        case use::ignored: break;
        }
        if (typed_ && value_.size() + n <= cap_) {
            value_.append(bytes);
            ctx.take(n, byte_role::call_text);
            return;
        }
        if (typed_) {   // past the cap: the held value streams as a string from here
            if (!decode_)
                ctx.out.report(error::marker_too_long);
            typed_ = false;
            scratch_.push_back('"');
            append_json_escaped(scratch_, value_);
        } else {
            scratch_.clear();
        }
        append_json_escaped(scratch_, bytes);
        ctx.take(n, byte_role::call_text);
        ctx.call.add(byte_role::argument, scratch_, ctx.out);
    }

    template<emitter W>
    void finish_value(block_context<W>& ctx)
    {
        if (typed_) {
            scratch_ += boost::json::serialize(decode_ ? decode_raw_parameter(value_) : schemas_->convert(tool_, key_, value_));
            ctx.call.add(byte_role::argument, scratch_, ctx.out);
            typed_ = false;
        } else {
            ctx.call.add(byte_role::argument, "\"", ctx.out);
        }
        if (use_ != use::metadata)
            return;
        const bool extra = syntax_ != nullptr && key_ != syntax_->required_metadata;
        ctx.call.set(key_, extra && schemas_ != nullptr ? schemas_->convert(tool_, key_, value_) : boost::json::value(value_),
                     ctx.out);
    }


    phase phase_ = phase::done;
    use use_ = use::argument;
    const tool_syntax* syntax_ = nullptr;
    bool any_ = false;             // a parameter was read (the fragments opened with `{`)
    bool typed_ = false;           // the value is held in value_ for its schema type; scratch_ holds `"KEY":`
    bool decode_ = false;          // typed_ without a type: JSON-decoded when it parses
    const tool_schemas* schemas_ = nullptr;
    std::string tool_;
    std::size_t cap_ = 4096;
    bool at_value_start_ = false;
    bool line_start_ = false;      // the value's bytes so far end a line (or its line break was stripped)
    std::string key_;
    std::string value_;            // a metadata value, or a typed value, being read
    std::string scratch_;          // a fragment being built
};

} // namespace toolstream::detail
