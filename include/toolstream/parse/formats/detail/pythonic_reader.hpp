// The block reader of the Python-call-syntax formats (pythonic, llama4_pythonic, olmo3, lfm2):
// calls written as `NAME(KEY=VALUE, …)`, their keyword arguments converted to JSON as they stream.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/python_values.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>
#include <toolstream/parse/formats/detail/python_block_source.hpp>
#include <toolstream/parse/formats/detail/python_calls.hpp>
#include <toolstream/tool_syntax.hpp>

#include <boost/json/parse.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream::detail {

/// Reads the calls of a format whose `Syntax` (static members) says how they are grouped:
/// - `bracketed`: the calls are a Python list, `[CALL, CALL]` (`,` between them); otherwise they
///   follow one another (a line break between them, a `,` allowed) up to `wrapper_close`;
/// - `wrapper_open` / `wrapper_close`: markers around the calls (empty: none); with `bare_list`,
///   a bracketed list opens calls without the wrapper too.
/// A block opens where the first call starts `NAME(` then `)` or `KEY=` (blanks anywhere between,
/// NAME dotted: `a.b`): anything else (prose in brackets, a positional first argument, as vLLM's
/// pattern wants keyword arguments) is text. A call is a tool_call whose arguments stream as
/// the JSON object `{"KEY":VALUE,…}` (python_value_reader); `write_file` / `patch_file` /
/// `run_bash` stream their decoded body, with `path` and their options as metadata. Invalid
/// syntax inside a call ENDs it `invalid_arguments` at its closing `)` (found by bracket and
/// quote depth), and the calls after it are read; the stream ending inside a call ENDs it
/// `incomplete`. After the last call, anything but a separator, the list's `]` or the closing
/// wrapper ends the block, and the rest is text.
template<class Syntax>
class pythonic_reader {
public:
    /// File bodies are decoded out of string literals.
    static constexpr bool decodes_file_bodies = true;

    explicit pythonic_reader(const text_format_options& o)
        : cap_(std::max<std::size_t>(o.max_held, 16)), limits_{cap_, o.max_held_body}
    {
    }

    std::span<const std::string_view> openers() const noexcept
    {
        return std::span<const std::string_view>(openers_).first(opener_count);
    }
    call_frame_limits limits() const noexcept { return limits_; }
    bool done() const noexcept { return phase_ == phase::done; }
    std::size_t held_bytes() const noexcept { return values_.held_bytes() + value_.size(); }

    opening_verdict open(std::size_t opener, std::string_view v)
    {
        const std::string_view w = v.substr(0, cap_);
        const std::size_t at = openers_[opener].size();
        const auto more = [&] { return w.size() < cap_ ? opening_verdict::more() : opening_verdict::text(at, true); };
        wrapped_ = openers_[opener] != "[";
        std::size_t i = skip_blanks(w, at);
        if (wrapped_ && bracketed) {   // the wrapper, then the list
            if (i == w.size())
                return more();
            if (w[i] != '[')
                return opening_verdict::text(at);
            i = skip_blanks(w, i + 1);
        }
        if (i == w.size())
            return more();
        if (!bracketed) {   // no call at all: `<function_calls></function_calls>`
            const std::size_t n = scan::common_prefix(w.substr(i), wrapper_close, false);
            if (n == wrapper_close.size())
                return opening_verdict::block(i);
            if (i + n == w.size())
                return more();
        }
        switch (python_call_start(w, i, true).what) {
        case opening_verdict::kind::block: return opening_verdict::block(i);
        case opening_verdict::kind::more: return more();
        case opening_verdict::kind::text: break;
        }
        return opening_verdict::text(at);
    }

    template<emitter W>
    void begin(block_context<W>&)
    {
        phase_ = phase::call;
    }

    template<emitter W>
    bool step(block_context<W>& ctx)
    {
        switch (phase_) {
        case phase::call: return start_call(ctx);
        case phase::arguments: return arguments(ctx);
        case phase::skip: return skip(ctx);
        case phase::between: return between(ctx);
        case phase::close: return close(ctx);
        case phase::done: break;
        }
        return false;
    }

    /// End of stream: inside a call, what is held is the call's (the engine ENDs it
    /// `incomplete`, or it ENDs `invalid_arguments` when its syntax had already failed); between
    /// calls it is left to be text.
    template<emitter W>
    void finalize(block_context<W>& ctx)
    {
        if (phase_ == phase::arguments || phase_ == phase::skip)
            take_call_text(ctx, ctx.view().size());
        if (phase_ == phase::skip)
            ctx.call.end(ctx.out, segment_status::invalid_arguments, error_);
        reset();
    }

