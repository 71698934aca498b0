// Provider converters: one trait specialisation per wire dialect, in the style of fmt::formatter<T>.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/transport/wire_event.hpp>
#include <toolstream/types.hpp>

#include <concepts>
#include <cstddef>
#include <string_view>

namespace toolstream {

/// Turns the events of one dialect into `chunk_response`s. The primary template is not a
/// converter; each provider header declares its tag (an empty struct naming the wire dialect)
/// and specialises this for it.
template<class Provider>
struct provider_converter {
    provider_converter() = delete;
};

/// What the converter calls for each chunk it produces: `emit(choice_index, chunk)`.
/// The chunk reference is valid only during the call. A converter that renews the chunk before
/// its next one may pass it as an rvalue: a consumer may then take its strings (the pipeline's
/// handler takes a whole call's argument text rather than copy it). The converter may likewise
/// free the event's bytes once it has read them (`wire_event::release()`), so that a whole call in
/// one event is not held as the event, the converter's chunk and the handler's call at once.
template<class F>
concept chunk_consumer = std::invocable<F&, std::size_t, const chunk_response&>;

namespace detail {
struct chunk_consumer_archetype {
    void operator()(std::size_t, const chunk_response&) const {}
};
} // namespace detail

/// Requirements on `provider_converter<P>` (`c` is an lvalue of it, `ev` a `wire_event`,
/// `emit` a `chunk_consumer`):
///
/// | expression                    | type                        | semantics                                               |
/// |-------------------------------|-----------------------------|---------------------------------------------------------|
/// | `C::wire_framing`             | `const framing`             | SSE or NDJSON                                           |
/// | `C::name`                     | `const std::string_view`    | the dialect's name, as `--provider` spells it          |
/// | `C{}`                         |                             | a converter at the start of a stream                    |
/// | `c.convert(ev, emit)`         | `error_code`                | calls `emit` for each chunk `ev` yields; an error means `ev` was not valid for the dialect (it is skipped, later events still convert) |
/// | `c.finish(emit)`              | `void`                      | end of input: emit whatever the dialect still holds     |
template<class P>
concept provider_traits = requires(provider_converter<P>& c, const wire_event& ev,
                                   detail::chunk_consumer_archetype& emit) {
    { provider_converter<P>::wire_framing } -> std::convertible_to<framing>;
    { provider_converter<P>::name } -> std::convertible_to<std::string_view>;
    { c.convert(ev, emit) } -> std::same_as<error_code>;
    { c.finish(emit) } -> std::same_as<void>;
} && std::default_initializable<provider_converter<P>>;

/// Defaults a converter inherits, as {fmt}'s formatters do: `convert()` runs the converter's own
/// `convert_event(ev, emit)` so that a failed allocation drops only that event
/// (error::out_of_memory; later events still convert), and `finish()` flushes nothing, for a
/// dialect that holds nothing back. A converter that holds something back declares its own
/// `finish()`; one whose conversion guards its own allocations, its own `convert()`.
/// `Converter` befriends this base when its `convert_event` is private.
///
/// A converter whose events are typed JSON objects also gets its DOM path here:
/// `convert_tree(ev, emit)` parses the payload with the converter's `parser_` (a
/// `detail::payload_parser`), frees the event (`ev.release()`), and hands the root and the
/// event's type to its `convert_object(root, type, emit)`.
template<class Converter>
struct converter_defaults {
    template<chunk_consumer Emit>
    error_code convert(const wire_event& ev, Emit& emit)
    {
        return detail::guard_allocation([&] { return static_cast<Converter&>(*this).convert_event(ev, emit); });
    }

    template<chunk_consumer Emit>
    error_code convert_tree(const wire_event& ev, Emit& emit)
    {
        auto& self = static_cast<Converter&>(*this);
        const auto event = self.parser_.parse_typed(ev.name, ev.data);
        if (!event)
            return event.error();
        ev.release();   // the tree holds its own copies; the type is the SSE name or a tree string
        return self.convert_object(*event->root, event->type, emit);
    }

    template<chunk_consumer Emit>
    void finish(Emit&)
    {
    }
};

} // namespace toolstream
