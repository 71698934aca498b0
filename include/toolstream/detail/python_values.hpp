// One Python literal read as it streams and written out as JSON: a keyword argument's value in
// the pythonic formats (parse/formats/detail/pythonic_reader.hpp), or a whole text (detail/python_text.hpp).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/python_literals.hpp>
#include <toolstream/detail/python_string.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::detail {

/// Reads one Python literal, as vLLM's pythonic parsers accept it (ast, then json.dumps): strings
/// in either quote, triple-quoted, with `r`/`u`/`f` prefixes and implicit concatenation; ints
/// (`0x`, `0o`, `0b`, `_`), floats, a unary `-`/`+`; True/False/None and JSON's true/false/null;
/// lists, tuples and sets (JSON arrays) and dicts with literal keys. Its JSON streams out through
/// json() as the bytes arrive: a string's characters as they come (escapes decoded, re-escaped
/// for JSON, a UTF-8 character never split). Only what cannot be decided yet is held: a token,
/// an escape, a split character, and the first element of `(…)` or `{…}` until a `,` or `:` says
/// whether it is a tuple, a set or a dict (bounded by the cap). Every byte read is taken from the
/// python_source. A body value (a file tool's content) must be a string: its decoded text goes
/// to the source's decoded() instead of JSON.
class python_value_reader {
public:
    enum class status { more, done, failed };

    /// A value begins. `body`: a file tool's body; `cap` bounds a token and what is undecided.
    void begin(bool body, std::size_t cap)
    {
        reset();
        body_ = body;
        cap_ = cap;
        expect_ = expect::value;
    }

    /// Reads on: done when the value is complete (its last byte read), failed with error().
    template<python_source Source>
    status step(Source& src)
    {
        for (;;) {
            act a = act::go;
            switch (expect_) {
            case expect::string: a = in_string(src); break;
            case expect::string_end: a = after_string(src); break;
            case expect::body_close: a = body_close(src); break;
            case expect::done: return status::done;
            default: a = token(src); break;
            }
            if (a == act::go && pending_.size() > cap_)
                a = fail("a tuple, set or dict whose first ',' or ':' comes after max_held bytes");
            if (a == act::more)
                return status::more;
            if (a == act::failed)
                return status::failed;
        }
    }

    /// JSON generated since the caller last cleared it.
    std::string& json() noexcept { return json_; }
    const std::string& error() const noexcept { return error_; }
    /// Where a failed read stopped: inside a string (its quote, 0 if none), containers open.
    char open_quote() const noexcept { return expect_ == expect::string ? string_.quote() : 0; }
    bool open_triple() const noexcept { return string_.triple(); }
    std::size_t depth() const noexcept { return stack_.size(); }
    std::size_t held_bytes() const noexcept { return pending_.size(); }

    void reset() noexcept
    {
        stack_.clear();
        pending_.clear();
        json_.clear();
        error_.clear();
        pending_frames_ = 0;
        expect_ = expect::done;
        string_.reset();
        in_json_string_ = sign_ = negative_ = false;
        parens_ = 0;
    }

private:
    enum class act { go, more, failed };
    enum class expect : unsigned char { value, item, key, after, string, string_end, body_close, done };
    // tuple/set/dict are decided; paren and brace are `(`/`{` before their first `,` or `:`.
    enum class kind : unsigned char { list, tuple, paren, set, dict, brace };
    struct frame {
        kind k;
        bool key;              // the element read (or being read) is a dict key
        bool comma;            // a `,` read, written when another element follows it
        std::size_t count;     // elements read
        std::size_t capture;   // undecided: where its JSON starts in pending_
    };
    static constexpr std::size_t max_depth = 63;   // with the arguments object: 64 JSON levels

    // Undecided JSON is held until its container is known.
    std::string& target() noexcept { return pending_frames_ > 0 ? pending_ : json_; }
    void out(std::string_view s) { target().append(s); }

    act fail(std::string message)
    {
        error_ = std::move(message);
        return act::failed;
    }

    // Decoded string text: the call's content for a body, JSON otherwise.
    template<python_source Source>
    auto emitter(Source& src)
    {
        return [this, &src](std::string_view s) {
            if (body_)
                src.decoded(s);
            else
                append_json_escaped_valid(target(), s);
        };
    }

