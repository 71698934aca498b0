// Descriptions and constraints of a described struct's members: the customisation point that
// Boost.Describe lacks (it knows names and types, not documentation).
#pragma once

#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>

#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string_view>

namespace toolstream {

/// What a schema says about one member besides its type. Empty fields are left out.
///
/// - `minimum` / `maximum` apply to a number, or to the numbers of an array;
/// - `pattern` (an ECMA-262 regular expression) to a string, or to the strings of an array;
/// - `min_items` / `max_items` to an array.
///
/// arguments_as() checks minimum, maximum, min_items and max_items; `pattern` is passed to the
/// provider only (no regular expression engine is pulled into the header).
struct field_doc {
    std::string_view name;                  ///< The member's name, as described.
    std::string_view description = {};
    std::optional<double> minimum = {};
    std::optional<double> maximum = {};
    std::string_view pattern = {};
    std::optional<std::size_t> min_items = {};
    std::optional<std::size_t> max_items = {};
};

/// Specialise to document the members of `T` (names are checked at compile time):
///
/// ```cpp
/// template<> struct toolstream::field_info<search_args> {
///     static constexpr toolstream::field_doc fields[] = {
///         {.name = "query", .description = "What to search for"},
///         {.name = "limit", .description = "How many results", .minimum = 1, .maximum = 50},
///     };
/// };
/// ```
template<class T>
struct field_info {
    static constexpr std::array<field_doc, 0> fields{};
};

namespace detail {

template<class T>
using described_members_of =
    boost::describe::describe_members<T, boost::describe::mod_public | boost::describe::mod_inherited>;

/// The field_doc of member `name`, or null.
template<class T>
constexpr const field_doc* find_field_doc(std::string_view name) noexcept
{
    for (const field_doc& doc : field_info<T>::fields)
        if (doc.name == name)
            return &doc;
    return nullptr;
}

/// The constraints of `doc` that belong to the elements of an array or map, not to the container.
constexpr field_doc element_doc(const field_doc* doc) noexcept
{
    field_doc inner;
    if (doc) {
        inner.minimum = doc->minimum;
        inner.maximum = doc->maximum;
        inner.pattern = doc->pattern;
    }
    return inner;
}

/// True when every field_doc names a public member of T (inherited members included).
template<class T>
constexpr bool field_docs_name_members() noexcept
{
    for (const field_doc& doc : field_info<T>::fields) {
        bool found = false;
        boost::mp11::mp_for_each<described_members_of<T>>([&](auto member) {
            found = found || doc.name == std::string_view(member.name);
        });
        if (!found)
            return false;
    }
    return true;
}

} // namespace detail
} // namespace toolstream
