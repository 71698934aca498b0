// Turns the XML arguments of a <tool> call into a JSON object, with the semantics of the Python
// reference (ElementTree plus its lenient retry), in one linear pass with an explicit stack.
//
// Which inputs give what:
//   - error::invalid_arguments: the input is not valid UTF-8 (no JSON string could hold it).
//   - error::nesting_too_deep: an element opens deeper than max_depth (the wrapper counts as a
//     level), checked before anything is allocated for it. This also bounds the depth of the
//     result, whose Boost.JSON destructor recurses.
//   - {} (success): empty input, plain text, and any structural error: an end tag that does not
//     match the open element, a stray end tag, or elements still open at the end. Python gives
//     {} for these too (its legacy fallback regex never matches).
// Leniency beyond XML, where Python's retry escapes bare '&' and '<': a '<' that starts no
// well-formed tag, comment, CDATA section or processing instruction is literal text, and so is
// an '&' that starts no valid entity. Entities are the five named ones and &#N;/&#xH; for any
// character XML allows (so &#0; and &#6; stay literal; Python gives {} for those). Line ends and
// attribute whitespace are kept as written (XML would normalise them).
//
// Deliberate differences from Python: the <arguments> wrapper is the first *top-level* element
// of that name (any case, attributes allowed), not the first textual match anywhere; text after
// it is ignored unparsed. An <item> is valued like any element, so <item>s inside an <item> make
// a nested array. CDATA is always verbatim (Python's retry turns its '&' into "&amp;").
#pragma once

#include <toolstream/detail/blanks.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/error.hpp>
#include <toolstream/policies/detail/call_frame.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/string.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::detail {

// Length of the strictly valid UTF-8 sequence at `i` (no overlong forms, surrogates or values
// above U+10FFFF, as Boost.JSON requires), storing its value in `cp`; 0 if invalid.
inline std::size_t decode_utf8(std::string_view s, std::size_t i, std::uint32_t& cp) noexcept
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = byte(0);
    const std::size_t n = c < 0x80 ? 1 : c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
    if (n == 0 || s.size() - i < n)
        return 0;
    cp = n == 1 ? c : c & (0x7Fu >> n);
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(k) & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (byte(k) & 0x3Fu);
    }
    static constexpr std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

inline void append_utf8(std::uint32_t cp, std::string& out)
{
    static constexpr unsigned char lead[] = {0x00, 0xC0, 0xE0, 0xF0};
    const int tail = cp < 0x80 ? 0 : cp < 0x800 ? 1 : cp < 0x10000 ? 2 : 3;
    out += static_cast<char>(lead[tail] | (cp >> (6 * tail)));
    for (int k = tail - 1; k >= 0; --k)
        out += static_cast<char>(0x80 | ((cp >> (6 * k)) & 0x3F));
}

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

inline bool is_xml_name_char(char c, bool first) noexcept
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'
        || static_cast<unsigned char>(c) >= 0x80
        || (!first && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
}

inline bool iequals_ascii(std::string_view a, std::string_view b) noexcept
{
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [&](char x, char y) { return lower(x) == lower(y); });
}

// A well-formed start, empty-element or end tag.
struct xml_tag {
    enum class kind { open, empty, close } type = kind::open;
    std::string_view name;
    std::optional<std::string_view> name_attr;   // raw value of the `name` attribute
    std::size_t end = 0;                          // one past the '>'
};

// Scans the tag whose '<' is at `at`. Tags may not contain '<' (XML forbids it even in attribute
// values), so a failed scan stops before the next '<' and all scans together stay linear.
inline std::optional<xml_tag> scan_xml_tag(std::string_view s, std::size_t at) noexcept
{
    std::size_t i = at + 1;
    const auto is = [&](char c) { return i < s.size() && s[i] == c; };
    const auto skip_space = [&] {
        const std::size_t from = i;
        while (is(' ') || is('\t') || is('\n') || is('\r')) ++i;
        return i > from;
    };
    const auto scan_name = [&] {
        const std::size_t from = i;
        while (i < s.size() && is_xml_name_char(s[i], i == from)) ++i;
        return s.substr(from, i - from);
    };

    xml_tag tag;
    if (is('/')) {
        tag.type = xml_tag::kind::close;
        ++i;
    }
    if ((tag.name = scan_name()).empty())
        return std::nullopt;
    for (;;) {
        const bool spaced = skip_space();
        if (is('>') || (tag.type == xml_tag::kind::open && is('/') && s.substr(i, 2) == "/>")) {
            if (s[i] == '/')
                tag.type = xml_tag::kind::empty;
            tag.end = s.find('>', i) + 1;
            return tag;
        }
        // Anything else must be ` attr = "value"` (or single quotes) in a start tag.
        if (tag.type == xml_tag::kind::close || !spaced)
            return std::nullopt;
        const std::string_view attr = scan_name();
        skip_space();
        if (attr.empty() || !is('='))
            return std::nullopt;
        ++i;
        skip_space();
        if (!is('"') && !is('\''))
            return std::nullopt;
        const char quote = s[i++];
        const std::size_t from = i;
        while (i < s.size() && s[i] != quote && s[i] != '<') ++i;
        if (!is(quote))
            return std::nullopt;
        if (attr == "name")
            tag.name_attr = s.substr(from, i - from);
        ++i;
    }
}

// Finds `needle` from positions that only grow (and are never 0), remembering the last answer
// so that many unterminated openers do not each rescan the rest of the input.
struct xml_finder {
    std::string_view needle;
    std::size_t found = 0;

