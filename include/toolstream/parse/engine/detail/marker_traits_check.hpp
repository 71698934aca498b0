// The members a marker format's traits must declare, and the combinations marker_calls reads,
// checked one static_assert each.
#pragma once

#include <toolstream/parse/engine/format_traits.hpp>

#include <concepts>
#include <string_view>

namespace toolstream::detail {

/// The members a marker format must declare, one static_assert each, so that the first error a
/// traits type missing one gives names it (rather than a use deep in marker_calls).
template<class T>
consteval bool marker_traits_checked()
{
    static_assert(requires { { T::call_open } -> std::convertible_to<std::string_view>; },
                  "toolstream: these format traits lack `call_open`: declare "
                  "`static constexpr std::string_view call_open = \"...\";`, the marker that opens a call "
                  "(or inherit `reader_format<R>` with a reader of their own)");
    static_assert(requires { { T::arguments } -> std::convertible_to<text_arguments>; },
                  "toolstream: these format traits lack `arguments`: declare `static constexpr text_arguments "
                  "arguments = text_arguments::json_call;` (or json_object, key_value), how a call's arguments "
                  "are written");
    if constexpr (requires { { T::arguments } -> std::convertible_to<text_arguments>; }) {
        if constexpr (T::arguments == text_arguments::key_value) {
            static_assert(requires { { T::parameter_open } -> std::convertible_to<std::string_view>; },
                          "toolstream: key_value format traits lack `parameter_open`: declare "
                          "`static constexpr std::string_view parameter_open = \"...\";`, the marker before a "
                          "parameter's name");
            static_assert(requires { { T::parameter_name_end } -> std::convertible_to<std::string_view>; },
                          "toolstream: key_value format traits lack `parameter_name_end`: declare "
                          "`static constexpr std::string_view parameter_name_end = \"...\";`, the marker after "
                          "a parameter's name");
            static_assert(requires { { T::value_close } -> std::convertible_to<std::string_view>; },
                          "toolstream: key_value format traits lack `value_close`: declare "
                          "`static constexpr std::string_view value_close = \"...\";`, the marker after a "
                          "parameter's value");
        }
    }
    if constexpr (requires { { T::arguments } -> std::convertible_to<text_arguments>; }) {
        static_assert(T::call_list == json_call_list::single
                          || (T::arguments == text_arguments::json_call && T::header_end.empty()),
                      "toolstream: a call_list other than single needs json_call arguments and no header_end");
    }
    if constexpr (requires { { T::arguments } -> std::convertible_to<text_arguments>; }) {
        static_assert(!T::call_keyed_by_name || T::arguments == text_arguments::json_call,
                      "toolstream: call_keyed_by_name needs `arguments = text_arguments::json_call`");
    }
    static_assert(!T::call_name_key.empty() && T::call_name_key.size() <= 10,
                  "toolstream: call_name_key is a key of 1 to 10 bytes");
    static_assert(T::other_calls.empty() || T::section_open.empty(),
                  "toolstream: other_calls are not read inside a section: leave section_open empty");
    static_assert(!T::bare_array_at_start || T::call_list == json_call_list::array,
                  "toolstream: bare_array_at_start needs `call_list = json_call_list::array`");
    return true;
}

} // namespace toolstream::detail
