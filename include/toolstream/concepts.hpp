// The named requirements of toolstream's template parameters.
#pragma once

#include <toolstream/provider.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/segment_writer.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/types.hpp>

#include <concepts>
#include <string_view>

namespace toolstream {

/// A sink takes segment events, tool invocations, or both. A handler calls only the overloads a
/// sink has, so a sink that ignores a kind of event pays nothing for it.
///
/// | expression     | semantics                                                        |
/// |----------------|------------------------------------------------------------------|
/// | `s(e)`         | `e` is a `const segment_event&`; its views die when the call returns |
/// | `s(inv)`       | `inv` is a `const tool_invocation&`, delivered right after its END  |
template<class S>
concept event_sink = std::invocable<S&, const segment_event&> || std::invocable<S&, const tool_invocation&>;

template<class S>
concept segment_event_sink = std::invocable<S&, const segment_event&>;

template<class S>
concept invocation_sink = std::invocable<S&, const tool_invocation&>;

namespace detail {
/// The writer type the concepts check policies against.
struct event_target_archetype {
    void operator()(const segment_event&) const {}
};
using writer_archetype = segment_writer<event_target_archetype>;
} // namespace detail

/// A parser policy turns the content channel into segments (`p` an lvalue of `P`, `w` a
/// `segment_writer<T>&` for any target `T`):
///
/// | expression              | semantics                                                           |
/// |-------------------------|---------------------------------------------------------------------|
/// | `P{}`                   | a policy at the start of a stream                                   |
/// | `p.on_content(text, w)` | consumes model text; output must not depend on how text is split     |
/// | `p.finalize(w)`         | end of stream: flushes held text, ends open blocks as `incomplete`   |
/// | `p.reset()`             | back to the start state                                             |
template<class P>
concept parser_policy = std::default_initializable<P>
    && requires(P& p, std::string_view text, detail::writer_archetype& w) {
           p.on_content(text, w);
           p.finalize(w);
           p.reset();
       };

/// A policy that also assembles native (provider API) tool calls:
///
/// | expression               | semantics                                                  |
/// |--------------------------|------------------------------------------------------------|
/// | `p.on_tool_call(d, w)`   | `d` is a `const tool_call_delta&`: one fragment of a call   |
template<class P>
concept native_tool_call_policy = parser_policy<P>
    && requires(P& p, const tool_call_delta& d, detail::writer_archetype& w) { p.on_tool_call(d, w); };

} // namespace toolstream
