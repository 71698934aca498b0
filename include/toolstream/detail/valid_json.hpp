// JSON values made fit for output: every string and key that is not UTF-8 gets U+FFFD for each
// invalid sequence (detail/utf8.hpp). Boost.JSON's serializer writes string bytes as they are,
// so a value holding model text (a delta, a file body, an XML path) is made valid before it is
// written.
#pragma once

#include <toolstream/detail/utf8.hpp>

#include <boost/json/object.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace toolstream::detail {

/// `s` as a JSON string value, invalid sequences replaced (no copy beyond the value's own when
/// it is valid).
inline boost::json::string valid_json_string(std::string_view s)
{
    if (is_valid_utf8(s))
        return boost::json::string(s);
    std::string fixed;
    append_valid_utf8(fixed, s);
    return boost::json::string(fixed);
}

/// Replaces, in place, the invalid sequences of every string and key of `v`. Recursion depth is
/// the value's nesting, bounded by the parser's limit wherever the value came from input.
inline void make_valid_utf8(boost::json::value& v)
{
    if (auto* s = v.if_string()) {
        if (!is_valid_utf8(*s))
            *s = valid_json_string(*s);
    } else if (auto* a = v.if_array()) {
        for (auto& item : *a)
            make_valid_utf8(item);
    } else if (auto* o = v.if_object()) {
        bool keys_valid = true;
        for (auto& member : *o) {
            make_valid_utf8(member.value());
            keys_valid = keys_valid && is_valid_utf8(member.key());
        }
        if (!keys_valid) {   // keys are immutable: rebuild, in order
            boost::json::object fixed(o->storage());
            fixed.reserve(o->size());
            for (auto& member : *o)
                fixed.emplace(valid_json_string(member.key()), std::move(member.value()));
            *o = std::move(fixed);
        }
    }
}

inline void make_valid_utf8(boost::json::object& o)
{
    boost::json::value v(std::move(o));
    make_valid_utf8(v);
    o = std::move(v.get_object());
}

} // namespace toolstream::detail
