// Decodes the inside of a JSON string as it arrives, an escape or a UTF-8 character split at any
// byte included: runs without escapes are found a word at a time and handed over in one piece.
#pragma once

#include <toolstream/detail/byte_words.hpp>
#include <toolstream/detail/utf8.hpp>
#include <toolstream/error.hpp>

#include <boost/json/error.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// What read() makes of bytes that are not UTF-8.
enum class utf8_bytes : std::uint8_t {
    strict,    ///< a failure, as in Boost.JSON
    lenient,   ///< copied: the bytes a lead byte claims, or up to the first that does not continue it
};

/// A JSON string decoded to UTF-8 as it arrives: the short escapes, `\uXXXX` and surrogate pairs.
/// Two ways in:
/// - append(): the bytes between the quotes, lenient: an unknown escape, a bad hex digit or a lone
///   surrogate fails it for good; other bytes (control characters, invalid UTF-8) are copied.
/// - read(): from after the opening quote to the closing one, strict as Boost.JSON is (control
///   characters and invalid UTF-8 fail too), with the error named as Boost.JSON names it. Runs
///   without escapes go 8 bytes at a time; a UTF-8 character or a surrogate pair is appended only
///   once whole, so what was appended is always valid. With utf8_bytes::lenient, bytes that are
///   not UTF-8 are copied instead, each group once its lead byte's length of bytes has come or
///   a byte that does not continue it (that byte with them; a backslash or a control character
///   after them, on its own; a closing quote fails).
class json_string_decoder {
public:
    void reset() noexcept
    {
        phase_ = phase::plain;
        failure_ = failure::none;
        held_ = 0;
    }

    /// Appends the decoding of `raw` to `out`; false once the string is known to be invalid.
    bool append(std::string_view raw, std::string& out)
    {
        for (std::size_t i = 0; i < raw.size() && failure_ == failure::none; ++i) {
            if (phase_ == phase::plain) {
                const std::size_t slash = raw.find('\\', i);
                const std::size_t end = slash == std::string_view::npos ? raw.size() : slash;
                out.append(raw.substr(i, end - i));
                i = end;
                if (slash != std::string_view::npos)
                    phase_ = phase::escape;
                continue;
            }
            if (const std::string_view d = escape_step(raw[i]); !d.empty())
                out.append(d);
        }
        return failure_ == failure::none;
    }

    /// Decodes `raw` up to and including the string's closing quote, appending to `out`. Returns
    /// the bytes used: all of `raw` while the string is open, else up to the closing quote (then
    /// closed() is true) or to the byte in error (then `ec`).
    template<utf8_bytes Utf8 = utf8_bytes::strict, class String>   // std::string or boost::json::string
    std::size_t read(std::string_view raw, String& out, error_code& ec)
    {
        // By slices: a short string at the head of a long input must not size `out` for all of it.
        std::size_t used = read_slice<Utf8>(raw.data(), std::min(raw.size(), slice), out, ec);
        while (used < raw.size() && !closed_ && !ec) [[unlikely]]
            used += read_slice<Utf8>(raw.data() + used, std::min(raw.size() - used, slice), out, ec);
        return used;
    }

    /// The room read() of `n` bytes makes in its output beyond what it holds: a caller that
    /// reserves it gets no reallocation.
    static constexpr std::size_t read_room(std::size_t n) noexcept { return n + 16; }

    /// True once read() consumed the closing quote; cleared by reset_string().
    bool closed() const noexcept { return closed_; }

    /// Ready for the next string of a strict read().
    void reset_string() noexcept
    {
        reset();
        closed_ = false;
    }

    /// True when the string may end here (not inside an escape) and nothing failed.
    bool complete() const noexcept { return failure_ == failure::none && phase_ == phase::plain; }

    /// The bytes `raw` starts with that a string holds as they are: before its first `"`, `\`,
    /// control character or non-ASCII byte.
    static std::size_t plain_length(std::string_view raw) noexcept
    {
        std::size_t i = 0;
        for (; i + 8 <= raw.size(); i += 8) {
            if (const std::uint64_t hit = json_special_flags(load_word(raw.data() + i)); hit != 0)
                return i + first_flagged(hit, raw.data() + i);
        }
        while (i < raw.size() && !is_special(raw[i]))
            ++i;
        return i;
    }

    /// The character a short escape stands for (`n` for a newline...), or 0.
    static char short_escape(char e) noexcept { return short_escapes[static_cast<unsigned char>(e)]; }

