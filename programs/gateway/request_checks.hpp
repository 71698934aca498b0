// What both request translations (anthropic/request.hpp, responses/request.hpp) read a client's
// JSON with: members by name, their types checked, and a refusal that names where the member is
// (`messages[3].content[1].source`). A check throws the refusal, so it is one line however deep
// the member sits; translated_or_refused() turns it into the request_error of a 400.
#pragma once

#include "chat_request.hpp"

#include <boost/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace gateway::checks {

namespace json = boost::json;

/// Why a request cannot be translated; thrown by refuse(), caught by translated_or_refused().
struct refusal {
    std::string message;
};

[[noreturn]] inline void refuse(std::string message) { throw refusal{std::move(message)}; }

/// Where a member is: `path.key`, or `key` at the top.
inline std::string at(std::string_view path, std::string_view key)
{
    return path.empty() ? std::string(key) : std::string(path) + "." + std::string(key);
}

/// Where an element is: `path[index]`.
inline std::string at(std::string_view path, std::size_t index) { return std::string(path) + "[" + std::to_string(index) + "]"; }

inline std::string backticked(std::string_view path) { return "`" + std::string(path) + "`"; }

/// `o[key]`, a null value when it is absent: both APIs take a missing member and a null one alike.
inline const json::value& member(const json::object& o, std::string_view key)
{
    static const json::value none;
    const auto* v = o.if_contains(key);
    return v != nullptr ? *v : none;
}

inline const json::object& object_at(const json::value& v, std::string_view path)
{
    if (!v.is_object())
        refuse(backticked(path) + " must be an object");
    return v.get_object();
}

/// The string `o[key]` (`o` is at `path`); absent or null is refused.
inline std::string_view required_string(const json::object& o, std::string_view key, std::string_view path)
{
    const auto& v = member(o, key);
    if (!v.is_string())
        refuse(backticked(at(path, key)) + " must be a string");
    return v.get_string();
}

/// The string `o[key]`, empty when it is absent or null.
inline std::string_view optional_string(const json::object& o, std::string_view key, std::string_view path)
{
    return member(o, key).is_null() ? std::string_view{} : required_string(o, key, path);
}

/// The array `o[key]`, null when it is absent or null.
inline const json::array* optional_array(const json::object& o, std::string_view key, std::string_view path)
{
    const auto& v = member(o, key);
    if (!v.is_null() && !v.is_array())
        refuse(backticked(at(path, key)) + " must be an array");
    return v.if_array();
}

/// `translate()`'s result, or its refusal as an `invalid_request` error.
template<class Translate>
auto translated_or_refused(Translate&& translate) -> std::variant<decltype(translate()), request_error>
{
    try {
        return translate();
    } catch (refusal& r) {
        return request_error{"invalid_request", std::move(r.message)};
    }
}

} // namespace gateway::checks
