// One driver for every tool-call format written in the content channel: text_format_policy<Traits>.
#pragma once

#include <toolstream/policies/detail/block_context.hpp>
#include <toolstream/policies/detail/call_frame.hpp>
#include <toolstream/policies/detail/marker_calls.hpp>
#include <toolstream/policies/detail/marker_scanner.hpp>
#include <toolstream/policies/detail/traits_members.hpp>
#include <toolstream/segment_writer.hpp>
#include <toolstream/tools/raw_parameters.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

namespace toolstream {

/// Options of a format that declares none of its own.
struct text_format_options {
    /// The most bytes held while an opening (a call's header, a marker's lookahead) is read, and
    /// while a call waits for its tool name. At least 16 bytes past the format's longest markers.
    std::size_t max_held = 4096;
    /// The most input bytes of a file call held while its START waits for the path (a format
    /// that decodes JSON bodies also holds the decoded body: at most as many bytes again).
    std::size_t max_held_body = std::size_t{1} << 20;
    /// Whether the stream starts inside reasoning (the opening marker was in the prompt); unset:
    /// the format's `reasoning_open_at_start`.
    std::optional<bool> reasoning_open_at_start;
    /// Key/value formats: the tools' parameter schemas, which type raw values (null: strings).
    std::shared_ptr<const tool_schemas> schemas = nullptr;
};

namespace detail {

template<class T>
struct options_of {
    using type = text_format_options;
};
template<class T>
    requires requires { typename T::options; }
struct options_of<T> {
    using type = typename T::options;
};

template<class T>
struct reader_of {
    using type = marker_calls<T>;
};
template<class T>
    requires requires { typename T::reader; }
struct reader_of<T> {
    using type = typename T::reader;
};

/// Whether a format decodes file bodies out of JSON strings (see text_format_policy).
template<class T>
constexpr bool decodes_file_bodies_of() noexcept
{
    if constexpr (requires { T::decodes_file_bodies; })
        return T::decodes_file_bodies;
    else if constexpr (requires { T::arguments; })
        return T::arguments != text_arguments::key_value;
    else
        return false;
}

} // namespace detail

/// A format written in the content channel, for text_format_policy (`T` the traits type, all
/// members static; only `name` is required, the rest have the defaults shown):
///
/// | member                     | type               | semantics                                              |
/// |----------------------------|--------------------|--------------------------------------------------------|
/// | `name`                     | `std::string_view` | the policy's name (registry, CLI)                      |
/// | `options`                  | type               | the policy's options (default `text_format_options`)   |
/// | `reader`                   | type               | reads the blocks (`detail::format_reader`); default `detail::marker_calls<T>`, built from the marker members below |
/// | `reasoning_open`           | `std::string_view` | opens a reasoning region (empty: none)                 |
/// | `reasoning_close`          | `std::string_view` | closes it                                              |
/// | `reasoning_open_at_start`  | `bool`             | the stream starts inside reasoning (false)             |
/// | `reasoning_ends_at_call`   | `bool`             | a call opener ends a region open from the start (false)|
/// | `ignore_case`              | `bool`             | markers match ASCII case-insensitively (false)         |
///
/// A format made of markers needs no reader of its own; detail::marker_calls reads
/// `[section_open] (call_open [HEADER header_end] ARGUMENTS [call_close])* [section_close]`:
///
/// | member               | type                  | semantics                                            |
/// |----------------------|-----------------------|------------------------------------------------------|
/// | `call_open`          | `std::string_view`    | opens a call (required)                              |
/// | `call_close`         | `std::string_view`    | closes it; empty: the arguments' end does            |
/// | `section_open/close` | `std::string_view`    | a section of calls around them (empty: none)         |
/// | `header_end`         | `std::string_view`    | the header (name, id) runs up to it; empty: no header |
/// | `read_header(h)`     | `std::optional<call_header>` | the call a header names; default: the trimmed header is the tool name |
/// | `arguments`          | `text_arguments`      | `json_call` (`{"name":…,"arguments":…}`), `json_object` (`{…}`) or `key_value` |
/// | `parameter_open`, `parameter_name_end`, `value_close` | `std::string_view` | key_value: `parameter_open NAME parameter_name_end VALUE value_close` |
/// | `value_open`, `parameters_close` | `std::string_view` | key_value, optional: before each value; after the last parameter |
/// | `strip_value_newline`| `bool`                | key_value: one line break after the name and before value_close is syntax |
/// | `read_parameter_name(raw)` | `std::string`   | key_value, optional: the key a raw name gives (strip quotes) |
///
/// A new format is one such traits header, one line in registry.hpp, one test file and its
/// write_file sample in tests/support/format_samples.hpp: fuzzing, the formats benchmark, both
/// programs and the registry test take it from there.
template<class T>
concept text_format_traits = requires {
    { T::name } -> std::convertible_to<std::string_view>;
} && detail::format_reader<typename detail::reader_of<T>::type, typename detail::options_of<T>::type>;

/// A parser policy for the format `Traits`. The driver owns what every format shares:
/// - the scan buffer and the marker search: text that cannot start an opener (or a reasoning
///   marker) goes out in the feed that brings it; a marker prefix is held;
/// - openings read within a hold cap (the reader's `open`); past it, or when the reader says the
///   bytes open nothing, they are text (error::marker_too_long reported for the cap);
/// - the call frame: a call's START waits for its tool name and a file's path, its bytes held in
///   input order meanwhile (bounded, see detail::call_frame); file tools (tool_syntax) become
///   file or shell segments; every byte not text or content is reported as consumed markup;
/// - reasoning regions: bytes between `reasoning_open` and `reasoning_close` are reasoning (the
///   markers are markup), also a region open from the first byte; a call opener inside a region
///   is reasoning, unless `reasoning_ends_at_call` and the region was open from the start;
/// - finalize(): held bytes are what they would be had no marker completed (text, reasoning, or
///   the open block's content), and an open call ENDs `incomplete`.
template<text_format_traits Traits>
class text_format_policy {
public:
    using traits_type = Traits;
    using options_type = typename detail::options_of<Traits>::type;
    using reader_type = typename detail::reader_of<Traits>::type;