    /// The value of a hex digit, or -1.
    static int hex_value(char c) noexcept
    {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

private:
    static constexpr std::size_t slice = 4096;
    static constexpr auto short_escapes = [] {   // by the letter after a backslash: what both stand for
        std::array<char, 256> t{};
        t['"'] = '"', t['\\'] = '\\', t['/'] = '/';
        t['b'] = '\b', t['f'] = '\f', t['n'] = '\n', t['r'] = '\r', t['t'] = '\t';
        return t;
    }();

    template<utf8_bytes Utf8, class String>
    std::size_t read_slice(const char* s, std::size_t n, String& out, error_code& ec)
    {
        // The decoding is never longer than its input plus a held character; 8 more for word
        // stores. boost::json::string grows into reserved room without filling it; a std::string
        // would zero-fill what it is resized to, so its slice is decoded on the stack and appended.
        if constexpr (requires { out.grow(std::size_t{}); }) {
            const std::size_t base = out.size();
            out.reserve(base + read_room(n));
            char* o = out.data() + base;
            const std::size_t used = decode<Utf8>(s, n, o, ec);
            out.grow(static_cast<std::size_t>(o - (out.data() + base)));
            return used;
        } else {
            char room[read_room(slice)];
            char* o = room;
            const std::size_t used = decode<Utf8>(s, n, o, ec);
            out.append(room, static_cast<std::size_t>(o - room));
            return used;
        }
    }

    template<utf8_bytes Utf8>
    std::size_t decode(const char* s, std::size_t n, char*& o, error_code& ec)
    {
        std::size_t i = 0;
        while (i < n) {
            if (phase_ == phase::utf8) {
                // The next byte of a cut character, read as the whole-buffer path reads one.
                held_bytes_[held_] = s[i];
                const int length = sequence_length<Utf8>(held_bytes_, held_ + 1u);
                if (length < 0)
                    return fail(failure::utf8, i, ec);
                if (length == 0 || length > held_) {   // else a `\` ended a lenient group: it stays
                    ++held_;
                    ++i;
                }
                if (length > 0) {
                    phase_ = phase::plain;
                    for (unsigned j = 0; j < held_; ++j)
                        *o++ = held_bytes_[j];
                    held_ = 0;
                }
                continue;
            }
            if (phase_ != phase::plain) {
                const std::string_view d = escape_step(s[i++]);
                if (failure_ != failure::none)
                    return fail(failure_, i - 1, ec);
                for (const char c : d)
                    *o++ = c;
                continue;
            }
            // ASCII 8 bytes at a time, stored before they are looked at (the output has room). A
            // short escape or a valid UTF-8 character, whole, is decoded here and the words go on:
            // code and prose hold one every few bytes.
            while (i + 8 <= n) {
                const std::uint64_t x = load_word(s + i);
                std::memcpy(o, &x, 8);
                const std::uint64_t hit = json_special_flags(x);
                if (hit == 0) {
                    i += 8;
                    o += 8;
                    continue;
                }
                const std::size_t k = first_flagged(hit, s + i);
                i += k;
                o += k;
                if (const char d = s[i] == '\\' && i + 1 < n ? short_escape(s[i + 1]) : 0; d != 0) {
                    *o++ = d;
                    i += 2;
                } else if (const int len = sequence_length<Utf8>(s + i, n - i); len > 1) {
                    for (int j = 0; j < len; ++j)
                        *o++ = s[i++];
                } else {
                    break;
                }
            }
            while (i < n && !is_special(s[i]))
                *o++ = s[i++];
            if (i == n)
                break;
            const char c = s[i];
            if (static_cast<unsigned char>(c) >= 0x80) {
                const int k = sequence_length<Utf8>(s + i, n - i);
                if (k < 0)
                    return fail(failure::utf8, i, ec);
                if (k == 0) {
                    // A character cut by the end of `raw`: held until its last byte.
                    phase_ = phase::utf8;
                    while (i < n)
                        held_bytes_[held_++] = s[i++];
                    break;
                }
                for (int j = 0; j < k; ++j)
                    *o++ = s[i++];
                continue;
            }
            ++i;
            if (c == '"') {
                closed_ = true;
                return i;
            }
            if (c != '\\')
                return fail(failure::control, i - 1, ec);
            if (const std::size_t k = whole_escape(s + i, n - i, o); k != 0) {
                i += k;
                continue;
            }
            phase_ = phase::escape;   // cut by the end of `raw`, or invalid: byte by byte
        }
        return n;
    }

    // The length of the character at `s` as read() takes it (utf8_sequence_length's meaning):
    // with utf8_bytes::lenient, a group of bytes copied as they are, -1 only when a quote ends
    // it (the string cannot end inside a character) or a control character does.
    template<utf8_bytes Utf8>
    static int sequence_length(const char* s, std::size_t n) noexcept
    {
        if constexpr (Utf8 == utf8_bytes::strict) {
            return utf8_sequence_length(s, n);
        } else {
            const int length = lenient_length(s[0]);
            for (int k = 1; k < length; ++k) {
                if (static_cast<std::size_t>(k) == n)
                    return 0;
                const char c = s[k];
                if (is_continuation(c))
                    continue;
                if (c == '"' || (c != '\\' && static_cast<unsigned char>(c) < 0x20))
                    return -1;
                return c == '\\' ? k : k + 1;
            }
            return length;
        }
    }

    // The bytes a lead byte claims, whatever follows: a byte that cannot lead stands alone.
    static int lenient_length(char lead) noexcept
    {
        const auto c = static_cast<unsigned char>(lead);
        return c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    }

    static bool is_continuation(char c) noexcept { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

    static bool is_special(char ch) noexcept
    {
        const auto c = static_cast<unsigned char>(ch);
        return c == '"' || c == '\\' || c < 0x20 || c >= 0x80;
    }

    // The index of the first special byte of the 8 at `s`, whose flags are `hit`.
    static std::size_t first_flagged([[maybe_unused]] std::uint64_t hit, const char* s) noexcept
    {
        if constexpr (std::endian::native == std::endian::little) {
            return first_flagged_byte(hit);
        } else {
            std::size_t k = 0;
            while (!is_special(s[k]))
                ++k;
            return k;
        }
    }

    enum class phase : std::uint8_t { plain, escape, hex, low_slash, low_u, low_hex, utf8 };
    enum class failure : std::uint8_t { none, escape, hex, leading_surrogate, trailing_surrogate, control, utf8 };

    std::size_t fail(failure f, std::size_t at, error_code& ec) noexcept
    {
        failure_ = f;
        switch (f) {
        case failure::hex: ec = boost::json::error::expected_hex_digit; break;
        case failure::leading_surrogate: ec = boost::json::error::illegal_leading_surrogate; break;
        case failure::trailing_surrogate: ec = boost::json::error::illegal_trailing_surrogate; break;
        default: ec = boost::json::error::syntax; break;   // a control character, \x, bad UTF-8
        }
        return at;
    }

    // The value of the 4 hex digits at `s`, or -1.
    static std::int32_t hex4(const char* s) noexcept
    {
        std::int32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const int d = hex_value(s[k]);
            if (d < 0)
                return -1;
            v = v * 16 + d;
        }
        return v;
    }

    // A valid escape whole at `s` (after its backslash), decoded to `o`: its length, else 0
    // (the byte-by-byte path then reads it, and names its error).
    std::size_t whole_escape(const char* s, std::size_t n, char*& o)
    {
        if (n == 0)
            return 0;
        if (s[0] != 'u') {
            const char d = short_escape(s[0]);
            if (d == 0)
                return 0;
            *o++ = d;
            return 1;
        }
        if (n < 5)
            return 0;
        std::int32_t cp = hex4(s + 1);
        std::size_t used = 5;
        if (cp < 0 || (cp >= 0xDC00 && cp <= 0xDFFF))
            return 0;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (n < 11 || s[5] != '\\' || s[6] != 'u')
                return 0;
            const std::int32_t low = hex4(s + 7);
            if (low < 0xDC00 || low > 0xDFFF)
                return 0;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            used = 11;
        }
        o += encode_utf8(static_cast<std::uint32_t>(cp), o);
        return used;
    }