    // A value, an element, a key, or what follows one.
    template<python_source Source>
    act token(Source& src)
    {
        const std::string_view v = skip_to_token(src);
        if (v.empty())
            return act::more;
        const char c = v[0];
        frame* f = stack_.empty() ? nullptr : &stack_.back();
        if (expect_ == expect::after)
            return after_element(src, c);
        if (expect_ == expect::key && c == '}' && !sign_) {   // after a trailing comma
            f->key = false;
            return close(src, c);
        }
        if (!sign_ && expect_ == expect::item && f != nullptr && c == closer(f->k))
            return close(src, c);
        if (f != nullptr && f->comma) {   // not a trailing comma: JSON has it
            out(",");
            f->comma = false;
        }
        if (body_ && c == '(' && !sign_) {   // `("…" "…")`
            ++parens_;
            src.take(1);
            return act::go;
        }
        if (body_ && c != '"' && c != '\'' && !python_name_start(c))
            return fail("the file body is not a string");
        if (c == '"' || c == '\'')
            return sign_ ? fail("a sign applies to numbers only") : open_string(src, 0);
        if (python_name_start(c) || (c >= '0' && c <= '9') || c == '.')
            return scalar_token(src);
        if (c == '-' || c == '+') {
            sign_ = true;
            negative_ ^= c == '-';
            expect_ = expect::value;
            src.take(1);
            return act::go;
        }
        if (sign_)
            return fail("a sign applies to numbers only");
        if (c == '[' || c == '(' || c == '{') {
            if (f != nullptr && f->k == kind::dict && f->key)
                return fail("a dict key is not a literal");
            return open(src, c == '[' ? kind::list : c == '(' ? kind::paren : kind::brace);
        }
        return fail(std::string("unexpected '") + c + "' where a value belongs");
    }

    static constexpr char closer(kind k) noexcept
    {
        return k == kind::list ? ']' : k == kind::tuple || k == kind::paren ? ')' : '}';
    }

    template<python_source Source>
    act open(Source& src, kind k)
    {
        if (stack_.size() >= max_depth)
            return fail("arguments nest deeper than 64 levels");
        std::size_t capture = 0;
        if (k == kind::list) {
            out("[");
        } else {
            capture = pending_.size();
            ++pending_frames_;
        }
        stack_.push_back({k, k == kind::brace, false, 0, capture});
        src.take(1);
        expect_ = expect::item;
        return act::go;
    }

    // The undecided frame `f` is decided (its opening inserted, if any): its JSON is final.
    void decide(frame& f, kind k, std::string_view opening)
    {
        pending_.insert(f.capture, opening);
        f.k = k;
        if (--pending_frames_ == 0) {
            json_.append(pending_);
            pending_.clear();
        }
    }

    template<python_source Source>
    act close(Source& src, char c)
    {
        frame& f = stack_.back();
        if (c != closer(f.k))
            return fail(std::string("mismatched '") + c + "'");
        if (f.k == kind::dict && f.key)
            return fail("a dict key without a value");
        switch (f.k) {
        case kind::list:
        case kind::tuple:
        case kind::set: out("]"); break;
        case kind::dict: out("}"); break;
        case kind::paren:   // `()` is an empty tuple, `(x)` is x
            decide(f, kind::tuple, "");
            if (f.count == 0)
                out("[]");
            break;
        case kind::brace:   // `{}` is an empty dict, `{x}` a set
            decide(f, kind::set, f.count == 0 ? "" : "[");
            out(f.count == 0 ? "{}" : "]");
            break;
        }
        stack_.pop_back();
        src.take(1);
        return value_done();
    }

    act value_done()
    {
        sign_ = negative_ = false;
        if (stack_.empty()) {
            expect_ = body_ && parens_ > 0 ? expect::body_close : expect::done;
            return act::go;
        }
        frame& f = stack_.back();
        if (!(f.k == kind::dict && f.key))
            ++f.count;
        expect_ = expect::after;
        return act::go;
    }

