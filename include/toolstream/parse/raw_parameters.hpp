// Schema-driven typing of raw-text parameter values, for the key/value text formats
// (qwen3_coder, glm45, minimax_m2) whose values arrive as text: `<parameter=qty>3</parameter>`.
// Light on purpose: Boost.JSON only, no Describe, so a text format can include it.
//
// convert_raw_parameter(schema, raw) follows vLLM's qwen3_coder `_convert_param_value`. The
// property's types are its `type` (a name or a list) and its `anyOf`/`oneOf` entries' types, in
// order, lower-cased and trimmed. A union types the text as its first non-string member that reads
// it, wherever a string member stands; text no member reads stays a string, as written (llama.cpp
// types unions so: `{"a": 1}` under string|object is an object, `42` under string|integer an
// integer, `many` under integer|string a string):
//
// | schema type                                        | raw text becomes                            |
// |----------------------------------------------------|---------------------------------------------|
// | none, `string`, `str`, `text`, `varchar`, `char`, `enum`, unknown | the string, unchanged         |
// | `int*`, `uint*`, `long*`, `short*`, `unsigned*`     | an integer: `[+-]digits`, int64 or uint64   |
// | `num*`, `float*`, `double`                         | a number; an integral one becomes an integer (`5.0` → `5`) |
// | `boolean`, `bool`, `binary`                        | `true` / `false`, any case                  |
// | `object`, `dict*` / `array`, `arr`, `list*`        | the JSON text parsed, else the text read as a Python literal (`[{'a': True}]`, as SGLang's and vLLM's qwen3_coder), if it is an object / array (a list, tuple or set) |
// | `null`                                             | null                                        |
//
// `null` or `none` (any case) becomes null for a type that admits null (a `null` member:
// `["string","null"]`, `anyOf` with `{"type":"null"}`) and for a type without a string member. Outside the string case, surrounding whitespace is
// ignored. Any value that does not convert stays the string it was. Where vLLM differs: it
// turns a boolean it cannot read into `false`, reads `1_000` as a number and a type it does not
// know as a Python literal, accepts any JSON or literal for object/array types (`3` as an
// object), and keeps Python's big integers; here those values stay strings (and integers beyond
// 64 bits stay strings).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/literal_words.hpp>
#include <toolstream/detail/parse_json.hpp>
#include <toolstream/detail/python_text.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <system_error>

namespace toolstream {

namespace detail {

enum class raw_kind { string, integer, number, boolean, object, array, null };

/// A property's type: its members in schema order (a type name, a type list, `anyOf`/`oneOf`
/// entries), without `null`, which `nullable` notes. No member: a string.
struct raw_type {
    static constexpr std::size_t max_members = 8;
    std::array<raw_kind, max_members> members{};
    std::size_t count = 0;
    bool nullable = false;

