// A call's arguments written as key/value parameters with raw text values, as qwen3_coder, glm45
// and minimax_m2 write them.
#pragma once

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/error.hpp>
#include <toolstream/policies/detail/block_context.hpp>
#include <toolstream/policies/detail/traits_members.hpp>
#include <toolstream/tool_syntax.hpp>

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
/// syntax. `value_close_lookahead`: value_close ends the value only when blanks and then
/// parameter_open or the closing marker follow it, so a value may hold `</parameter>` itself;
/// the blanks are looked at up to the cap, past which the marker is value (error::marker_too_long
/// reported). Bytes between parameters are the tool_call's raw text. `read_parameter_name(raw)`,
/// when the format has it, turns the raw name into the key (strip quotes...).
template<class T>
class key_value_reader {
public:
    void begin(const call_frame& call)
    {
        phase_ = phase::between;
        any_ = false;
        syntax_ = find_tool_syntax(call.type());
    }

    bool done() const noexcept { return phase_ == phase::done; }

    template<class W>
    bool step(block_context<W>& ctx, std::size_t cap)
    {
        switch (phase_) {
        case phase::between: return between(ctx);
        case phase::name: return name(ctx, cap);
        case phase::value_open: return value_open(ctx, cap);
        case phase::value: return value(ctx);
        case phase::value_end: return value_end(ctx, cap);
        case phase::done: break;
        }
        return false;
    }

    /// End of stream inside the parameters: what is held is what ordinary bytes would be there.
    template<class W>
    void finalize(block_context<W>& ctx)
    {
        if (phase_ == phase::value || phase_ == phase::value_open || phase_ == phase::value_end)
            emit_value(ctx, ctx.view().size());
        else
            ctx.take(ctx.view().size(), byte_role::call_text);
        phase_ = phase::done;
    }

    /// ENDs the call after its parameters closed.
    template<class W>
    void end(block_context<W>& ctx)
    {
        if (any_)
            ctx.call.add(byte_role::argument, "}", ctx.out);
        ctx.call.end(ctx.out);
    }

    void reset() noexcept { phase_ = phase::done; }

private:
    enum class phase { between, name, value_open, value, value_end, done };
    enum class use { argument, body, metadata, ignored };

    static constexpr std::string_view parameter_open = T::parameter_open;
    static constexpr std::string_view parameter_name_end = T::parameter_name_end;
    static constexpr std::string_view value_open_marker = value_open_of<T>();
    static constexpr std::string_view value_close = T::value_close;
    static constexpr std::string_view parameters_close = parameters_close_of<T>();
    static constexpr std::string_view end_marker = parameters_close.empty() ? call_close_of<T>() : parameters_close;
    static constexpr bool strip = strip_value_newline_of<T>();
    static constexpr bool lookahead = value_close_lookahead_of<T>();
    static constexpr std::array<std::string_view, 2> between_markers_{parameter_open, end_marker};
    static constexpr marker_set between_set_{between_markers_, ignore_case_of<T>()};
    static constexpr std::array<std::string_view, 1> value_markers_{value_close};
    static constexpr marker_set value_set_{value_markers_, ignore_case_of<T>()};
    static constexpr bool ignore_case = ignore_case_of<T>();

    template<class W>
    bool between(block_context<W>& ctx)
    {
        const auto m = find_marker(ctx.view(), between_set_);
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

    template<class W>
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
        std::string key;
        if constexpr (requires { T::read_parameter_name(w); })
            key = T::read_parameter_name(w.substr(0, m.position));
        else
            key = trim(w.substr(0, m.position));
        ctx.take(m.position + parameter_name_end.size(), byte_role::call_text);
        route(key, ctx);
        phase_ = value_open_marker.empty() ? phase::value : phase::value_open;
        at_value_start_ = true;
        return true;
    }

    // Blanks, then value_open; anything else starts the value itself.
    template<class W>
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

