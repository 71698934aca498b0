// Compact JSON text as JavaScript's JSON.stringify writes it, appended to a caller's string.
//
// Providers that send tool arguments as objects (Gemini `args`, Ollama `arguments`) or as typed
// pieces (Gemini `partialArgs`) need their text form, and so do the argument fragments the
// segment emitter makes. Escaping the pieces of a text one by one gives the escape of the whole.
// boost::json::serialize is not used: it writes `1E21` and `5E-1`, and `Infinity` for an
// overflowing number, and it returns a fresh string, while these functions append into a buffer
// whose capacity the caller reuses.
#pragma once

#include <toolstream/detail/byte_words.hpp>
#include <toolstream/detail/config.hpp>
#include <toolstream/detail/growth.hpp>
#include <toolstream/detail/json_string_decoder.hpp>
#include <toolstream/detail/utf8.hpp>

#include <boost/json/value.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace toolstream::detail {

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
                const std::uint64_t w = load_word(part.data() + i);
                std::memcpy(o, &w, 8);
                const std::uint64_t hit = json_escape_flags(w);
                const std::size_t clean = hit == 0 ? 8 : first_flagged_byte(hit);
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
TOOLSTREAM_DECL void append_js_number(std::string& out, double d);

/// Appends a JSON number value (integers exactly as parsed, doubles as append_js_number).
TOOLSTREAM_DECL void append_json_number(std::string& out, const boost::json::value& v);

/// Appends the compact serialization of `v`: no whitespace, object keys in stored order.
/// Recursion depth is bounded by the parser's nesting limit.
TOOLSTREAM_DECL void append_compact_json(std::string& out, const boost::json::value& v);

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

#if !defined(TOOLSTREAM_SEPARATE_COMPILATION)
#include <toolstream/detail/impl/compact_json.hpp>
#endif
