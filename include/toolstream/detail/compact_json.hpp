// Compact JSON text as JavaScript's JSON.stringify writes it, appended to a caller's string.
//
// Providers that send tool arguments as objects (Gemini `args`, Ollama `arguments`) or as typed
// pieces (Gemini `partialArgs`) need their text form, and so do the argument fragments the
// segment emitter makes. Escaping the pieces of a text one by one gives the escape of the whole.
// boost::json::serialize is not used: it writes `1E21` and `5E-1`, and `Infinity` for an
// overflowing number, and it returns a fresh string, while these functions append into a buffer
// whose capacity the caller reuses.
#pragma once

#include <toolstream/detail/growth.hpp>
#include <toolstream/detail/json_string_decoder.hpp>
#include <toolstream/detail/utf8.hpp>

#include <boost/json/value.hpp>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Flags, in the high bit of each byte, the bytes of the word `w` (eight bytes in memory order)
/// that JSON must escape: a control character, `"` or `\\`. On a little-endian machine the
/// lowest flag is exact; false flags only ever lie above a true one, since a borrow runs upward.
constexpr std::uint64_t json_escape_flags(std::uint64_t w) noexcept
{
    constexpr std::uint64_t ones = 0x0101010101010101u;
    constexpr std::uint64_t highs = 0x8080808080808080u;
    const auto has_zero = [](std::uint64_t v) noexcept { return (v - ones) & ~v & highs; };
    // A byte below 0x20 (its high bit clear and w - 0x20 borrowing), or equal to `"` or `\\`.
    const std::uint64_t control = (w - ones * 0x20) & ~w & highs;
    return control | has_zero(w ^ (ones * '"')) | has_zero(w ^ (ones * '\\'));
}

constexpr bool needs_json_escape(unsigned char c) noexcept
{
    return c < 0x20 || c == '"' || c == '\\';
}

/// Appends the JSON escape of `s` without the surrounding quotes. Non-ASCII bytes pass through
/// unchanged; control characters use the short escapes or `\u00xx`, as JSON.stringify does.
/// Code escapes a byte in ten or so, so the scan and the copy are one pass: each word of eight
/// bytes is stored whole into a buffer on the stack, and the write position moves past the bytes
/// before its first escape. The buffer is appended a block at a time (resizing the string to the
/// worst case first would zero-fill six bytes per byte).
inline void append_json_escaped(std::string& out, std::string_view s)
{
    static constexpr char hex[] = "0123456789abcdef";
    static constexpr auto short_escapes = [] {   // the letter after `\\`, or 0 for `\u00xx`
        std::array<char, 256> letters{};
        letters['"'] = '"';
        letters['\\'] = '\\';
        letters['\b'] = 'b';
        letters['\f'] = 'f';
        letters['\n'] = 'n';
        letters['\r'] = 'r';
        letters['\t'] = 't';
        return letters;
    }();
    if (s.size() == 1 && !needs_json_escape(static_cast<unsigned char>(s[0]))) {
        out.push_back(s[0]);   // a one-byte delta (a token of one character) is common
        return;
    }
    constexpr std::size_t block = 1024;
    char escaped[block * 6 + 8];   // 6 bytes out per byte in at most, and a word stored past them
    for (std::size_t at = 0; at < s.size(); at += block) {
        const std::string_view part = s.substr(at, block);
        char* o = escaped;
        for (std::size_t i = 0; i < part.size();) {
            if (std::endian::native == std::endian::little && i + 8 <= part.size()) {
                std::uint64_t w;
                std::memcpy(&w, part.data() + i, 8);
                std::memcpy(o, &w, 8);
                const std::uint64_t hit = json_escape_flags(w);
                const std::size_t clean = hit == 0 ? 8 : static_cast<std::size_t>(std::countr_zero(hit)) / 8;
                o += clean;
                i += clean;
                if (clean == 8)
                    continue;
            } else if (!needs_json_escape(static_cast<unsigned char>(part[i]))) {
                *o++ = part[i++];
                continue;
            }
            const auto c = static_cast<unsigned char>(part[i++]);
            *o++ = '\\';
            if (const char letter = short_escapes[c]; letter != 0) {
                *o++ = letter;
            } else {
                std::memcpy(o, "u00", 3);
                o[3] = hex[c >> 4];
                o[4] = hex[c & 0xf];
                o += 5;
            }
        }
        append_growing(out, std::string_view(escaped, static_cast<std::size_t>(o - escaped)));
    }
}

/// Appends `s` as a whole JSON string, quotes included.
inline void append_json_string(std::string& out, std::string_view s)
{
    out += '"';
    append_json_escaped(out, s);
    out += '"';
}

/// As append_json_escaped, with every sequence that is not UTF-8 replaced by U+FFFD
/// (append_valid_utf8): the escape of text that is written out, where each event must be valid
/// UTF-8 on its own. append_json_escaped keeps the bytes, for JSON text that is parsed again.
inline void append_json_escaped_valid(std::string& out, std::string_view s)
{
    std::size_t run = 0;   // start of the bytes not written yet
    std::uint32_t cp = 0;
    for (std::size_t i = 0; i < s.size();) {
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        if (const std::size_t n = decode_utf8(s, i, cp); n != 0) {
            i += n;
            continue;
        }
        append_json_escaped(out, s.substr(run, i - run));
        out.append(replacement_character);
        i += invalid_utf8_length(s, i);
        run = i;
    }
    append_json_escaped(out, s.substr(run));
}