    template<class W>
    bool value(block_context<W>& ctx)
    {
        std::string_view v = ctx.view();
        if (strip && at_value_start_) {
            if (v.empty())
                return false;
            at_value_start_ = false;
            if (v[0] == '\n') {
                ctx.take(1, byte_role::call_text);
                return true;
            }
        }
        at_value_start_ = false;
        const auto m = find_marker(v, value_set_);
        std::size_t end = m.position;
        if (strip && end > 0 && v[end - 1] == '\n')
            --end;   // possibly the line break before value_close: held
        emit_value(ctx, end);
        if (m.marker == marker_match::npos)
            return end > 0;
        closer_ = m.position - end + value_close.size();   // [line break] value_close
        if (lookahead) {
            phase_ = phase::value_end;
            hint_ = closer_;
            return true;
        }
        close_value(ctx);
        return true;
    }

    // After value_close: blanks, then parameter_open or the closing marker confirm it.
    template<class W>
    bool value_end(block_context<W>& ctx, std::size_t cap)
    {
        const std::string_view v = ctx.view();
        std::size_t i = hint_;
        while (i < v.size() && i - closer_ < cap && is_blank(v[i]))
            ++i;
        hint_ = i;
        const std::string_view rest = v.substr(i);
        bool maybe = false;
        for (std::string_view marker : {parameter_open, end_marker}) {
            const std::size_t n = scan::common_prefix(rest, marker, ignore_case);
            if (n == marker.size()) {
                close_value(ctx);
                return true;
            }
            maybe = maybe || n == rest.size();
        }
        const bool past_cap = i - closer_ >= cap;
        if (maybe && !past_cap)
            return false;
        if (past_cap)
            ctx.out.report(error::marker_too_long);
        emit_value(ctx, closer_);   // not the end: the marker is part of the value
        phase_ = phase::value;
        return true;
    }

    template<class W>
    void close_value(block_context<W>& ctx)
    {
        ctx.take(closer_, byte_role::call_text);
        finish_value(ctx);
        phase_ = phase::between;
    }

    // Routes the value of `key`, and opens its argument fragment.
    template<class W>
    void route(std::string_view key, block_context<W>& ctx)
    {
        value_.clear();
        use_ = use::argument;
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
        scratch_.append(":\"");
        ctx.call.add(byte_role::argument, scratch_, ctx.out);
    }

    template<class W>
    void emit_value(block_context<W>& ctx, std::size_t n)
    {
        const std::string_view bytes = ctx.view().substr(0, n);
        switch (use_) {
        case use::body: ctx.take(n, byte_role::content); return;
        case use::metadata: value_.append(bytes.substr(0, value_.size() < 4096 ? 4096 - value_.size() : 0)); break;
        case use::argument:
        case use::ignored: break;
        }
        scratch_.clear();
        append_json_escaped(scratch_, bytes);
        ctx.take(n, byte_role::call_text);
        ctx.call.add(byte_role::argument, scratch_, ctx.out);
    }

    template<class W>
    void finish_value(block_context<W>& ctx)
    {
        ctx.call.add(byte_role::argument, "\"", ctx.out);
        if (use_ == use::metadata)
            ctx.call.set(key_, boost::json::value(value_), ctx.out);
    }

    static bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

    static std::string trim(std::string_view s)
    {
        const auto first = s.find_first_not_of(" \t\r\n");
        if (first == std::string_view::npos)
            return {};
        return std::string(s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1));
    }

    phase phase_ = phase::done;
    use use_ = use::argument;
    const tool_syntax* syntax_ = nullptr;
    bool any_ = false;             // a parameter was read (the fragments opened with `{`)
    bool at_value_start_ = false;
    std::size_t closer_ = 0;       // bytes of a held value_close (and the line break before it)
    std::size_t hint_ = 0;         // how far the lookahead after it was read
    std::string key_;
    std::string value_;            // a metadata value being read
    std::string scratch_;          // a fragment being built
};

} // namespace toolstream::detail
