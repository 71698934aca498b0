// The arguments of a Gemma tool call (parse/formats/detail/gemma4_reader.hpp), a serialisation that is
// not JSON, written out as JSON argument fragments while they are read.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/parse_json.hpp>
#include <toolstream/detail/utf8.hpp>
#include <toolstream/error.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/formats/detail/gemma4_values.hpp>
#include <toolstream/tool_syntax.hpp>

#include <boost/json/value.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream::detail {

/// Reads `{key:value,…}`, strings between two `Markers::string_delimiter`s, as vLLM's gemma4 parser
/// does. A key is bare (up to `:`) or delimited; a value is a string, object, array, or a bare
/// scalar up to `,` `}` `]` or `<`. Blanks between tokens and a trailing comma are allowed; `key:}`
/// is "". Where vLLM's functiongemma parser reads otherwise, so do `Markers`' flags:
/// `strings_read_as_json` (a delimited value that parses as JSON is that value: `<escape>42<escape>`
/// is 42) and `!pairs_need_commas` (`a:<escape>x<escape>b:…` is two members).
/// - A tool_call's content is the raw text; its argument fragments are written as each token is
///   read: a string streams escaped as it comes (a split delimiter holds only its prefix, a split
///   UTF-8 character its first bytes); a key or scalar (at most `cap` bytes) when it ends.
/// - A file or shell tool's body is the raw text of its content string; `path` and the tool's
///   options (its own members) are its metadata; every other byte is syntax.
template<class Markers>
class gemma4_arguments : public gemma_token_reader {
    static constexpr std::string_view Delimiter = Markers::string_delimiter;

public:
    /// The arguments of `call` begin at their `{`; `cap` bounds a key or scalar.
    void begin(const call_frame& call, std::size_t cap)
    {
        syntax_ = find_tool_syntax(call.type());
        use_ = syntax_ != nullptr ? use::ignored : use::argument;
        phase_ = phase::value;
        restart(cap);
        reset();
    }

    std::size_t held_bytes() const noexcept { return token_.size() + metadata_.size(); }

    void reset() noexcept
    {
        levels_.clear();
        token_.clear();
        metadata_.clear();   // capacities kept: a call's tokens are small
    }

    /// Reads on while the outcome is `reading`; false when it needs more input.
    template<emitter W>
    bool step(block_context<W>& ctx)
    {
        switch (phase_) {
        case phase::key: return key(ctx);
        case phase::bare_key:
        case phase::scalar: return bare(ctx);
        case phase::quoted_key: return quoted_key(ctx);
        case phase::colon: return colon(ctx);
        case phase::value: return value(ctx);
        case phase::string: return string(ctx);
        case phase::held_string: return held_string(ctx);
        case phase::separator: return separator(ctx);
        }
        return false;
    }

    /// End of stream: the rest is the open string's text, else call text.
    template<emitter W>
    void finalize(block_context<W>& ctx)
    {
        if (phase_ == phase::held_string)
            open_string(ctx);
        if (phase_ == phase::string)
            return string_piece(ctx, ctx.view().size());
        ctx.take(ctx.view().size(), byte_role::call_text);
    }

private:
    enum class phase { key, bare_key, quoted_key, colon, value, string, held_string, scalar, separator };
    enum class use { argument, body, metadata, ignored };   // what a value's text is for
    struct level {
        bool array;   // an array, else an object
        bool any;     // an element or member was written
    };
    static constexpr std::size_t max_depth = 64;
    static constexpr std::size_t max_metadata = 4096;
    // Bytes that end a bare key or scalar (`<` may start a marker).
    static constexpr std::string_view structural = "{}[],:<";

    // A generated argument fragment: only a tool_call has them.
    template<emitter W>
    void emit(block_context<W>& ctx, std::string_view json)
    {
        if (syntax_ == nullptr)
            ctx.call.add(byte_role::argument, json, ctx.out);
    }

    // `,` before an array's next element.
    std::string_view element_prefix() noexcept
    {
        if (levels_.empty() || !levels_.back().array)
            return {};
        return std::exchange(levels_.back().any, true) ? "," : "";
    }

    template<emitter W>
    bool key(block_context<W>& ctx)
    {
        if (!take_call_blanks(ctx))
            return true;
        const std::string_view v = ctx.view();
        token_.clear();
        if (v[0] == '}')
            return close_level(ctx);   // `{}`, or a trailing comma
        switch (front_of(v, Delimiter)) {
        case marker_front::maybe: return false;
        case marker_front::yes:
            ctx.take(Delimiter.size(), byte_role::call_text);
            phase_ = phase::quoted_key;
            return true;
        case marker_front::no: break;
        }
        if (structural.find(v[0]) != std::string_view::npos)
            return invalid("expected a key");
        phase_ = phase::bare_key;
        return true;
    }