    void reset() noexcept
    {
        phase_ = phase::done;
        values_.reset();
        value_.clear();
        error_.clear();
    }

private:
    enum class phase { call, arguments, skip, between, close, done };
    enum class arg { name_or_close, equals, value, after };
    enum class use { argument, body, metadata, ignored };

    static constexpr bool bracketed = Syntax::bracketed;
    static constexpr std::string_view wrapper_open = Syntax::wrapper_open;
    static constexpr std::string_view wrapper_close = Syntax::wrapper_close;
    static constexpr std::size_t opener_count = wrapper_open.empty() || !Syntax::bare_list ? 1 : 2;
    static constexpr std::array<std::string_view, 2> openers_{wrapper_open.empty() ? std::string_view("[") : wrapper_open,
                                                              std::string_view("[")};
    static constexpr std::size_t max_metadata = 4096;

    template<emitter W>
    bool start_call(block_context<W>& ctx)
    {
        const std::string_view w = ctx.view().substr(0, cap_);
        const python_call_head head = python_call_start(w, 0, false);
        if (head.what != opening_verdict::kind::block)
            return false;   // `between` saw the whole head: not reached
        ctx.call.begin_tool(w.substr(0, head.name_end), {}, {}, ctx.out);
        syntax_ = find_tool_syntax(ctx.call.type());   // none while the shape waits for the first keyword
        take_call_text(ctx, head.paren_end);
        any_ = body_seen_ = false;
        arg_ = arg::name_or_close;
        phase_ = phase::arguments;
        return true;
    }

    template<emitter W>
    bool arguments(block_context<W>& ctx)
    {
        for (;;) {
            if (arg_ == arg::value) {
                python_block_source<W> source(ctx);
                const auto s = values_.step(source);
                deliver(ctx);
                if (s == python_value_reader::status::more)
                    return false;
                if (s == python_value_reader::status::failed)
                    return fail(values_.error(), values_.open_quote(), values_.open_triple(), values_.depth());
                finish_argument(ctx);
                arg_ = arg::after;
                continue;
            }
            const std::string_view v = ctx.view();
            const std::size_t i = skip_blanks(v, 0);
            take_call_text(ctx, i);
            if (i == v.size())
                return false;
            const std::string_view rest = ctx.view();
            const char c = rest[0];
            if ((arg_ == arg::name_or_close || arg_ == arg::after) && c == ')') {
                end_call(ctx);
                return true;
            }
            switch (arg_) {
            case arg::name_or_close: {
                if (!python_name_start(c))
                    return fail(std::string(c == '*' ? "argument unpacking (* and **) is not supported" : positional));
                std::size_t n = 0;
                while (n < rest.size() && n < cap_ && python_name_char(rest[n]))
                    ++n;
                if (n == cap_)   // whatever the chunking
                    return fail("a keyword longer than max_held");
                if (n == rest.size())
                    return false;
                key_.assign(rest.substr(0, n));
                take_call_text(ctx, n);
                arg_ = arg::equals;
                continue;
            }
            case arg::equals:
                if (c != '=')
                    return fail(positional);
                if (rest.size() < 2)
                    return false;
                if (rest[1] == '=')
                    return fail(positional);
                take_call_text(ctx, 1);
                if (!begin_value(ctx))
                    return true;
                continue;
            case arg::after:
                if (c != ',')
                    return fail(std::string("unexpected '") + c + "' after a keyword argument: expected ',' or ')'");
                take_call_text(ctx, 1);
                arg_ = arg::name_or_close;
                continue;
            case arg::value: break;
            }
        }
    }

    static constexpr const char* positional
        = "positional arguments are not supported (vLLM's pythonic parsers read keyword arguments only)";

    // Routes the value of key_; false when it failed.
    template<emitter W>
    bool begin_value(block_context<W>& ctx)
    {
        if (!any_ && ctx.call.shape_pending())   // the first keyword shows the tool's shape
            syntax_ = ctx.call.member(key_, ctx.out);
        use_ = use::argument;
        if (syntax_ != nullptr) {
            use_ = key_ == syntax_->content_argument ? use::body : use::ignored;
            if (key_ == syntax_->required_metadata || key_ == syntax_->extra_metadata[0] || key_ == syntax_->extra_metadata[1])
                use_ = use::metadata;
            if (use_ == use::body && std::exchange(body_seen_, true))
                return !fail("keyword argument '" + key_ + "' repeated");
        } else {
            std::string head = any_ ? "," : "{";
            append_json_string(head, key_);
            head += ':';
            ctx.call.add(byte_role::argument, head, ctx.out);
        }
        any_ = true;
        value_.clear();
        overflow_ = false;
        values_.begin(use_ == use::body, cap_);
        arg_ = arg::value;
        return true;
    }

