// XML character data as the xml policy reads it: entities (the five named ones and character
// references XML allows), CDATA sections kept verbatim, and Python's str.strip() on the result,
// as the Python reference applies it to argument values.
#pragma once

#include <toolstream/detail/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace toolstream::detail {

// Decodes the entity at the start of `s` (which begins with '&') into `out`. Returns the bytes
// consumed, or 0 (appending nothing) when `s` starts no valid entity.
inline std::size_t append_entity(std::string_view s, std::string& out)
{
    static constexpr std::string_view names[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    static constexpr char chars[] = {'&', '<', '>', '"', '\''};
    for (std::size_t k = 0; k < 5; ++k)
        if (s.starts_with(names[k])) {
            out += chars[k];
            return names[k].size();
        }
    if (!s.starts_with("&#"))
        return 0;
    const bool hex = s.starts_with("&#x");
    const std::size_t first = hex ? 3 : 2;
    std::size_t i = first;
    std::uint32_t cp = 0;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        const int d = c >= '0' && c <= '9'           ? c - '0'
                    : hex && c >= 'a' && c <= 'f'    ? c - 'a' + 10
                    : hex && c >= 'A' && c <= 'F'    ? c - 'A' + 10
                                                     : -1;
        if (d < 0)
            break;
        // Saturate just past the Unicode range so long digit runs cannot overflow.
        cp = std::min<std::uint32_t>(cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(d), 0x110000);
    }
    if (i == first || i == s.size() || s[i] != ';')
        return 0;
    // Only XML's Char production: no NUL or other controls, surrogates, U+FFFE/U+FFFF.
    const bool xml_char = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF)
        || (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
    if (!xml_char)
        return 0;
    append_utf8(cp, out);
    return i + 1;
}

// Entity decoding only: every other byte, '<' included, is copied.
inline void append_xml_entities(std::string_view raw, std::string& out)
{
    for (std::size_t i = 0;;) {
        const std::size_t amp = raw.find('&', i);
        out.append(raw.substr(i, amp == std::string_view::npos ? amp : amp - i));
        if (amp == std::string_view::npos)
            return;
        const std::size_t used = append_entity(raw.substr(amp), out);
        if (used == 0)
            out += '&';
        i = amp + std::max<std::size_t>(used, 1);
    }
}

/// Decodes XML character data: the five named entities, &#NN; and &#xHH; (to UTF-8), CDATA
/// sections kept verbatim; a bare '&' that starts no valid entity stays literal, as does an
/// unterminated CDATA opener. Appends to `out`.
inline void append_xml_text(std::string_view raw, std::string& out)
{
    constexpr std::string_view open = "<![CDATA[";
    for (std::size_t i = 0;;) {
        const std::size_t at = raw.find(open, i);
        const std::size_t end = at == std::string_view::npos ? at : raw.find("]]>", at + open.size());
        // Without a terminator here there is none later either: the rest is plain text.
        if (end == std::string_view::npos) {
            append_xml_entities(raw.substr(i), out);
            return;
        }
        append_xml_entities(raw.substr(i, at - i), out);
        out.append(raw.substr(at + open.size(), end - at - open.size()));
        i = end + 3;
    }
}

// Python's str.isspace().
inline bool is_python_space(std::uint32_t cp) noexcept
{
    return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20) || cp == 0x85 || cp == 0xA0
        || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029
        || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

// Python's str.strip() on UTF-8.
inline std::string_view python_strip(std::string_view s) noexcept
{
    std::uint32_t cp = 0;
    for (std::size_t n; !s.empty() && (n = decode_utf8(s, 0, cp)) != 0 && is_python_space(cp);)
        s.remove_prefix(n);
    while (!s.empty()) {
        std::size_t last = s.size() - 1;
        while (last > 0 && (static_cast<unsigned char>(s[last]) & 0xC0) == 0x80)
            --last;
        if (decode_utf8(s, last, cp) != s.size() - last || !is_python_space(cp))
            break;
        s.remove_suffix(s.size() - last);
    }
    return s;
}

} // namespace toolstream::detail