    // A bare key (up to `:`) or scalar (up to `,` `}` `]`): at most cap_ bytes, whatever the chunking.
    template<emitter W>
    bool bare(block_context<W>& ctx)
    {
        const std::string_view v = ctx.view();
        const std::size_t end = std::min(v.find_first_of(structural), v.size());
        const bool ended = end < v.size();
        const bool is_key = phase_ == phase::bare_key;
        const char stop = ended ? v[end] : ':';
        if (!read_token(ctx, end))
            return invalid(is_key ? "a key longer than max_held" : "a value longer than max_held");
        if (!ended)
            return true;
        const std::string_view text = trim_blanks(token_);
        if (!is_key) {
            scratch_.assign(element_prefix());
            append_gemma_scalar(scratch_, text);
            finish_value(ctx, scratch_, text, false);
            return true;
        }
        if (stop != ':' || text.empty())
            return invalid("expected a key and ':'");
        ctx.take(1, byte_role::call_text);
        return begin_member(ctx, text);
    }

    template<emitter W>
    bool quoted_key(block_context<W>& ctx)
    {
        const auto m = find_marker(ctx.view(), {Delimiter}, false);
        if (!read_token(ctx, m.position))
            return invalid("a key longer than max_held");
        if (m.marker == marker_match::npos)
            return m.position > 0;
        ctx.take(Delimiter.size(), byte_role::call_text);
        phase_ = phase::colon;
        return true;
    }

    template<emitter W>
    bool colon(block_context<W>& ctx)
    {
        if (!take_call_blanks(ctx))
            return true;
        if (ctx.view()[0] != ':')
            return invalid("expected ':' after a key");
        ctx.take(1, byte_role::call_text);
        return begin_member(ctx, token_);
    }

    // Writes `"KEY":`; routes a file tool's own member.
    template<emitter W>
    bool begin_member(block_context<W>& ctx, std::string_view name)
    {
        if (levels_.size() == 1 && !levels_.back().any && ctx.call.shape_pending())   // the first member shows the shape
            syntax_ = ctx.call.member(name, ctx.out);
        scratch_.assign(levels_.back().any ? "," : "");
        levels_.back().any = true;
        append_json_string(scratch_, name);
        scratch_.push_back(':');
        emit(ctx, scratch_);
        if (syntax_ != nullptr && levels_.size() == 1) {   // a file tool's own member
            const bool option = !name.empty() && (name == syntax_->extra_metadata[0] || name == syntax_->extra_metadata[1]);
            use_ = name == syntax_->content_argument ? use::body
                : name == syntax_->required_metadata || option ? use::metadata : use::ignored;
            key_.assign(name);
        } else if (syntax_ != nullptr) {
            use_ = use::ignored;
        }
        phase_ = phase::value;
        return true;
    }

    template<emitter W>
    bool value(block_context<W>& ctx)
    {
        if (!take_call_blanks(ctx))
            return true;
        const std::string_view v = ctx.view();
        const char c = v[0];
        const bool in_array = !levels_.empty() && levels_.back().array;
        if (in_array && c == ']')
            return close_level(ctx);   // `[]`, or a trailing comma
        if (!levels_.empty() && !in_array && c == '}') {   // `key:}`
            finish_value(ctx, "\"\"", {}, true);
            return close_level(ctx);
        }
        switch (front_of(v, Delimiter)) {
        case marker_front::maybe: return false;
        case marker_front::yes:
            ctx.take(Delimiter.size(), byte_role::call_text);
            comma_ = element_prefix();
            metadata_.clear();
            token_.clear();
            phase_ = phase::held_string;
            if (!Markers::strings_read_as_json || use_ != use::argument)
                open_string(ctx);
            return true;
        case marker_front::no: break;
        }
        if (c == '{' || c == '[') {
            if (levels_.size() == max_depth) {
                ctx.out.report(error::nesting_too_deep);
                return invalid("nesting deeper than 64");
            }
            ctx.take(1, byte_role::call_text);
            scratch_.assign(element_prefix());
            scratch_.push_back(c);
            emit(ctx, scratch_);
            levels_.push_back({c == '[', false});
            if (levels_.size() > 1)
                use_ = syntax_ != nullptr ? use::ignored : use::argument;
            phase_ = c == '[' ? phase::value : phase::key;
            return true;
        }
        if (structural.find(c) != std::string_view::npos)
            return invalid("expected a value");
        token_.clear();
        phase_ = phase::scalar;
        return true;
    }

