// A Python string literal decoded as it streams (detail/python_values.hpp).
#pragma once

#include <toolstream/detail/python_literals.hpp>
#include <toolstream/detail/utf8.hpp>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// One Python string literal, decoded as it streams: escapes (`\n`, `\xHH`, `\uXXXX`,
/// `\UXXXXXXXX`, octal, a line continuation; an unknown escape keeps its backslash), raw strings,
/// triple quotes, f-strings without placeholders (`{{` `}}`). A raw line break inside a
/// single-quoted string is kept (vLLM escapes it before parsing). Surrogate pairs written as two
/// `\u` escapes combine; a lone surrogate becomes U+FFFD. Decoded text goes to `emit` in whole
/// UTF-8 characters, gathered over the runs and escapes of one read() (source code escapes a
/// byte in ten or so, and each emit is an event); the bytes are taken from a python_source.
class python_string {
public:
    enum class result { more, closed, failed };

    /// At a prefix of `n` bytes and its quote: more (the quotes after it are not known yet),
    /// failed (bytes), or the string opened, its opening taken (`empty()`: `''` was all of it).
    template<python_source Source>
    result open(Source& src, std::size_t n)
    {
        const std::string_view v = src.view();
        const std::string_view prefix = v.substr(0, n);
        if (prefix.find_first_of("bB") != std::string_view::npos) {
            error_ = "bytes literals have no JSON value";
            return result::failed;
        }
        const char q = v[n];
        if (v.size() < n + 2 || (v[n + 1] == q && v.size() < n + 3))
            return result::more;
        raw_ = prefix.find_first_of("rR") != std::string_view::npos;
        fstring_ = prefix.find_first_of("fF") != std::string_view::npos;
        quote_ = q;
        triple_ = v[n + 1] == q && v[n + 2] == q;
        empty_ = v[n + 1] == q && !triple_;
        src.take(n + (empty_ ? 2 : triple_ ? 3 : 1));
        return result::closed;
    }

    bool empty() const noexcept { return empty_; }
    char quote() const noexcept { return quote_; }
    bool triple() const noexcept { return triple_; }
    const std::string& error() const noexcept { return error_; }

    /// Reads the string on: closed once its closing quote is taken.
    template<python_source Source, class Emit>
    result read(Source& src, Emit&& emit)
    {
        gather_ = src.view().size() > 8;   // a few bytes hold an escape or two at most: no gain
        const result r = decode(src, emit);
        flush(emit);
        return r;
    }

    /// The string (and any continuing it) ended: a lone high surrogate becomes U+FFFD.
    template<class Emit>
    void finish(Emit&& emit)
    {
        if (high_ != 0)
            text({}, emit);
        flush(emit);
    }

    void reset() noexcept
    {
        quote_ = 0;
        triple_ = raw_ = fstring_ = empty_ = false;
        high_ = 0;
        error_.clear();
        decoded_.clear();
    }

private:
    static constexpr std::size_t gathered = 4096;   // decoded text is emitted once this much waits

    template<python_source Source, class Emit>
    result decode(Source& src, Emit& emit)
    {
        for (;;) {
            const std::string_view v = src.view();
            std::size_t i = 0;
            while (i < v.size() && v[i] != quote_ && v[i] != '\\' && !(fstring_ && (v[i] == '{' || v[i] == '}')))
                ++i;
            if (i > 0) {   // plain characters; a split UTF-8 character is held back
                std::size_t n = i == v.size() ? utf8_complete_prefix(v) : i;
                n = std::min(n, src.room());
                if (n == 0)
                    return result::more;
                text(v.substr(0, n), emit);
                src.take(n);
                continue;
            }
            if (v.empty())
                return result::more;
            if (v[0] == quote_) {
                if (!triple_) {
                    src.take(1);
                    return result::closed;
                }
                if (v.size() < 3)
                    return result::more;
                const bool closes = v[1] == quote_ && v[2] == quote_;
                if (!closes)
                    text(v.substr(0, 1), emit);
                src.take(closes ? 3 : 1);
                if (closes)
                    return result::closed;
                continue;
            }
            if (v.size() < 2)
                return result::more;
            if (v[0] != '\\') {   // `{{` / `}}` in an f-string
                if (v[1] != v[0]) {
                    error_ = v[0] == '{' ? "f-string placeholders are not literals" : "a single '}' in an f-string";
                    return result::failed;
                }
                text(v.substr(0, 1), emit);
                src.take(2);
                continue;
            }
            if (const result r = escape(src, v, emit); r != result::closed)
                return r;
        }
    }

