// Lenient typed reads of optional fields of a provider payload.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace toolstream::detail {

// A field that is missing or of another type reads as absent: providers add, drop and null
// fields freely, and one odd field should not cost the rest of the event.

/// The string at `key`, or an empty view.
inline std::string_view string_field(const boost::json::object& obj, std::string_view key) noexcept
{
    const auto* v = obj.if_contains(key);
    return v != nullptr && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

/// The object at `key`, or null.
inline const boost::json::object* object_field(const boost::json::object& obj, std::string_view key) noexcept
{
    const auto* v = obj.if_contains(key);
    return v != nullptr ? v->if_object() : nullptr;
}

/// True only when `key` holds the boolean true.
inline bool true_field(const boost::json::object& obj, std::string_view key) noexcept
{
    const auto* v = obj.if_contains(key);
    return v != nullptr && v->is_bool() && v->get_bool();
}

/// `d` as a count when it is a whole number that fits one (`12.0`).
inline std::optional<std::uint64_t> whole_count(double d) noexcept
{
    if (d >= 0 && d < 1.8e19 && std::trunc(d) == d)
        return static_cast<std::uint64_t>(d);
    return std::nullopt;
}

/// The non-negative integer at `key` (a token count, an index), if there is one; a whole
/// number written as a double (`12.0`) counts too.
inline std::optional<std::uint64_t> count_field(const boost::json::object& obj, std::string_view key) noexcept
{
    const auto* v = obj.if_contains(key);
    if (v == nullptr)
        return std::nullopt;
    if (v->is_uint64())
        return v->get_uint64();
    if (v->is_int64() && v->get_int64() >= 0)
        return static_cast<std::uint64_t>(v->get_int64());
    if (v->is_double())
        return whole_count(v->get_double());
    return std::nullopt;
}

/// The message of an error object: its `message`, else its `code`, else a placeholder.
inline std::string_view error_object_message(const boost::json::object& o)
{
    for (const char* key : {"message", "code"})
        if (const std::string_view text = string_field(o, key); !text.empty())
            return text;
    return "provider error";
}

/// The message of an error value: an object's (error_object_message), a bare string, else a
/// placeholder.
inline std::string_view error_value_message(const boost::json::value& v)
{
    if (const auto* s = v.if_string())
        return *s;
    if (const auto* o = v.if_object())
        return error_object_message(*o);
    return "provider error";
}

} // namespace toolstream::detail
