// The tool name and arguments of one JSON tool call written in model text, in any of the shapes
// models are taught (default, OpenAI-like, Gemini-like).
#pragma once

#include <toolstream/detail/parse_json.hpp>
#include <toolstream/error.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <initializer_list>
#include <string>
#include <string_view>

namespace toolstream::detail {

struct json_call {
    std::string name;                ///< Empty when the call names no tool.
    boost::json::object arguments;   ///< `{}` when the call has none.
    std::string error;               ///< Why the arguments are unusable; empty when they are fine.
};

namespace json_call_detail {

inline const boost::json::value* field(const boost::json::object& o, std::string_view key) noexcept
{
    return o.if_contains(key);
}

// The first of `keys` present in `o`.
inline const boost::json::value* first_field(const boost::json::object& o,
                                             std::initializer_list<std::string_view> keys) noexcept
{
    for (auto k : keys)
        if (const auto* v = o.if_contains(k))
            return v;
    return nullptr;
}

// Arguments are an object, or a JSON string holding one (OpenAI's `arguments`); null means none.
inline void read_arguments(const boost::json::value* v, json_call& out)
{
    if (v == nullptr || v->is_null())
        return;
    if (v->is_object()) {
        out.arguments = v->get_object();
        return;
    }
    if (v->is_string()) {
        const std::string_view text = v->get_string();
        if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
            return;
        error_code ec;
        auto parsed = parse_json(text, ec);
        if (ec) {
            out.error = "arguments string is not valid JSON: " + ec.message();
        } else if (!parsed.is_object()) {
            out.error = "arguments string is not a JSON object";
        } else {
            out.arguments = std::move(parsed.get_object());
        }
        return;
    }
    out.error = "arguments are not a JSON object";
}

inline void read_name(const boost::json::value* v, json_call& out)
{
    if (v != nullptr && v->is_string())
        out.name = v->get_string();
}

// `o` holds `function` (a name, or {name, arguments}) or `name`, and the arguments beside them.
inline void read_call(const boost::json::object& o, json_call& out)
{
    const auto* args = first_field(o, {"arguments", "parameters", "args"});
    if (const auto* f = field(o, "function"); f != nullptr && f->is_object()) {
        const auto& fo = f->get_object();
        read_name(field(fo, "name"), out);
        if (const auto* inner = first_field(fo, {"arguments", "parameters", "args"}))
            args = inner;
    } else {
        read_name(f, out);
    }
    if (out.name.empty())
        read_name(field(o, "name"), out);
    read_arguments(args, out);
}

} // namespace json_call_detail

/// Reads one call object:
/// - default `{"tool":{"function":"name","parameters":{…}}}` (also `{"tool":"name","parameters":…}`);
/// - OpenAI-like `{"tool":{"function":{"name":…,"arguments":…}}}`, a `tool_calls`/`tools` entry
///   `{"function":{"name":…,"arguments":…}}`, with `arguments` an object or a JSON string;
/// - Gemini-like `{"name":…,"args":{…}}`.
/// Text that is not a JSON object, or arguments that are not an object (or a JSON string holding
/// one), give an error. A call that names no tool has an empty name.
inline json_call extract_json_call(std::string_view text)
{
    json_call out;
    error_code ec;
    auto v = parse_json(text, ec);
    if (ec) {
        out.error = "tool call is not valid JSON: " + ec.message();
        return out;
    }
    if (!v.is_object()) {
        out.error = "tool call is not a JSON object";
        return out;
    }
    const auto& o = v.get_object();
    if (const auto* t = json_call_detail::field(o, "tool"); t != nullptr && t->is_object()) {
        json_call_detail::read_call(t->get_object(), out);
    } else if (t != nullptr && t->is_string()) {
        out.name = t->get_string();
        json_call_detail::read_arguments(json_call_detail::first_field(o, {"parameters", "arguments", "args"}), out);
    } else {
        json_call_detail::read_call(o, out);
    }
    return out;
}

} // namespace toolstream::detail