/// Appends `s` as a whole JSON string, quotes included, sequences that are not UTF-8 replaced.
inline void append_json_string_valid(std::string& out, std::string_view s)
{
    out += '"';
    append_json_escaped_valid(out, s);
    out += '"';
}

/// Appends a double as ECMAScript Number::toString does (shortest round-trip digits, fixed
/// notation for exponents in [-7, 21), `1e+21` beyond). An overflowing number (Infinity) becomes
/// `null`, as in JSON.stringify; NaN, which Boost.JSON 1.81 reads for a zero with an exponent
/// past 308 (`0e400`), is that zero.
inline void append_js_number(std::string& out, double d)
{
    if (std::isinf(d)) {
        out += "null";
        return;
    }
    if (d == 0 || std::isnan(d)) {   // also -0, which JSON.stringify writes as 0
        out += '0';
        return;
    }
    char sci[32];   // "-d.ddddddddddddddde-308" at most
    const auto end = std::to_chars(sci, sci + sizeof sci, d, std::chars_format::scientific).ptr;
    const char* p = sci;
    if (*p == '-') {
        out += '-';
        ++p;
    }
    char digits[20];
    int k = 0;
    for (; *p != 'e'; ++p)
        if (*p != '.')
            digits[k++] = *p;
    ++p;   // 'e'
    const bool negative_exp = *p == '-';
    int e = 0;
    std::from_chars(p + 1, end, e);
    const int n = (negative_exp ? -e : e) + 1;   // the decimal point sits after n digits
    const std::string_view ds(digits, static_cast<std::size_t>(k));
    if (k <= n && n <= 21) {
        out += ds;
        out.append(static_cast<std::size_t>(n - k), '0');
    } else if (0 < n && n <= 21) {
        out += ds.substr(0, static_cast<std::size_t>(n));
        out += '.';
        out += ds.substr(static_cast<std::size_t>(n));
    } else if (-6 < n && n <= 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-n), '0');
        out += ds;
    } else {
        out += ds[0];
        if (k > 1) {
            out += '.';
            out += ds.substr(1);
        }
        out += n - 1 < 0 ? "e-" : "e+";
        char exp[8];
        const auto exp_end = std::to_chars(exp, exp + sizeof exp, n - 1 < 0 ? 1 - n : n - 1).ptr;
        out.append(exp, exp_end);
    }
}

/// Appends a JSON number value (integers exactly as parsed, doubles as append_js_number).
inline void append_json_number(std::string& out, const boost::json::value& v)
{
    char buf[24];
    if (v.is_int64()) {
        out.append(buf, std::to_chars(buf, buf + sizeof buf, v.get_int64()).ptr);
    } else if (v.is_uint64()) {
        out.append(buf, std::to_chars(buf, buf + sizeof buf, v.get_uint64()).ptr);
    } else {
        append_js_number(out, v.get_double());
    }
}

/// Appends the compact serialization of `v`: no whitespace, object keys in stored order.
/// Recursion depth is bounded by the parser's nesting limit.
inline void append_compact_json(std::string& out, const boost::json::value& v)
{
    switch (v.kind()) {
    case boost::json::kind::null: out += "null"; break;
    case boost::json::kind::bool_: out += v.get_bool() ? "true" : "false"; break;
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
    case boost::json::kind::double_: append_json_number(out, v); break;
    case boost::json::kind::string:
        out += '"';
        append_json_escaped(out, v.get_string());
        out += '"';
        break;
    case boost::json::kind::array: {
        out += '[';
        bool first = true;
        for (const auto& item : v.get_array()) {
            if (!first)
                out += ',';
            first = false;
            append_compact_json(out, item);
        }
        out += ']';
        break;
    }
    case boost::json::kind::object: {
        out += '{';
        bool first = true;
        for (const auto& member : v.get_object()) {
            if (!first)
                out += ',';
            first = false;
            out += '"';
            append_json_escaped(out, member.key());
            out += "\":";
            append_compact_json(out, member.value());
        }
        out += '}';
        break;
    }
    }
}

/// The inverse of append_json_escaped, for text it wrote (any other goes through
/// json_string_decoder): writes the decoding of `s` to `out`, which has room for s.size() bytes,
/// and returns its length. Runs between backslashes are copied whole.
inline std::size_t decode_json_escaped(std::string_view s, char* out) noexcept
{
    char* o = out;
    for (std::size_t i = 0; i < s.size();) {
        const auto* slash = static_cast<const char*>(std::memchr(s.data() + i, '\\', s.size() - i));
        const std::size_t run_end = slash == nullptr ? s.size() : static_cast<std::size_t>(slash - s.data());
        std::memcpy(o, s.data() + i, run_end - i);
        o += run_end - i;
        if (run_end + 1 >= s.size())
            break;   // the end, or a lone backslash append_json_escaped never writes
        i = run_end + 2;
        if (s[run_end + 1] != 'u') {
            *o++ = json_string_decoder::short_escape(s[run_end + 1]);
        } else if (i + 4 <= s.size()) {   // \u00xx: a control character
            *o++ = static_cast<char>(json_string_decoder::hex_value(s[i + 2]) << 4 | json_string_decoder::hex_value(s[i + 3]));
            i += 4;
        }
    }
    return static_cast<std::size_t>(o - out);
}

} // namespace toolstream::detail
