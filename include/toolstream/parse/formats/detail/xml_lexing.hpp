// Lexing pieces of the xml policy: reading a tag up to its '>' across chunks, the lenient
// reading of a complete tag's name and attributes, and the values read from them.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/literal_words.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/formats/detail/xml_arguments.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// True when `text` starts with `prefix`, ASCII case-insensitively.
inline bool istarts_with(std::string_view text, std::string_view prefix) noexcept
{
    return text.size() >= prefix.size() && scan::common_prefix(text, prefix, true) == prefix.size();
}

/// What the bytes at a '<' turned out to be.
struct tag_scan {
    enum class kind {
        more,     ///< Undecided: hold everything from the '<' and feed more.
        tag,      ///< A tag of `size` bytes, '<' through '>'.
        not_tag,  ///< The first `size` bytes are plain characters.
        section,  ///< `<![CDATA[` or `<!--` (`size` bytes) opens a section read to its end.
    };
    kind type = kind::more;
    std::size_t size = 0;
};

/// Reads the tag that starts at `v[0] == '<'`: it ends at the first '>'. A '<' before it, or no
/// '>' within the first `cap` bytes, makes the bytes before it plain characters (XML forbids '<'
/// inside a tag, and it bounds what is held). `hint` (0 for a new tag) remembers how far a
/// previous call searched, so each byte is searched once whatever the chunking.
inline tag_scan scan_tag(std::string_view v, std::size_t& hint, std::size_t cap) noexcept
{
    const std::size_t limit = v.size() < cap ? v.size() : cap;
    for (std::size_t i = hint > 1 ? hint : 1; i < limit; ++i) {
        if (v[i] == '>')
            return {tag_scan::kind::tag, i + 1};
        if (v[i] == '<')
            return {tag_scan::kind::not_tag, i};
    }
    if (limit == cap)
        return {tag_scan::kind::not_tag, cap};
    hint = limit;
    return {};
}

/// Whether the byte after '<' can begin markup (a name, '/', '!' or '?'): `a < b` cannot.
constexpr bool can_start_markup(char c) noexcept
{
    return c == '/' || c == '!' || c == '?' || is_xml_name_char(c, true);
}

/// A complete tag, read leniently.
struct xml_tag_view {
    std::string_view name;
    std::string_view attributes;   // between the name and the closing '>' or '/>'
    bool closing = false;          // </name>
    bool self_closing = false;     // <name .../>
};

/// Splits a complete tag (`<` … `>`) into name and attributes. Accepts `</tool >` and any
/// spacing; nullopt when no name follows '<' or '</'.
inline std::optional<xml_tag_view> read_tag(std::string_view tag) noexcept
{
    xml_tag_view t;
    std::size_t i = 1;
    if (i < tag.size() && tag[i] == '/') {
        t.closing = true;
        ++i;
    }
    const std::size_t from = i;
    while (i < tag.size() && is_xml_name_char(tag[i], i == from))
        ++i;
    t.name = tag.substr(from, i - from);
    if (t.name.empty() || i == tag.size() || !(is_blank(tag[i]) || tag[i] == '>' || tag[i] == '/'))
        return std::nullopt;
    std::size_t end = tag.size() - 1;   // the '>'
    if (!t.closing && end > i && tag[end - 1] == '/') {
        t.self_closing = true;
        --end;
    }
    t.attributes = tag.substr(i, end - i);
    return t;
}

inline bool is_tag(const std::optional<xml_tag_view>& t, std::string_view name, bool closing) noexcept
{
    return t && t->closing == closing && t->name.size() == name.size() && istarts_with(t->name, name);
}

/// The raw value of attribute `key` (ASCII case-insensitive) in `attributes`: `key = "v"` or
/// `key='v'` with any spacing, as AutoByteus's XML parser finds it (`name\s*=\s*["']…["']`), except that
/// the key must be a whole attribute name. Empty values count as absent.
inline std::optional<std::string_view> find_attribute(std::string_view attributes, std::string_view key) noexcept
{
    std::size_t i = 0;
    const auto skip_space = [&] {
        while (i < attributes.size() && is_blank(attributes[i]))
            ++i;
    };
    for (;;) {
        skip_space();
        const std::size_t from = i;
        while (i < attributes.size() && !is_blank(attributes[i]) && attributes[i] != '=')
            ++i;
        if (i == from)
            return std::nullopt;
        const std::string_view name = attributes.substr(from, i - from);
        skip_space();
        if (i == attributes.size() || attributes[i] != '=')
            continue;   // a valueless attribute
        ++i;
        skip_space();
        if (i == attributes.size() || (attributes[i] != '"' && attributes[i] != '\''))
            return std::nullopt;
        const std::size_t close = attributes.find(attributes[i], i + 1);
        if (close == std::string_view::npos)
            return std::nullopt;
        const std::string_view value = attributes.substr(i + 1, close - i - 1);
        i = close + 1;
        if (name.size() == key.size() && istarts_with(name, key) && !value.empty())
            return value;
    }
}

/// An attribute or argument value as a string: entities (and CDATA) decoded, then stripped as
/// Python's str.strip() does, the way the argument parser reads values.
inline std::string xml_value(std::string_view raw)
{
    std::string decoded;
    append_xml_text(raw, decoded);
    return std::string(python_strip(decoded));
}

/// Sets a run_bash option from an attribute or an <arg>: `background` (true/1/yes and
/// false/0/no become booleans) or else `timeout_seconds` (alias `timeoutSeconds`; digits become
/// an integer); other values stay strings.
inline void set_shell_option(std::string_view key, std::string_view raw, boost::json::object& meta)
{
    const std::string value = xml_value(raw);
    if (iequals_ascii(key, "background")) {
        const std::string_view literal = json_literal_of(value, json_words | yes_no_words | digit_words, letter_case::any);
        if (literal == "true" || literal == "false")
            meta["background"] = literal == "true";
        else
            meta["background"] = value;
        return;
    }
    const bool digits = !value.empty() && value.size() <= 18
        && std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits)
        meta["timeout_seconds"] = std::stoll(value);
    else
        meta["timeout_seconds"] = value;
}

inline void set_shell_options(std::string_view attributes, boost::json::object& meta)
{
    for (std::string_view key : {"background", "timeout_seconds", "timeoutSeconds"})
        if (const auto value = find_attribute(attributes, key))
            set_shell_option(key, *value, meta);
}

} // namespace toolstream::detail