    void add(raw_kind k) noexcept
    {
        if (k == raw_kind::null) {
            nullable = true;
            return;
        }
        for (std::size_t i = 0; i < count; ++i)
            if (members[i] == k)
                return;
        if (count < max_members)
            members[count++] = k;
    }
    /// The value is text as written: no conversion can apply.
    bool is_plain_string() const noexcept { return !nullable && (count == 0 || (count == 1 && members[0] == raw_kind::string)); }
};

inline std::string_view trim_ascii(std::string_view s) noexcept
{
    constexpr std::string_view space = " \t\r\n\f\v";
    const auto first = s.find_first_not_of(space);
    if (first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(space) - first + 1);
}

inline raw_kind raw_kind_of(std::string_view type_name)
{
    std::string t;
    for (char c : trim_ascii(type_name))
        t += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    const std::string_view n = t;
    auto starts = [&](std::string_view p) { return n.substr(0, p.size()) == p; };
    if (starts("int") || starts("uint") || starts("long") || starts("short") || starts("unsigned"))
        return raw_kind::integer;
    if (starts("num") || starts("float") || n == "double")
        return raw_kind::number;
    if (n == "boolean" || n == "bool" || n == "binary")
        return raw_kind::boolean;
    if (n == "object" || starts("dict"))
        return raw_kind::object;
    if (n == "array" || n == "arr" || starts("list"))
        return raw_kind::array;
    if (n == "null")
        return raw_kind::null;
    return raw_kind::string;
}

/// Adds the members of a `type` value (a name or a list of names).
inline void take_type(const boost::json::value& type, raw_type& out)
{
    if (type.is_string())
        out.add(raw_kind_of(type.get_string()));
    else if (type.is_array())
        for (const auto& entry : type.get_array())
            if (entry.is_string())
                out.add(raw_kind_of(entry.get_string()));
}

inline raw_type raw_type_of(const boost::json::value* schema)
{
    raw_type out;
    if (!schema || !schema->is_object())
        return out;
    const auto& object = schema->get_object();
    if (const auto* type = object.if_contains("type"))
        take_type(*type, out);
    for (const char* key : {"anyOf", "oneOf"}) {
        const auto* options = object.if_contains(key);
        if (!options || !options->is_array())
            continue;
        for (const auto& option : options->get_array())
            if (const auto* type = option.is_object() ? option.get_object().if_contains("type") : nullptr)
                take_type(*type, out);
    }
    return out;
}

/// `[+-]digits` as int64, or uint64 past its range; null if it is not that.
inline boost::json::value parse_raw_integer(std::string_view t)
{
    const bool plus = !t.empty() && t[0] == '+';
    const std::string_view digits = plus ? t.substr(1) : t;
    if (digits.empty() || digits[0] == '+' || (digits[0] == '-' && plus))
        return nullptr;
    const char* end = digits.data() + digits.size();
    std::int64_t i = 0;
    auto r = std::from_chars(digits.data(), end, i);
    if (r.ec == std::errc{} && r.ptr == end)
        return i;
    std::uint64_t u = 0;
    if (r.ec == std::errc::result_out_of_range && digits[0] != '-') {
        auto ru = std::from_chars(digits.data(), end, u);
        if (ru.ec == std::errc{} && ru.ptr == end)
            return u;
    }
    return nullptr;
}

#if defined(__cpp_lib_to_chars)
/// `[-]digits[.digits][e[+-]digits]` (either side of the point may be empty, not both) as a double.
inline bool decimal_to_double(std::string_view text, double& d)
{
    const char* end = text.data() + text.size();
    auto r = std::from_chars(text.data(), end, d);
    return r.ec == std::errc{} && r.ptr == end;
}
#else
// libc++ 16 has no floating-point std::from_chars. The same grammar is checked here and rewritten
// as a JSON number (`.5` -> `0.5`, `5.` -> `5.0`, leading zeros dropped) for Boost.JSON, whose
// number parser ignores the locale as from_chars does.
inline bool decimal_to_double(std::string_view text, double& d)
{
    std::size_t i = 0;
    std::string json;
    if (i < text.size() && text[i] == '-')
        json += text[i++];
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            ++i;
        return text.substr(from, i - from);
    };
    std::string_view whole = digits(), fraction;
    const bool point = i < text.size() && text[i] == '.';
    if (point) {
        ++i;
        fraction = digits();
    }
    if (whole.empty() && fraction.empty())
        return false;
    const bool zero = whole.find_first_not_of('0') == std::string_view::npos
                      && fraction.find_first_not_of('0') == std::string_view::npos;
    while (whole.size() > 1 && whole[0] == '0')
        whole.remove_prefix(1);
    json.append(whole.empty() ? std::string_view("0") : whole);
    if (point)
        json.append(".").append(fraction.empty() ? std::string_view("0") : fraction);
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        json += text[i++];
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            json += text[i++];
        const std::string_view exponent = digits();
        if (exponent.empty())
            return false;
        json.append(exponent);
    }
    if (i != text.size())
        return false;
    if (zero) {   // Boost.JSON 1.81 reads a zero with a large exponent as NaN (detail/parse_json.hpp)
        d = json[0] == '-' ? -0.0 : 0.0;
        return true;
    }
    boost::system::error_code ec;
    const boost::json::value v = boost::json::parse(json, ec);
    if (ec || !v.is_number())
        return false;
    d = v.to_number<double>();
    return true;
}
#endif

/// A finite decimal number (`1.5`, `-2e3`, `.5`, `+7`); integral values become int64.
inline boost::json::value parse_raw_number(std::string_view t)
{
    const std::string_view text = (!t.empty() && t[0] == '+') ? t.substr(1) : t;
    if (text.empty() || text[0] == '+' || (text[0] == '-' && text.size() != t.size()))
        return nullptr;
    double d = 0;
    if (!decimal_to_double(text, d) || !std::isfinite(d))
        return nullptr;
    if (d == std::trunc(d) && std::abs(d) < 9.2e18)
        return static_cast<std::int64_t>(d);
    return d;
}

/// The trimmed text `t` as `kind`; null when it is not one (a string member: the text).
inline boost::json::value convert_raw_as(raw_kind kind, std::string_view t)
{
    switch (kind) {
    case raw_kind::integer: return parse_raw_integer(t);
    case raw_kind::number: return parse_raw_number(t);
    case raw_kind::boolean:
        if (const std::string_view literal = json_literal_of(t, json_words, letter_case::any); literal == "true" || literal == "false")
            return literal == "true";
        return nullptr;
    case raw_kind::object:
    case raw_kind::array: {
        boost::system::error_code ec;
        boost::json::value parsed = parse_json(t, ec);
        if (ec)   // JSON first: where both read the text (`"\/"`), JSON's reading is the value
            parsed = parse_python_literal(t).value_or(nullptr);
        if (kind == raw_kind::object ? parsed.is_object() : parsed.is_array())
            return parsed;
        return nullptr;
    }
    case raw_kind::string:
    case raw_kind::null: break;
    }
    return nullptr;
}

} // namespace detail

