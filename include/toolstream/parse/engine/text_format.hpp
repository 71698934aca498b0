// The text-format engine: one driver for every tool-call format written in the content channel,
// text_format_policy<Traits>.
#pragma once

#include <toolstream/parse/engine/call_frame.hpp>
#include <toolstream/parse/engine/detail/marker_calls.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>
#include <toolstream/parse/segment_emitter.hpp>

#include <concepts>
#include <cstddef>
#include <span>
#include <string_view>

namespace toolstream {

/// A format written in the content channel, for text_format_policy (`T` the traits type, all
/// members static). Inherit `marker_format` (the engine reads the markers) or
/// `reader_format<R, Options>` (a reader of the format's own), then declare what differs:
///
/// | member                  | type               | semantics                                                 |
/// |-------------------------|--------------------|-----------------------------------------------------------|
/// | `name`                  | `std::string_view` | the policy's name (registry, CLI); required               |
/// | `reader<T>`             | member alias template | the block reader, a `format_reader` for `options`; from the base |
/// | `options`               | type               | the policy's options (`text_format_options`; a reader format's `Options`) |
/// | `ignore_case`           | `bool`             | markers match ASCII case-insensitively (false)            |
///
/// A marker format's members (see marker_format for the defaults):
///
/// | member               | type                  | semantics                                            |
/// |----------------------|-----------------------|------------------------------------------------------|
/// | `call_open`          | `std::string_view`    | opens a call; required                               |
/// | `arguments`          | `text_arguments`      | `json_call` (`{"name":…,"arguments":…}`), `json_object` (`{…}`) or `key_value`; required |
/// | `call_list`          | `json_call_list`      | json_call: `single` (one object per opening), `array` (`[{…}, {…}]`) or `sequence` (`{…} {…}`) |
/// | `other_calls`        | `std::array<call_markers, N>` | more `{open, close}` pairs read as call_open/call_close (not in a section) |
/// | `bare_array_at_start`| `bool`                | json_call array: a bare `[` as the output's first non-blank byte opens one too |
/// | `call_keyed_by_name` | `bool`                | json_call: a call object is `{"NAME": ARGUMENTS}`, its first key the tool name |
/// | `call_name_key`      | `std::string_view`    | json_call: the key of a call object's tool name (`name`) |
/// | `markup_markers`     | `std::array<std::string_view, N>` | markers that are markup wherever they stand outside a call |
/// | `call_close`         | `std::string_view`    | closes it; empty: the arguments' end does            |
/// | `section_open/close` | `std::string_view`    | a section of calls around them (empty: none)         |
/// | `header_end`         | `std::string_view`    | the header (name, id) runs up to it; empty: no header |
/// | `read_header(h)`     | `std::optional<call_header>` | the call a header names; default: the trimmed header is the tool name |
/// | `parameter_open`, `parameter_name_end`, `value_close` | `std::string_view` | key_value, required: `parameter_open NAME parameter_name_end VALUE value_close` |
/// | `value_open`, `parameters_close` | `std::string_view` | key_value: before each value; after the last parameter |
/// | `strip_value_newline`| `bool`                | key_value: one line break after the name and before value_close is syntax |
/// | `read_parameter_name(raw)` | `std::string`   | key_value: the key a raw name gives (strip quotes)   |
///
/// Reasoning is not a format's business: combine any format with a reasoning parser
/// (reasoning_policy, parse/policies/reasoning.hpp), as vLLM does.
///
/// A new format is one such traits header, one line in registry.hpp, one test file and its
/// write_file sample in tests/support/format_samples.hpp: fuzzing, the formats benchmark, both
/// programs and the registry test take it from there.
template<class T>
concept text_format_traits = requires {
    { T::name } -> std::convertible_to<std::string_view>;
    { T::ignore_case } -> std::convertible_to<bool>;
    typename T::options;
    typename T::template reader<T>;
} && format_reader<typename T::template reader<T>, typename T::options>;

/// A parser policy for the format `Traits`. The driver owns what every format shares:
/// - the scan buffer and the marker search: text that cannot start an opener goes out in the
///   feed that brings it; a marker prefix is held;
/// - openings read within a hold cap (the reader's `open`); past it, or when the reader says the
///   bytes open nothing, they are text (error::marker_too_long reported for the cap);
/// - the call frame: a call's START waits for its tool name and a file's path, its bytes held in
///   input order meanwhile (bounded, see call_frame); file tools (tool_syntax) become file or
///   shell segments; every byte not text or content is reported as consumed markup;
/// - finalize(): held bytes are what they would be had no marker completed (text, or the open
///   block's content), and an open call ENDs `incomplete`.
template<text_format_traits Traits>
class text_format_policy {
public:
    using traits_type = Traits;
    using options_type = typename Traits::options;
    using reader_type = typename Traits::template reader<Traits>;

    static constexpr std::string_view name = Traits::name;   ///< As the registry and the CLI spell it.

    /// A file or shell segment's content is decoded from a JSON string (`\n` in the input is a
    /// line break in the content): its raw bytes are reported as markup, so the input is text +
    /// markup + the content of the other segments. Otherwise content is the input's own bytes.
    static constexpr bool decodes_file_bodies = reader_type::decodes_file_bodies;

    text_format_policy() : text_format_policy(options_type{}) {}
    explicit text_format_policy(options_type options);

    template<emitter Emitter>
    void on_content(std::string_view text, Emitter& out);

    template<emitter Emitter>
    void finalize(Emitter& out);

    void reset();

    /// Bytes received but not yet emitted or reported.
    std::size_t held_bytes() const noexcept { return buf_.size() + call_.held_bytes() + reader_.held_bytes(); }

    /// Whether the bytes fed next belong to a block of the format's (an opening being read, a
    /// call, a section of calls): a reasoning parser opens no region there.
    bool in_block() const noexcept { return state_ != state::text; }

    /// The markers that may open a block (the reader's): a reasoning parser in front ends a
    /// region where one opens a block (parse/policies/detail/format_openings.hpp).
    std::span<const std::string_view> openers() const noexcept { return reader_.openers(); }

    const options_type& options() const noexcept { return options_; }

    /// `t` went out as text before the next feed, written by another policy (auto_policy, which
    /// streams text until it chooses a format): the reader learns of it as if it had been read
    /// here (readers track only whether such text was blank).
    void after_text(std::string_view t)
    {
        if constexpr (requires { reader_.on_text(t); })
            reader_.on_text(t);
    }

private:
    enum class state { text, opening, block };

    static constexpr std::size_t max_openers = 8;

    template<emitter Emitter>
    bool step(Emitter& out);
    template<emitter Emitter>
    bool scan(Emitter& out);
    template<emitter Emitter>
    bool opening(Emitter& out);
    // Text outside blocks, told to a reader that asks for it (an opener valid only at the start).
    template<emitter Emitter>
    void text(std::string_view bytes, Emitter& out);

    options_type options_;
    reader_type reader_;
    call_frame call_;
    detail::scan_buffer buf_;
    detail::marker_set openers_;
    state state_ = state::text;
    std::size_t opener_ = 0;   // the reader's opener being read
};

} // namespace toolstream

#include <toolstream/parse/engine/impl/text_format.hpp>
