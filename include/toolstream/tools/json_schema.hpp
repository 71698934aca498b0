// JSON Schema from a described struct: the one source of every provider's tool definition.
//
// | C++ member type                     | JSON Schema                                            |
// |-------------------------------------|--------------------------------------------------------|
// | `bool`                              | `{"type":"boolean"}`                                   |
// | signed integers                     | `{"type":"integer"}`                                   |
// | unsigned integers                   | `{"type":"integer","minimum":0}`                       |
// | `float`, `double`, `long double`    | `{"type":"number"}`                                    |
// | `std::string`                       | `{"type":"string"}`                                    |
// | described enum                      | `{"type":"string","enum":[enumerator names]}`          |
// | described struct (and its bases)    | `{"type":"object","properties":{…},"required":[…],"additionalProperties":false}` |
// | `std::optional<T>` member           | schema of T, left out of `required`                    |
// | `std::vector<T>`                    | `{"type":"array","items":schema of T}`                 |
// | `std::map<std::string, T>` (or unordered) | `{"type":"object","additionalProperties":schema of T}` |
//
// With `schema_options::strict` (OpenAI strict mode) every member is required and an optional
// one is nullable instead: `"type":["string","null"]`, and `null` joins an `enum`. A map cannot
// be strict (strict mode needs `additionalProperties:false` on every object): see strict_capable().
// field_info<T> adds descriptions and constraints. Recursive types are not supported.
#pragma once

#include <toolstream/tools/detail/type_classes.hpp>
#include <toolstream/tools/field_info.hpp>

#include <boost/describe/enumerators.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>

#include <cstdint>
#include <string_view>
#include <type_traits>

namespace toolstream {

struct schema_options {
    /// OpenAI strict mode: every member required, optional members nullable.
    bool strict = false;
};

namespace detail {

/// `schema` may also be null: `"type":[t,"null"]`, and null joins an enum.
inline void make_nullable(boost::json::object& schema)
{
    if (auto* type = schema.if_contains("type"); type && type->is_string())
        *type = boost::json::array{*type, "null"};
    if (auto* values = schema.if_contains("enum"); values && values->is_array())
        values->get_array().emplace_back(nullptr);
}

/// A bound as JSON: an integer when it is one (`1`, not `1E0`).
inline boost::json::value bound_value(double bound)
{
    if (bound >= -9.0e15 && bound <= 9.0e15 && bound == static_cast<double>(static_cast<std::int64_t>(bound)))
        return static_cast<std::int64_t>(bound);
    return bound;
}

/// True if the schema's `type` is `name`, or a list holding it.
inline bool has_type(const boost::json::object& schema, std::string_view name)
{
    const auto* type = schema.if_contains("type");
    if (type && type->is_string())
        return type->get_string() == name;
    if (type && type->is_array())
        for (const auto& t : type->get_array())
            if (t.is_string() && t.get_string() == name)
                return true;
    return false;
}

inline void add_description(boost::json::object& schema, const field_doc* doc)
{
    if (doc && !doc->description.empty())
        schema["description"] = doc->description;
}

template<class T>
boost::json::object schema_for(const field_doc* doc, const schema_options& options);

template<described_struct T>
boost::json::object struct_schema(const field_doc* doc, const schema_options& options)
{
    static_assert(field_docs_name_members<T>(), "toolstream::field_info<T> names a member that T does not describe");
    boost::json::object schema{{"type", "object"}};
    add_description(schema, doc);
    boost::json::object properties;
    boost::json::array required;
    boost::mp11::mp_for_each<described_members_of<T>>([&](auto member) {
        using M = std::remove_cvref_t<decltype(std::declval<T&>().*member.pointer)>;
        boost::json::object property = schema_for<M>(find_field_doc<T>(member.name), options);
        if constexpr (optional_type<M>) {
            if (options.strict)
                make_nullable(property);
        }
        if (!optional_type<M> || options.strict)
            required.emplace_back(member.name);
        properties.emplace(member.name, std::move(property));
    });
    schema["properties"] = std::move(properties);
    schema["required"] = std::move(required);
    schema["additionalProperties"] = false;
    return schema;
}

template<class T>
boost::json::object schema_for(const field_doc* doc, const schema_options& options)
{
    if constexpr (optional_type<T>) {
        // The member-level meaning (may be absent) is the struct's business; here, inside an
        // array or a map, an optional element may be null.
        return schema_for<typename T::value_type>(doc, options);
    } else if constexpr (described_struct<T>) {
        return struct_schema<T>(doc, options);
    } else if constexpr (vector_type<T> || string_map_type<T>) {
        using element = element_t<T>;
        const field_doc inner = element_doc(doc);
        boost::json::object item = schema_for<element>(&inner, options);
        if constexpr (optional_type<element>)
            make_nullable(item);
        boost::json::object schema{{"type", vector_type<T> ? "array" : "object"}};
        add_description(schema, doc);
        if constexpr (vector_type<T>) {
            schema["items"] = std::move(item);
            if (doc && doc->min_items)
                schema["minItems"] = *doc->min_items;
            if (doc && doc->max_items)
                schema["maxItems"] = *doc->max_items;
        } else {
            schema["additionalProperties"] = std::move(item);
        }
        return schema;
    } else if constexpr (described_enum<T>) {
        boost::json::object schema{{"type", "string"}};
        add_description(schema, doc);
        boost::json::array names;
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>(
            [&](auto e) { names.emplace_back(e.name); });
        schema["enum"] = std::move(names);
        return schema;
    } else if constexpr (boolean_type<T> || integer_type<T> || number_type<T> || string_type<T>) {
        boost::json::object schema{
            {"type", boolean_type<T> ? "boolean" : integer_type<T> ? "integer" : number_type<T> ? "number" : "string"}};
        add_description(schema, doc);
        if constexpr (integer_type<T> || number_type<T>) {
            if (doc && doc->minimum)
                schema["minimum"] = bound_value(*doc->minimum);
            else if (std::is_unsigned_v<T>)
                schema["minimum"] = 0;
            if (doc && doc->maximum)
                schema["maximum"] = bound_value(*doc->maximum);
        }
        if constexpr (string_type<T>) {
            if (doc && !doc->pattern.empty())
                schema["pattern"] = doc->pattern;
        }
        return schema;
    } else {
        static_assert(unsupported_type<T>,
                      "toolstream::json_schema: this member type has no JSON Schema mapping (see the table in "
                      "toolstream/tools/json_schema.hpp)");
        return {};
    }
}

} // namespace detail

/// The JSON Schema of a described struct's public members (inherited ones included).
template<described_struct T>
boost::json::object json_schema(const schema_options& options = {})
{
    return detail::struct_schema<T>(nullptr, options);
}

/// Whether OpenAI strict mode can take `schema`: every object closed by `additionalProperties:false`.
inline bool strict_capable(const boost::json::object& schema)
{
    if (detail::has_type(schema, "object")) {
        const auto* extra = schema.if_contains("additionalProperties");
        if (!extra || !extra->is_bool() || extra->get_bool())
            return false;
    }
    for (const char* key : {"properties", "items", "additionalProperties"}) {
        const auto* child = schema.if_contains(key);
        if (!child || !child->is_object())
            continue;
        if (std::string_view(key) == "properties") {
            for (const auto& property : child->get_object())
                if (property.value().is_object() && !strict_capable(property.value().get_object()))
                    return false;
        } else if (!strict_capable(child->get_object())) {
            return false;
        }
    }
    return true;
}

} // namespace toolstream