    static constexpr std::string_view name = Traits::name;   ///< As the registry and the CLI spell it.

    /// A file or shell segment's content is decoded from a JSON string (`\n` in the input is a
    /// line break in the content): its raw bytes are reported as markup, so the input is text +
    /// markup + the content of the other segments. Otherwise content is the input's own bytes.
    static constexpr bool decodes_file_bodies = detail::decodes_file_bodies_of<Traits>();

    text_format_policy() : text_format_policy(options_type{}) {}
    explicit text_format_policy(options_type options);

    template<class Writer>
    void on_content(std::string_view text, Writer& out);

    template<class Writer>
    void finalize(Writer& out);

    void reset();

    /// Bytes received but not yet emitted or reported.
    std::size_t held_bytes() const noexcept { return buf_.size() + call_.held_bytes() + reader_.held_bytes(); }

    const options_type& options() const noexcept { return options_; }

private:
    enum class state { text, reasoning, opening, block };

    static constexpr std::string_view reasoning_open = detail::reasoning_open_of<Traits>();
    static constexpr std::string_view reasoning_close = detail::reasoning_close_of<Traits>();
    static constexpr bool ignore_case = detail::ignore_case_of<Traits>();
    static constexpr std::size_t max_openers = 8;

    bool starts_in_reasoning() const noexcept;

    template<class Writer>
    bool step(Writer& out);
    template<class Writer>
    bool scan(const detail::marker_set& markers, bool reasoning, Writer& out);
    template<class Writer>
    bool opening(Writer& out);
    // Text outside blocks, told to a reader that asks for it (an opener valid only at the start).
    template<class Writer>
    void text(std::string_view bytes, Writer& out);

    options_type options_;
    reader_type reader_;
    detail::call_frame call_;
    detail::scan_buffer buf_;
    // The text search: reasoning_open (when the format has one) and then the reader's openers.
    detail::marker_set text_markers_;
    std::size_t first_opener_ = 0;   // index of the first opener in text_markers_
    // The reasoning search: reasoning_close; in a region open from the start, then the openers
    // when a call may end it.
    detail::marker_set reasoning_markers_;
    detail::marker_set start_reasoning_markers_;
    state state_ = state::text;
    bool implicit_reasoning_ = false;   // the open region began at the first byte
    std::size_t opener_ = 0;            // the reader's opener being read
};

} // namespace toolstream

#include <toolstream/policies/impl/text_format.hpp>
