// Reading the optional members of format traits: each has a default when the traits omit it.
#pragma once

#include <array>
#include <string_view>

namespace toolstream::detail {

template<class T>
constexpr std::string_view reasoning_open_of() noexcept
{
    if constexpr (requires { T::reasoning_open; })
        return T::reasoning_open;
    else
        return {};
}

template<class T>
constexpr std::string_view reasoning_close_of() noexcept
{
    if constexpr (requires { T::reasoning_close; })
        return T::reasoning_close;
    else
        return {};
}

template<class T>
constexpr std::string_view call_close_of() noexcept
{
    if constexpr (requires { T::call_close; })
        return T::call_close;
    else
        return {};
}

template<class T>
constexpr std::string_view section_open_of() noexcept
{
    if constexpr (requires { T::section_open; })
        return T::section_open;
    else
        return {};
}

template<class T>
constexpr std::string_view section_close_of() noexcept
{
    if constexpr (requires { T::section_close; })
        return T::section_close;
    else
        return {};
}

template<class T>
constexpr std::string_view header_end_of() noexcept
{
    if constexpr (requires { T::header_end; })
        return T::header_end;
    else
        return {};
}

/// Markers that end a header without being part of it (left to the arguments).
template<class T>
constexpr std::array<std::string_view, 2> header_stops_of() noexcept
{
    if constexpr (requires { T::header_stops; })
        return T::header_stops;
    else
        return {};
}

/// A call opening without `call_open` (qwen3_coder's bare `<function=`): the header starts at it.
template<class T>
constexpr std::string_view bare_call_open_of() noexcept
{
    if constexpr (requires { T::bare_call_open; })
        return T::bare_call_open;
    else
        return {};
}

template<class T>
constexpr std::string_view value_open_of() noexcept
{
    if constexpr (requires { T::value_open; })
        return T::value_open;
    else
        return {};
}

template<class T>
constexpr std::string_view parameters_close_of() noexcept
{
    if constexpr (requires { T::parameters_close; })
        return T::parameters_close;
    else
        return {};
}

template<class T>
constexpr bool reasoning_open_at_start_of() noexcept
{
    if constexpr (requires { T::reasoning_open_at_start; })
        return T::reasoning_open_at_start;
    else
        return false;
}

template<class T>
constexpr bool reasoning_ends_at_call_of() noexcept
{
    if constexpr (requires { T::reasoning_ends_at_call; })
        return T::reasoning_ends_at_call;
    else
        return false;
}

template<class T>
constexpr bool ignore_case_of() noexcept
{
    if constexpr (requires { T::ignore_case; })
        return T::ignore_case;
    else
        return false;
}

template<class T>
constexpr bool strip_value_newline_of() noexcept
{
    if constexpr (requires { T::strip_value_newline; })
        return T::strip_value_newline;
    else
        return false;
}

} // namespace toolstream::detail