/// `raw` typed by `property_schema` (the property's JSON Schema; null: no schema, `raw` stays a
/// string). See the table at the top of this header.
inline boost::json::value convert_raw_parameter(const boost::json::value* property_schema, std::string_view raw)
{
    using detail::raw_kind;
    const detail::raw_type type = detail::raw_type_of(property_schema);
    const std::string_view t = detail::trim_ascii(raw);
    const bool string_member = type.count == 0
        || std::find(type.members.begin(), type.members.begin() + static_cast<std::ptrdiff_t>(type.count), raw_kind::string)
            != type.members.begin() + static_cast<std::ptrdiff_t>(type.count);
    // `null` is null where the type admits it, and for every type without a string member
    // (trimmed there: a string member's text is as written).
    const std::string_view word = string_member ? raw : t;
    if ((type.nullable || !string_member)
        && detail::json_literal_of(word, detail::json_words | detail::python_words, detail::letter_case::any) == "null")
        return nullptr;
    for (std::size_t i = 0; i < type.count; ++i)
        if (type.members[i] != raw_kind::string)
            if (auto v = detail::convert_raw_as(type.members[i], t); !v.is_null())
                return v;
    return boost::json::value(raw);
}

/// `raw` JSON-decoded when it is a JSON value (vLLM's glm45 reads a value no schema types so),
/// else the string.
inline boost::json::value decode_raw_parameter(std::string_view raw)
{
    boost::system::error_code ec;
    boost::json::value parsed = detail::parse_json(detail::trim_ascii(raw), ec);
    return ec ? boost::json::value(raw) : parsed;
}

/// Tool name → parameters schema, from a `tools` array or a toolset (toolset::schemas()).
class tool_schemas {
public:
    tool_schemas() = default;

    /// Reads each tool of an OpenAI Chat (`{"type":"function","function":{…}}`), Responses
    /// (`{"type":"function","name",…,"parameters"}`), Anthropic (`input_schema`) or Gemini
    /// (`{"functionDeclarations":[…]}`) tools array. Entries without a name are skipped.
    explicit tool_schemas(const boost::json::array& tools)
    {
        for (const auto& entry : tools) {
            if (!entry.is_object())
                continue;
            const auto& tool = entry.get_object();
            if (const auto* declarations = tool.if_contains("functionDeclarations"); declarations && declarations->is_array())
                for (const auto& declaration : declarations->get_array())
                    add_definition(declaration);
            else if (const auto* function = tool.if_contains("function"))
                add_definition(*function);
            else
                add_definition(entry);
        }
    }

    /// Adds (or replaces) one tool's parameters schema.
    void add(std::string name, boost::json::object parameters) { tools_[std::move(name)] = std::move(parameters); }

    /// The parameters schema of `tool`, or null.
    const boost::json::object* parameters(std::string_view tool) const
    {
        auto it = tools_.find(tool);
        return it == tools_.end() ? nullptr : &it->second;
    }

    /// The schema of property `key` of `tool`, or null (unknown tool or property).
    const boost::json::value* property(std::string_view tool, std::string_view key) const
    {
        const auto* params = parameters(tool);
        const auto* properties = params ? params->if_contains("properties") : nullptr;
        return properties && properties->is_object() ? properties->get_object().if_contains(key) : nullptr;
    }

    /// convert_raw_parameter() with the schema of `tool`'s property `key`.
    boost::json::value convert(std::string_view tool, std::string_view key, std::string_view raw) const
    {
        return convert_raw_parameter(property(tool, key), raw);
    }

    std::size_t size() const noexcept { return tools_.size(); }
    bool empty() const noexcept { return tools_.empty(); }

private:
    void add_definition(const boost::json::value& definition)
    {
        if (!definition.is_object())
            return;
        const auto& d = definition.get_object();
        const auto* name = d.if_contains("name");
        if (!name || !name->is_string())
            return;
        boost::json::object parameters;
        for (const char* key : {"parameters", "input_schema", "parametersJsonSchema"})
            if (const auto* p = d.if_contains(key); p && p->is_object()) {
                parameters = p->get_object();
                break;
            }
        add(std::string(name->get_string()), std::move(parameters));
    }

    std::map<std::string, boost::json::object, std::less<>> tools_;
};

} // namespace toolstream
