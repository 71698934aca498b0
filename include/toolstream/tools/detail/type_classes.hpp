// The C++ types a tool's arguments may use, sorted into the JSON Schema kinds they map to. The
// schema generator and the argument reader branch on the same concepts, so they cannot disagree.
#pragma once

#include <boost/describe/enumerators.hpp>
#include <boost/describe/members.hpp>

#include <concepts>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace toolstream {

/// A struct or class whose members Boost.Describe knows (BOOST_DESCRIBE_STRUCT / _CLASS).
template<class T>
concept described_struct = boost::describe::has_describe_members<T>::value && !std::is_union_v<T>;

/// An enumeration Boost.Describe knows (BOOST_DESCRIBE_ENUM).
template<class T>
concept described_enum = std::is_enum_v<T> && boost::describe::has_describe_enumerators<T>::value;

namespace detail {

template<class T>
struct is_optional : std::false_type {};
template<class T>
struct is_optional<std::optional<T>> : std::true_type {};

template<class T>
struct is_vector : std::false_type {};
template<class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

template<class T>
struct is_string_map : std::false_type {};
template<class T, class C, class A>
struct is_string_map<std::map<std::string, T, C, A>> : std::true_type {};
template<class T, class H, class E, class A>
struct is_string_map<std::unordered_map<std::string, T, H, E, A>> : std::true_type {};

template<class T>
concept optional_type = is_optional<T>::value;
template<class T>
concept vector_type = is_vector<T>::value;
template<class T>
concept string_map_type = is_string_map<T>::value;

/// The element of a vector, or the mapped value of a map.
template<class T>
struct element_of {
    using type = typename T::value_type;
};
template<string_map_type T>
struct element_of<T> {
    using type = typename T::mapped_type;
};
template<class T>
using element_t = typename element_of<T>::type;

template<class T>
concept boolean_type = std::same_as<T, bool>;
/// Integers, not characters: a `char` member is more likely a mistake than a number.
template<class T>
concept integer_type = std::integral<T> && !boolean_type<T> && !std::same_as<T, char>
    && !std::same_as<T, wchar_t> && !std::same_as<T, char8_t> && !std::same_as<T, char16_t>
    && !std::same_as<T, char32_t>;
template<class T>
concept number_type = std::floating_point<T>;
template<class T>
concept string_type = std::same_as<T, std::string>;

/// Every type the mapping table covers.
template<class T>
concept schema_mappable = boolean_type<T> || integer_type<T> || number_type<T> || string_type<T>
    || described_enum<T> || described_struct<T> || optional_type<T> || vector_type<T>
    || string_map_type<T>;

template<class T>
inline constexpr bool unsupported_type = false;

} // namespace detail
} // namespace toolstream