    template<class Emit>
    void text(std::string_view s, Emit& emit)
    {
        if (high_ != 0) {
            high_ = 0;
            decoded_.append(replacement_character);
        }
        if (!gather_ || s.size() >= gathered) {   // a long run goes as it is, not copied
            flush(emit);
            if (!s.empty())
                emit(s);
            return;
        }
        decoded_.append(s);
        if (decoded_.size() >= gathered)
            flush(emit);
    }

    template<class Emit>
    void flush(Emit& emit)
    {
        if (decoded_.empty())
            return;
        emit(std::string_view(decoded_));
        decoded_.clear();
    }

    template<class Emit>
    void code_point(std::uint32_t cp, Emit& emit)
    {
        if (cp >= 0xD800 && cp <= 0xDBFF) {   // a high surrogate waits for its low half
            text({}, emit);
            high_ = cp;
            return;
        }
        if (cp >= 0xDC00 && cp <= 0xDFFF) {
            cp = high_ != 0 ? 0x10000 + ((high_ - 0xD800) << 10) + (cp - 0xDC00) : 0xFFFD;
            high_ = 0;
        }
        char bytes[4];
        text(std::string_view(bytes, encode_utf8(cp, bytes)), emit);
    }

    // `v` starts with a backslash and one more byte; closed here means "read on".
    template<python_source Source, class Emit>
    result escape(Source& src, std::string_view v, Emit& emit)
    {
        const char c = v[1];
        if (raw_) {   // the backslash stays; it only keeps a quote or a backslash from ending anything
            const std::size_t n = c == quote_ || c == '\\' ? 2 : 1;
            text(v.substr(0, n), emit);
            src.take(n);
            return result::closed;
        }
        static constexpr std::string_view from = "\\'\"ntrabfv";
        static constexpr std::string_view to = "\\'\"\n\t\r\a\b\f\v";
        if (const std::size_t k = from.find(c); k != std::string_view::npos) {
            text(to.substr(k, 1), emit);
            src.take(2);
            return result::closed;
        }
        if (c == '\n' || c == '\r') {   // a line continuation
            if (c == '\r' && v.size() < 3)
                return result::more;
            src.take(c == '\r' && v[2] == '\n' ? 3 : 2);
            return result::closed;
        }
        std::size_t n = 0;   // digits
        int base = 16;
        std::size_t at = 2;  // where they start
        if (c >= '0' && c <= '7') {
            base = 8;
            at = 1;
            while (n < 3 && 1 + n < v.size() && v[1 + n] >= '0' && v[1 + n] <= '7')
                ++n;
            if (n < 3 && 1 + n == v.size())
                return result::more;
        } else if (c == 'x' || c == 'u' || c == 'U') {
            n = c == 'x' ? 2 : c == 'u' ? 4 : 8;
            if (v.size() < 2 + n)
                return result::more;
        } else if (c == 'N') {
            error_ = "\\N{...} escapes are not supported";
            return result::failed;
        } else {   // an unknown escape keeps its backslash, as Python does
            text(v.substr(0, 1), emit);
            src.take(1);
            return result::closed;
        }
        std::uint32_t cp = 0;
        const auto [end, ec] = std::from_chars(v.data() + at, v.data() + at + n, cp, base);
        if (ec != std::errc() || end != v.data() + at + n || cp > 0x10FFFF) {
            error_ = "invalid \\" + std::string(1, c) + " escape";
            return result::failed;
        }
        code_point(cp, emit);
        src.take(at + n);
        return result::closed;
    }

    char quote_ = 0;
    bool triple_ = false;
    bool raw_ = false;
    bool fstring_ = false;
    bool empty_ = false;
    std::uint32_t high_ = 0;   // a high surrogate waiting for its low half
    std::string error_;
    std::string decoded_;      // decoded text not emitted yet (empty between calls)
    bool gather_ = false;      // this read() gathers decoded text into decoded_
};

} // namespace toolstream::detail
