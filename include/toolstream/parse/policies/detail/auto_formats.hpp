// What auto_policy (parse/policies/auto_detect.hpp) knows of each format it tries: its options, its
// openers, whether one may stand at some bytes, its text block, and a judge of its openings for
// a reasoning parser in front.
#pragma once

#include <toolstream/parse/engine/detail/marker_scanner.hpp>

#include <concepts>
#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace toolstream::detail {

// f(integral_constant<I>) for each I, in order: a loop over a pack of formats by index.
template<std::size_t... I, class F>
void for_each_index(std::index_sequence<I...>, F&& f)
{
    (f(std::integral_constant<std::size_t, I>{}), ...);
}

// Format policy P's options with what `options` (auto_options) say for every format.
template<class P, class Options>
typename P::options_type format_options(const Options& options)
{
    typename P::options_type o;
    if constexpr (requires { o.max_held = options.max_held; })
        o.max_held = options.max_held;
    if constexpr (requires { o.max_held_body = options.max_held_body; })
        o.max_held_body = options.max_held_body;
    if constexpr (requires { o.schemas = options.schemas; })
        o.schemas = options.schemas;
    return o;
}

// The markers that may open a block of format policy P (its reader's, with default options).
template<class P>
std::span<const std::string_view> format_openers()
{
    static const std::vector<std::string_view> openers = [] {
        typename P::options_type options;
        const typename P::reader_type reader(options);
        return std::vector<std::string_view>(reader.openers().begin(), reader.openers().end());
    }();
    return openers;
}

// Whether one of P's openers may stand at the front of `v` (v may hold only its start).
template<class P>
bool may_open_at(std::string_view v)
{
    for (const std::string_view o : format_openers<P>()) {
        const std::size_t n = v.size() < o.size() ? v.size() : o.size();
        if (!o.empty() && scan::common_prefix(v, o, P::traits_type::ignore_case) == n)
            return true;
    }
    return false;
}

// A format with a block in which no call of its own opens (text_block_reader's formats).
template<class P>
concept has_text_block = requires {
    { P::traits_type::text_block.open } -> std::convertible_to<std::string_view>;
    { P::traits_type::text_block.close } -> std::convertible_to<std::string_view>;
};

// Whether `v` starts with `marker`, as format P compares markers.
template<class P>
bool starts_with_marker(std::string_view v, std::string_view marker)
{
    return scan::common_prefix(v, marker, P::traits_type::ignore_case) == marker.size();
}

// What find_opening (format_openings.hpp) needs of format policy P to judge its openers,
// without a policy: its reader, its markers and options.
template<class P>
struct opening_judge {
    using reader_type = typename P::reader_type;
    using traits_type = typename P::traits_type;
    typename P::options_type format_options;

    std::span<const std::string_view> openers() const { return format_openers<P>(); }
    const typename P::options_type& options() const noexcept { return format_options; }
};

} // namespace toolstream::detail
