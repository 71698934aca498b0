// Where a key/value parameter's raw value ends (key_value_reader): the grammar of value_close,
// which may be missing, and may appear literally inside a value (a file body holding
// `</parameter>`).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/engine/format_traits.hpp>

#include <array>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <string_view>

namespace toolstream::detail {

/// value_close ends a value only when blanks (fewer than `max_lookahead`) and then
/// parameter_open or the end marker follow it; past the lookahead it ends the value (the reader
/// reports error::marker_too_long). When value_close is missing, parameter_open or the end
/// marker written at the start of a line ends the value (the end marker only when followed by
/// what may follow a call).
template<class T>
struct parameter_value_end {
    static constexpr std::size_t max_lookahead = 64;

    /// `no`: a literal marker, `position` past it; `more`: undecided from `position` on.
    using closing = scan::follows;

    closing what;
    std::size_t position;
    std::size_t marker;   // the bytes of value_close at `position` (0: none)

    /// Where the value in `v` ends; `line_start`: the value's bytes before `v` end a line.
    static parameter_value_end find(std::string_view v, bool at_end, bool line_start) noexcept
    {
        const auto m = find_marker(v, marker_set_);
        if (m.marker == marker_match::npos)
            return {at_end ? closing::no : closing::more, at_end ? v.size() : m.position, 0};
        const std::string_view found = markers[m.marker];
        const std::string_view rest = v.substr(m.position + found.size());
        const std::size_t past = m.position + found.size();
        if (m.marker == 0) {
            closing c = closes_value(rest);
            if (c == closing::more && at_end)
                c = closing::yes;
            return {c, c == closing::no ? past : m.position, value_close.size()};
        }
        const bool line = m.position > 0 ? v[m.position - 1] == '\n' : line_start;
        if (!line)
            return {closing::no, past, 0};
        if (m.marker == 1)
            return {closing::yes, m.position, 0};
        closing c = follows_call(rest);
        if (c == closing::more && at_end)
            c = closing::yes;
        if (c == closing::past_lookahead)
            c = closing::no;   // too many blanks after it: a literal
        return {c, c == closing::no ? past : m.position, 0};
    }

private:
    static constexpr std::string_view parameter_open = T::parameter_open;
    static constexpr std::string_view value_close = T::value_close;
    static constexpr std::string_view end_marker =
        T::parameters_close.empty() ? T::call_close : T::parameters_close;
    static constexpr bool ignore_case = T::ignore_case;
    static constexpr std::array<std::string_view, 3> markers{value_close, parameter_open, end_marker};
    // Prepared once: find() runs at every feed inside a value.
    static constexpr marker_set marker_set_{markers, ignore_case};

    // Whether the value_close followed by `rest` ends the value.
    static closing closes_value(std::string_view rest) noexcept
    {
        return followed_by(rest, {parameter_open, end_marker});
    }

    // Whether `rest`, after a parameters_close with no value_close before it, is what follows a
    // call: blanks, then the call's close, the section's close or the next call.
    static closing follows_call(std::string_view rest) noexcept
    {
        return followed_by(rest, {T::call_close, T::section_close, std::string_view(T::call_open),
                                  T::bare_call_open});
    }

    static closing followed_by(std::string_view rest, std::initializer_list<std::string_view> next) noexcept
    {
        return scan::followed_by(rest, std::span(next.begin(), next.size()), max_lookahead, ignore_case);
    }
};

} // namespace toolstream::detail