    // `,`, `:` or a close after an element.
    template<python_source Source>
    act after_element(Source& src, char c)
    {
        frame& f = stack_.back();
        if (c == ',') {
            if (f.k == kind::dict && f.key)
                return fail("a dict key without a value");
            if (f.k == kind::paren || f.k == kind::brace)
                decide(f, f.k == kind::paren ? kind::tuple : kind::set, "[");
            f.comma = true;
            src.take(1);
            f.key = f.k == kind::dict;
            expect_ = f.k == kind::dict ? expect::key : expect::item;
            return act::go;
        }
        if (c == ':') {
            if (f.k == kind::brace && f.count == 1) {   // `{KEY:` makes it a dict: the key as a JSON string
                const char first = pending_[f.capture];
                if (first == '[' || first == '{')
                    return fail("a dict key is not a literal");
                if (first != '"') {
                    // insert(pos, count, char): GCC 12's -Wrestrict misfires on insert(pos, const char*).
                    pending_.insert(f.capture, 1, '"');
                    pending_ += '"';
                }
                decide(f, kind::dict, "{");
                f.count = 0;
            } else if (!(f.k == kind::dict && f.key)) {
                return fail("unexpected ':'");
            }
            out(":");
            f.key = false;
            src.take(1);
            expect_ = expect::value;
            return act::go;
        }
        if (c == ')' || c == ']' || c == '}')
            return close(src, c);
        return fail(std::string("unexpected '") + c + "' after a value: expected ',' or a closing bracket");
    }

    // A scalar's JSON; a dict key other than a string becomes one, as json.dumps writes it.
    act scalar(std::string_view json)
    {
        const bool key = !stack_.empty() && stack_.back().k == kind::dict && stack_.back().key;
        if (key)
            out("\"");
        out(json);
        if (key)
            out("\"");
        return value_done();
    }

    // A name or a number: a string's prefix, or a scalar.
    template<python_source Source>
    act scalar_token(Source& src)
    {
        std::string json;
        const python_token t = python_scalar(src.view(), cap_, sign_, negative_, json);
        switch (t.what) {
        case python_token::kind::more: return act::more;
        case python_token::kind::failed: return fail(t.error);
        case python_token::kind::string: return open_string(src, t.size);
        case python_token::kind::scalar: break;
        }
        if (body_)
            return fail("the file body is not a string");
        src.take(t.size);
        return scalar(json);
    }

    // A string at its prefix (`n` bytes) and quote; one continuing another adds to its JSON string.
    template<python_source Source>
    act open_string(Source& src, std::size_t n)
    {
        switch (string_.open(src, n)) {
        case python_string::result::more: return act::more;
        case python_string::result::failed: return fail(string_.error());
        case python_string::result::closed: break;
        }
        if (!in_json_string_ && !body_)
            out("\"");
        in_json_string_ = true;
        expect_ = string_.empty() ? expect::string_end : expect::string;
        return act::go;
    }

    template<python_source Source>
    act in_string(Source& src)
    {
        switch (string_.read(src, emitter(src))) {
        case python_string::result::more: return act::more;
        case python_string::result::failed: return fail(string_.error());
        case python_string::result::closed: break;
        }
        expect_ = expect::string_end;
        return act::go;
    }

    // After a string: another one continues it (`"a" 'b'`), anything else ends it.
    template<python_source Source>
    act after_string(Source& src)
    {
        const std::string_view v = skip_to_token(src);
        std::size_t n = 0;
        while (n < v.size() && n < 3 && python_name_start(v[n]))
            ++n;
        if (n == v.size())
            return act::more;
        if ((v[n] == '"' || v[n] == '\'') && (n == 0 || python_string_prefix(v.substr(0, n))))
            return open_string(src, n);
        string_.finish(emitter(src));
        in_json_string_ = false;
        if (!body_)
            out("\"");
        return value_done();
    }

    // A body in parentheses: `(`"…" "…"`)`.
    template<python_source Source>
    act body_close(Source& src)
    {
        const std::string_view v = skip_to_token(src);
        if (v.empty())
            return act::more;
        if (v[0] != ')')
            return fail("the file body is not a string");
        src.take(1);
        if (--parens_ == 0)
            expect_ = expect::done;
        return act::go;
    }

    bool body_ = false;
    std::size_t cap_ = 4096;
    expect expect_ = expect::done;
    std::vector<frame> stack_;
    std::string pending_;            // JSON of undecided containers (capture offsets into it)
    std::size_t pending_frames_ = 0;
    std::string json_;               // JSON out
    std::string error_;
    python_string string_;
    bool in_json_string_ = false;    // a string (maybe concatenated) is open in the JSON
    bool sign_ = false;              // a unary sign was read
    bool negative_ = false;
    std::size_t parens_ = 0;         // a body's open parentheses
};

} // namespace toolstream::detail
