// The parser stage's requirement: what a parser policy is, and the writer it is checked against.
#pragma once

#include <toolstream/parse/segment_emitter.hpp>
#include <toolstream/segment_event.hpp>

#include <concepts>
#include <string_view>

namespace toolstream {

namespace detail {
/// The emitter the concepts check policies against.
using emitter_archetype = segment_emitter<event_target_archetype>;
} // namespace detail

/// A parser policy turns the content channel into segments (`p` an lvalue of `P`, `w` an
/// `emitter`, as `segment_emitter<T>&` for any target `T` is):
///
/// | expression              | semantics                                                           |
/// |-------------------------|---------------------------------------------------------------------|
/// | `P{}`                   | a policy at the start of a stream                                   |
/// | `p.on_content(text, w)` | consumes model text; output must not depend on how text is split     |
/// | `p.finalize(w)`         | end of stream: held bytes become text or the open block's content, open blocks END `incomplete` |
/// | `p.reset()`             | back to the start state                                             |
/// | `p.held_bytes()`        | optional; bytes received but not yet emitted (checked by tests, reported by programs) |
/// | `p.in_block()`          | optional `bool`, const; the next bytes belong to a block of its syntax (a call, its opening, a section of calls): a reasoning parser in front opens no region there |
/// | `P::decodes_file_bodies`| optional `bool` (false); file bodies are decoded out of JSON strings, their raw bytes reported as markup |
///
/// Models: api_tool_call, structured, text_format_policy<T> (every format), reasoning_policy<P, R>
/// and runtime_policy; each has a `static_assert` beside it.
template<class P>
concept parser_policy = std::default_initializable<P>
    && requires(P& p, std::string_view text, detail::emitter_archetype& w) {
           p.on_content(text, w);
           p.finalize(w);
           p.reset();
       };

namespace detail {
/// The policy the concepts check policy adaptors with (reasoning_policy<P, R>).
struct parser_policy_archetype {
    template<emitter Emitter>
    void on_content(std::string_view, Emitter&)
    {
    }
    template<emitter Emitter>
    void finalize(Emitter&)
    {
    }
    void reset() {}
};
} // namespace detail

} // namespace toolstream