    std::size_t find(std::string_view s, std::size_t from)
    {
        if (found < from)   // npos never is: once absent, absent for good
            found = s.find(needle, from);
        return found;
    }
};

// One open element. The root and the <arguments> wrapper collect every child by key; any other
// element becomes an array (if it has <item> children), an object (other children) or its text.
struct xml_frame {
    std::string_view tag;
    std::string key;
    bool is_item = false;
    bool keyed_only = false;   // root or wrapper
    bool has_children = false;
    std::string text;          // kept only until the first child element, as ElementTree's .text
    boost::json::object members;
    boost::json::array items;

    boost::json::value take_value()
    {
        if (!items.empty())
            return std::move(items);
        if (has_children)
            return std::move(members);
        return boost::json::string(python_strip(text));
    }
};

/// Parses the inner text of a <tool> element (what follows <tool name="x"> up to </tool>) into
/// the JSON arguments object. See the top of this file for what succeeds and what fails.
inline result<boost::json::object> parse_xml_arguments(std::string_view xml,
                                                       std::size_t max_depth = 64)
{
    std::uint32_t cp = 0;
    for (std::size_t i = 0, n = 0; i < xml.size(); i += n)
        if ((n = decode_utf8(xml, i, cp)) == 0)
            return make_error_code(error::invalid_arguments);

    std::vector<xml_frame> stack(1);
    stack[0].keyed_only = true;
    xml_finder comment_end{"-->"}, cdata_end{"]]>"}, pi_end{"?>"};
    const auto collecting = [&] { return !stack.back().keyed_only && !stack.back().has_children; };

    // Hands the finished top element to its parent. Closing the wrapper ends the parse: its
    // members replace whatever the root had collected, and the rest of the input is ignored.
    const auto close_top = [&] {
        xml_frame done = std::move(stack.back());
        stack.pop_back();
        if (done.keyed_only) {
            stack[0].members = std::move(done.members);
            return true;
        }
        xml_frame& parent = stack.back();
        if (done.is_item && !parent.keyed_only)
            parent.items.push_back(done.take_value());
        else
            parent.members.insert_or_assign(done.key, done.take_value());   // last one wins
        return false;
    };

    for (std::size_t i = 0; i < xml.size();) {
        const std::size_t lt = xml.find('<', i);
        if (collecting())
            append_xml_entities(xml.substr(i, lt == std::string_view::npos ? lt : lt - i),
                                stack.back().text);
        if (lt == std::string_view::npos)
            break;
        i = lt;
        const std::string_view rest = xml.substr(i);
        std::size_t end = std::string_view::npos;
        if (rest.starts_with("<!--")) {
            if ((end = comment_end.find(xml, i + 4)) != std::string_view::npos) {
                i = end + 3;
                continue;
            }
        } else if (rest.starts_with("<![CDATA[")) {
            if ((end = cdata_end.find(xml, i + 9)) != std::string_view::npos) {
                if (collecting())
                    stack.back().text.append(xml.substr(i + 9, end - i - 9));
                i = end + 3;
                continue;
            }
        } else if (rest.starts_with("<?") && rest.size() > 2 && is_xml_name_char(rest[2], true)) {
            if ((end = pi_end.find(xml, i + 2)) != std::string_view::npos) {
                i = end + 2;
                continue;
            }
        } else if (const auto tag = scan_xml_tag(xml, i)) {
            i = tag->end;
            if (tag->type == xml_tag::kind::close) {
                if (stack.size() == 1 || !iequals_ascii(tag->name, stack.back().tag))
                    return boost::json::object{};
                if (close_top())
                    return std::move(stack[0].members);
                continue;
            }
            if (stack.size() > max_depth)
                return make_error_code(error::nesting_too_deep);
            stack.back().has_children = true;
            stack.back().text.clear();
            xml_frame child;
            child.tag = tag->name;
            child.is_item = tag->name == "item";   // case-sensitive, as ElementTree compares
            if (tag->name_attr)
                append_xml_entities(*tag->name_attr, child.key);
            if (child.key.empty())
                child.key = tag->name;
            // The first top-level <arguments> is the wrapper (the parse ends when it closes).
            child.keyed_only = stack.size() == 1 && iequals_ascii(tag->name, "arguments");
            stack.push_back(std::move(child));
            if (tag->type == xml_tag::kind::empty && close_top())
                return std::move(stack[0].members);
            continue;
        }
        // Nothing well-formed starts here: the '<' is text.
        if (collecting())
            stack.back().text += '<';
        ++i;
    }
    if (stack.size() > 1)
        return boost::json::object{};
    return std::move(stack[0].members);
}

} // namespace toolstream::detail

namespace toolstream::detail {

/// Ends a tool_call `complete` whose arguments are its content written as XML
/// (`<arg name="k">v</arg>`…), or as a JSON object: their JSON goes to the writer as one
/// fragment, as XML cannot stream as JSON (a later `<arg>` may replace an earlier one). XML that
/// does not parse ends it `invalid_arguments`; empty content means no arguments.
template<class Writer>
void end_with_content_arguments(call_frame& call, Writer& out)
{
    const std::string_view body = out.content_of(call.ensure_started(out));
    const std::string_view json = skip_blanks(body);
    if (json.empty()) {
        call.end(out);
    } else if (json.front() == '{') {
        call.add(byte_role::argument, body, out);
        call.end(out);
    } else if (auto parsed = parse_xml_arguments(body)) {
        std::string json;
        append_compact_json(json, boost::json::value(std::move(*parsed)));
        call.add(byte_role::argument, json, out);
        call.end(out);
    } else {
        call.end(out, segment_status::invalid_arguments, parsed.error().message());
    }
}

} // namespace toolstream::detail