    // One byte after a backslash: the decoded bytes once an escape ends (empty while it goes on).
    std::string_view escape_step(char c)
    {
        switch (phase_) {
        case phase::escape: return escape(c);
        case phase::hex:
        case phase::low_hex: return hex_digit(c);
        case phase::low_slash: expect(c == '\\', phase::low_u); return {};
        case phase::low_u:
            expect(c == 'u', phase::low_hex);
            digits_ = 0;
            low_ = 0;
            return {};
        default: return {};
        }
    }

    void expect(bool ok, phase next) noexcept
    {
        if (!ok)
            failure_ = failure::escape;   // a high surrogate without `\u`
        phase_ = next;
    }

    std::string_view escape(char c)
    {
        phase_ = phase::plain;
        if (c == 'u') {
            phase_ = phase::hex;
            digits_ = 0;
            code_ = 0;
        } else if (const char d = short_escape(c); d != 0) {
            held_bytes_[0] = d;
            return {held_bytes_, 1};
        } else {
            failure_ = failure::escape;
        }
        return {};
    }

    std::string_view hex_digit(char c)
    {
        const int d = hex_value(c);
        if (d < 0) {
            failure_ = failure::hex;
            return {};
        }
        std::uint32_t& value = phase_ == phase::hex ? code_ : low_;
        value = value * 16 + static_cast<std::uint32_t>(d);
        if (++digits_ < 4)
            return {};
        if (phase_ == phase::hex && code_ >= 0xD800 && code_ <= 0xDBFF) {
            phase_ = phase::low_slash;   // a high surrogate: its low half must follow
            return {};
        }
        if (phase_ == phase::low_hex) {
            if (low_ < 0xDC00 || low_ > 0xDFFF) {
                failure_ = failure::trailing_surrogate;
                return {};
            }
            code_ = 0x10000 + ((code_ - 0xD800) << 10) + (low_ - 0xDC00);
        } else if (code_ >= 0xDC00 && code_ <= 0xDFFF) {
            failure_ = failure::leading_surrogate;   // a low surrogate alone
            return {};
        }
        phase_ = phase::plain;
        return {held_bytes_, encode_utf8(code_, held_bytes_)};
    }

    phase phase_ = phase::plain;
    failure failure_ = failure::none;
    bool closed_ = false;
    unsigned char held_ = 0;    // bytes of a cut UTF-8 character in held_bytes_
    unsigned digits_ = 0;
    std::uint32_t code_ = 0;
    std::uint32_t low_ = 0;
    char held_bytes_[4] = {};   // a cut UTF-8 character, or an escape's decoding
};

} // namespace toolstream::detail