    // The string's first `n` bytes (none of them its closing delimiter).
    template<emitter W>
    void string_piece(block_context<W>& ctx, std::size_t n)
    {
        // Each case takes its bytes from ctx.view() itself: GCC 12 at -O3 warns of a dangling
        // pointer (-Wdangling-pointer) when a local view of them is narrowed again after a call.
        switch (use_) {
        case use::body: ctx.take(n, byte_role::content); return;
        case use::argument:
            scratch_.clear();
            append_json_escaped(scratch_, ctx.view().substr(0, n));
            ctx.take(n, byte_role::call_text);
            emit(ctx, scratch_);
            return;
        case use::metadata:
            metadata_.append(ctx.view().substr(0, std::min(n, max_metadata - std::min(max_metadata, metadata_.size()))));
            break;
        case use::ignored: break;
        }
        ctx.take(n, byte_role::call_text);
    }

    // The string's opening fragment, with what is held of it: the rest streams.
    template<emitter W>
    void open_string(block_context<W>& ctx)
    {
        scratch_.assign(comma_);
        scratch_.push_back('"');
        append_json_escaped(scratch_, token_);
        emit(ctx, scratch_);
        phase_ = phase::string;
    }

    // strings_read_as_json: a delimited value is held to its close, up to cap_ bytes, while it may
    // be JSON (append_json_or_string); one that cannot, or outgrows cap_, streams as a string.
    template<emitter W>
    bool held_string(block_context<W>& ctx)
    {
        const auto m = find_marker(ctx.view(), {Delimiter}, false);
        const bool closed = m.marker != marker_match::npos;
        const std::size_t n = closed ? m.position : utf8_complete_prefix(ctx.view().substr(0, m.position));
        const bool fits = read_token(ctx, n);
        if (fits && closed) {
            ctx.take(Delimiter.size(), byte_role::call_text);
            scratch_.assign(comma_);
            append_json_or_string(scratch_, token_);
            finish_value(ctx, scratch_, {}, true);
        } else if (fits && may_be_json(token_)) {
            return n > 0;
        } else {
            open_string(ctx);
        }
        return true;
    }

    template<emitter W>
    bool string(block_context<W>& ctx)
    {
        const std::string_view v = ctx.view();
        const auto m = find_marker(v, {Delimiter}, false);
        const bool closed = m.marker != marker_match::npos;
        const std::size_t n = closed ? m.position : utf8_complete_prefix(v.substr(0, m.position));
        string_piece(ctx, n);
        if (!closed)
            return n > 0;
        ctx.take(Delimiter.size(), byte_role::call_text);
        finish_value(ctx, "\"", metadata_, true);
        return true;
    }

    // A value ended: its last fragment. A file tool's metadata member sets its metadata: a path
    // is text, an option the value read.
    template<emitter W>
    void finish_value(block_context<W>& ctx, std::string_view json, std::string_view text, bool is_string)
    {
        emit(ctx, json);
        phase_ = phase::separator;
        if (use_ != use::metadata)
            return;
        use_ = use::ignored;
        const bool as_text = key_ == syntax_->required_metadata || (is_string && !Markers::strings_read_as_json);
        ctx.call.set(key_, gemma_metadata_value(as_text, is_string ? text : json), ctx.out);
    }

    template<emitter W>
    bool separator(block_context<W>& ctx)
    {
        if (!take_call_blanks(ctx))
            return true;
        const char c = ctx.view()[0];
        const bool array = levels_.back().array;
        if (c == ',') {
            ctx.take(1, byte_role::call_text);
            phase_ = array ? phase::value : phase::key;
            return true;
        }
        if (c == (array ? ']' : '}'))
            return close_level(ctx);
        if (!array && !Markers::pairs_need_commas) {
            phase_ = phase::key;
            return true;
        }
        return invalid(array ? "expected ',' or ']'" : "expected ',' or '}'");
    }

    template<emitter W>
    bool close_level(block_context<W>& ctx)
    {
        ctx.take(1, byte_role::call_text);
        emit(ctx, levels_.back().array ? "]" : "}");
        levels_.pop_back();
        if (syntax_ != nullptr)
            use_ = use::ignored;
        phase_ = phase::separator;
        if (levels_.empty())
            outcome_ = outcome::closed;
        return true;
    }

    const tool_syntax* syntax_ = nullptr;   // a file or shell tool's row, else null
    phase phase_ = phase::value;
    use use_ = use::argument;
    std::vector<level> levels_;   // the open objects and arrays, outermost first
    std::string key_;             // a file tool's member being read
    std::string metadata_;        // a file tool's metadata string being read
    std::string scratch_;         // a fragment being built
    std::string_view comma_;      // before the string being read: "," in an array after an element
};

} // namespace toolstream::detail
