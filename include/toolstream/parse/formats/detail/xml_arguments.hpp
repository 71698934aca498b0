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

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/utf8.hpp>
#include <toolstream/error.hpp>
#include <toolstream/parse/engine/call_frame.hpp>
#include <toolstream/parse/formats/detail/xml_text.hpp>

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

inline bool is_xml_name_char(char c, bool first) noexcept
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'
        || static_cast<unsigned char>(c) >= 0x80
        || (!first && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
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
        i = skip_blanks(s, i);
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
template<emitter Emitter>
void end_with_content_arguments(call_frame& call, Emitter& out)
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
