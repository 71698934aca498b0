// JSON Schema → the OpenAPI 3.0 subset that Gemini's FunctionDeclaration.parameters takes
// (ai.google.dev/api/caching#Schema): upper-case type names, `nullable` instead of a type list,
// `format:"enum"` beside string enums, and nothing Gemini rejects (`additionalProperties`,
// `$schema`, unknown keywords).
#pragma once

#include <toolstream/tools/json_schema.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace toolstream::detail {

inline boost::json::string gemini_type_name(std::string_view json_schema_type)
{
    boost::json::string out;
    for (char c : json_schema_type)
        out.push_back((c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c);
    return out;
}

/// The Gemini Schema for a JSON Schema `schema` (of the kind json_schema() writes).
inline boost::json::object to_gemini_schema(const boost::json::object& schema)
{
    boost::json::object out;
    if (const auto* type = schema.if_contains("type")) {
        if (type->is_string()) {
            out["type"] = gemini_type_name(type->get_string());
        } else if (type->is_array()) {
            for (const auto& t : type->get_array()) {
                if (!t.is_string())
                    continue;
                if (t.get_string() == "null")
                    out["nullable"] = true;
                else if (!out.contains("type"))
                    out["type"] = gemini_type_name(t.get_string());
            }
        }
    }
    if (const auto* description = schema.if_contains("description"))
        out["description"] = *description;
    if (const auto* values = schema.if_contains("enum"); values && values->is_array()) {
        boost::json::array names;
        for (const auto& v : values->get_array())
            if (v.is_string())
                names.push_back(v);
        out["format"] = "enum";
        out["enum"] = std::move(names);
    }
    if (const auto* properties = schema.if_contains("properties"); properties && properties->is_object()) {
        boost::json::object converted;
        for (const auto& p : properties->get_object())
            if (p.value().is_object())
                converted[p.key()] = to_gemini_schema(p.value().get_object());
        out["properties"] = std::move(converted);
    }
    if (const auto* items = schema.if_contains("items"); items && items->is_object())
        out["items"] = to_gemini_schema(items->get_object());
    for (const char* key : {"required", "minimum", "maximum", "pattern", "minItems", "maxItems"})
        if (const auto* v = schema.if_contains(key))
            out[key] = *v;
    return out;
}

/// Whether Gemini's `parameters` can say what `schema` says: every object has named
/// properties (Gemini rejects an OBJECT without them, and has no `additionalProperties`).
inline bool gemini_expressible(const boost::json::object& schema)
{
    if (has_type(schema, "object")) {
        const auto* properties = schema.if_contains("properties");
        if (!properties || !properties->is_object() || properties->get_object().empty())
            return false;
        for (const auto& p : properties->get_object())
            if (p.value().is_object() && !gemini_expressible(p.value().get_object()))
                return false;
    }
    if (const auto* items = schema.if_contains("items"); items && items->is_object())
        return gemini_expressible(items->get_object());
    return true;
}

} // namespace toolstream::detail