    // The JSON the value reader made goes where the value is used.
    template<emitter W>
    void deliver(block_context<W>& ctx)
    {
        std::string& json = values_.json();
        if (json.empty())
            return;
        if (use_ == use::argument)
            ctx.call.add(byte_role::argument, json, ctx.out);
        else if (use_ == use::metadata && value_.size() + json.size() <= max_metadata)
            value_ += json;
        else if (use_ == use::metadata)
            overflow_ = true;
        json.clear();
    }

    // A file tool's path (a string) and options (booleans and numbers) go to the metadata.
    template<emitter W>
    void finish_argument(block_context<W>& ctx)
    {
        if (use_ != use::metadata || overflow_)
            return;
        error_code ec;
        boost::json::value v = boost::json::parse(value_, ec);
        const bool path = key_ == syntax_->required_metadata;
        if (!ec && (path ? v.is_string() : (v.is_bool() || v.is_number())))
            ctx.call.set(key_, std::move(v), ctx.out);
        value_.clear();
    }

    template<emitter W>
    void end_call(block_context<W>& ctx)
    {
        take_call_text(ctx, 1);
        if (syntax_ == nullptr)
            ctx.call.add(byte_role::argument, any_ ? "}" : "{}", ctx.out);
        ctx.call.end(ctx.out);
        phase_ = phase::between;
    }

    // Invalid syntax: the call's bytes are skipped to its closing `)` (by bracket and quote depth
    // from where the reading stopped), where it ENDs invalid_arguments.
    bool fail(std::string why, char quote = 0, bool triple = false, std::size_t depth = 0)
    {
        error_ = std::move(why);
        skipper_.begin(quote, triple, depth);
        values_.reset();
        value_.clear();
        phase_ = phase::skip;
        return true;
    }

    template<emitter W>
    bool skip(block_context<W>& ctx)
    {
        const auto [read, end] = skipper_.scan(ctx.view(), bracketed, bracketed ? std::string_view() : wrapper_close);
        take_call_text(ctx, read);
        if (!end)
            return false;
        ctx.call.end(ctx.out, segment_status::invalid_arguments, error_);
        phase_ = phase::between;
        return true;
    }

    // After a call: a separator and the next call, the list's end, or the end of the block.
    template<emitter W>
    bool between(block_context<W>& ctx)
    {
        const std::string_view w = ctx.view().substr(0, cap_);
        const auto undecided = [&] {
            if (w.size() < cap_)
                return false;
            phase_ = phase::done;
            return true;
        };
        std::size_t i = skip_blanks(w, 0);
        if (i < w.size() && w[i] == ',')
            i = skip_blanks(w, i + 1);
        if (i == w.size())
            return undecided();
        if (bracketed && w[i] == ']') {
            ctx.take(i + 1, byte_role::markup);
            phase_ = wrapped_ && !wrapper_close.empty() ? phase::close : phase::done;
            return true;
        }
        if (!bracketed) {
            const std::size_t n = scan::common_prefix(w.substr(i), wrapper_close, false);
            if (n == wrapper_close.size()) {
                ctx.take(i + n, byte_role::markup);
                phase_ = phase::done;
                return true;
            }
            if (i + n == w.size())
                return undecided();
        }
        const bool comma = w.find(',', 0) < i;
        switch (python_call_start(w, i, false).what) {
        case opening_verdict::kind::more: return undecided();
        case opening_verdict::kind::block:
            if (comma || !bracketed) {
                ctx.take(i, byte_role::markup);
                phase_ = phase::call;
                return true;
            }
            break;
        case opening_verdict::kind::text: break;
        }
        phase_ = phase::done;   // the rest is text
        return true;
    }

    // After the list of a wrapped block: blanks and the closing wrapper, if it comes.
    template<emitter W>
    bool close(block_context<W>& ctx)
    {
        const std::string_view w = ctx.view().substr(0, cap_);
        const std::size_t i = skip_blanks(w, 0);
        const std::size_t n = scan::common_prefix(w.substr(i), wrapper_close, false);
        if (n == wrapper_close.size())
            ctx.take(i + n, byte_role::markup);
        else if (i + n == w.size() && w.size() < cap_)
            return false;
        phase_ = phase::done;
        return true;
    }

    std::size_t cap_;
    call_frame_limits limits_;
    phase phase_ = phase::done;
    arg arg_ = arg::name_or_close;
    use use_ = use::argument;
    bool wrapped_ = false;         // the block opened with wrapper_open
    const tool_syntax* syntax_ = nullptr;   // the call's file or shell tool, if it is one
    bool any_ = false;             // a keyword argument was read
    bool body_seen_ = false;
    std::string key_;
    python_value_reader values_;
    std::string value_;            // a metadata value's JSON
    bool overflow_ = false;        // ... past max_metadata
    std::string error_;            // why the call is invalid
    python_call_skipper skipper_;
};

} // namespace toolstream::detail
