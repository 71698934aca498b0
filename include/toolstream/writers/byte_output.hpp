// Where a writer sink's bytes go.
#pragma once

#include <concepts>
#include <string_view>

namespace toolstream {

/// A callable taking `std::string_view` (`o` an lvalue of `O`, `bytes` a `std::string_view`):
///
/// | expression | semantics                                                                 |
/// |------------|---------------------------------------------------------------------------|
/// | `O(std::move(o))` | the writer keeps its output by value                               |
/// | `o(bytes)` | writes `bytes` (append to a string, write to a socket…); the view is valid only during the call |
///
/// Models: any lambda such as `[&](std::string_view b) { out += b; }`; the writers
/// openai_sse_writer, tarko_event_sink and viewer_feed_sink take one.
template<class O>
concept byte_output = std::move_constructible<O> && std::invocable<O&, std::string_view>;

namespace detail {
/// The output the concepts check writers with.
struct byte_output_archetype {
    void operator()(std::string_view) const {}
};
} // namespace detail

} // namespace toolstream
