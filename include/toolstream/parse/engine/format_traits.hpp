// The bases a format's traits inherit their defaults from: marker_format for a format made of
// markers (the engine reads it), reader_format<R> for one with a block reader of its own.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/raw_parameters.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
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
    /// Key/value formats: the tools' parameter schemas, which type raw values (null: strings).
    std::shared_ptr<const tool_schemas> schemas = nullptr;
};

/// How a marker format writes a call's arguments.
enum class text_arguments {
    json_call,     ///< `{"name": …, "arguments": {…}}` (also "parameters", "args"): name and arguments inside
    json_object,   ///< `{…}`: the arguments object itself, the name in the header
    key_value,     ///< parameters with raw text values (`parameter_open` NAME `parameter_name_end` VALUE `value_close`)
};

/// How a json_call format lays out its call objects after an opening.
enum class json_call_list {
    single,     ///< `{…}`: one call object (each call has its own opening)
    array,      ///< `[{…}, {…}]`: a JSON array of call objects
    sequence,   ///< `{…} {…}`: call objects one after another, blanks between
};

/// Markers that open (and, when `close` is not empty, close) calls as call_open and call_close do.
struct call_markers {
    std::string_view open;
    std::string_view close;
};

/// key_value: the attribute of a parameter's header that says how its value is written.
struct value_type_attribute {
    std::string_view name;         ///< the attribute (`string`, `type`); empty: none
    std::string_view raw_string;   ///< the value meaning "raw text, a string"; any other: JSON
};

/// The tool name and call id a header gives.
struct call_header {
    std::string name;
    std::string id;   ///< empty: the emitter's `seg_N`
};

/// The header naming `name`, by the rule the formats' headers share: none when the name is empty
/// or holds a blank, markup (`<`, `>`) or a quote, which no tool name has.
inline std::optional<call_header> named_call(std::string_view name)
{
    if (name.empty() || name.find_first_of(" \t\r\n<>\"") != std::string_view::npos)
        return std::nullopt;
    return call_header{std::string(name), {}};
}

namespace detail {
template<class T>
class marker_calls;
} // namespace detail

/// Defaults every format's traits inherit.
struct format_defaults {
    using options = text_format_options;
    static constexpr bool ignore_case = false;   ///< markers match ASCII case-insensitively
    /// The syntax is toolstream's own, which agents prompt any model to write, not a model's:
    /// `auto` (auto_policy) tries it after the models' formats.
    static constexpr bool agent_syntax = false;
};

/// The base of a format read by its own block reader `Reader`, a format_reader for `Options`
/// (text_format_traits checks it).
template<class Reader, class Options = text_format_options>
struct reader_format : format_defaults {
    template<class Self>
    using reader = Reader;
    using options = Options;
};

/// The base of a format made of markers, read by the engine's detail::marker_calls:
/// `[section_open] (call_open [HEADER header_end] ARGUMENTS [call_close])* [section_close]`.
/// A format declares `name`, `call_open` and `arguments` (and, for key_value, `parameter_open`,
/// `parameter_name_end` and `value_close`), and redeclares any default below it differs from.
///
/// What the engine reads from them. A block is one call, or a section of calls (between calls
/// only whitespace, which is syntax; anything else ends the section and is text). A call:
/// - `markup_markers` outside calls are consumed as markup, opening nothing;
/// - opens at `call_open` (or one of `other_calls`, which brings its own closing marker); with a
///   `header_end`, the bytes up to it (within the hold cap) are the header, which must give a
///   tool name; without one, the first non-blank byte must start the arguments (`{` for the JSON
///   kinds; for a json_call array `[`, then after blanks `{` or `]`): else the opener is text.
///   With `bare_array_at_start`, a `[` that is the output's first non-blank byte opens an array
///   the same way;
/// - json_call objects are read by json_call_objects: in an array or a sequence each call ENDs
///   where its object closes, and the list's end (or a byte that is not part of it) comes before
///   the closing marker;
/// - a header's name picks the segment (a file tool streams its decoded body); a `json_call`
///   object's name does so when it comes before the arguments;
/// - ENDs after `call_close` (blanks before it are syntax), or where the arguments end without
///   one: `complete` when they are, also if the stream ends before `call_close` (a stop sequence
///   took it); JSON left unclosed ENDs `invalid_arguments` at the marker after it (json_stop).
struct marker_format : format_defaults {
    template<class Self>
    using reader = detail::marker_calls<Self>;

    static constexpr std::string_view call_close{};      ///< empty: the arguments' end closes a call
    static constexpr std::string_view section_open{};    ///< a section of calls around them (empty: none)
    static constexpr std::string_view section_close{};
    static constexpr std::string_view header_end{};      ///< the header (name, id) runs up to it; empty: none
    /// Markers that end a header without being part of it (left to the arguments).
    static constexpr std::array<std::string_view, 2> header_stops{};
    /// A call opening without `call_open` (qwen3_coder's bare `<function=`): the header starts at it.
    static constexpr std::string_view bare_call_open{};
    /// json_call: how the call objects after an opening are laid out (one, an array, a sequence).
    static constexpr json_call_list call_list = json_call_list::single;
    /// More markers that open calls, each read as call_open (and closed by its own `close`
    /// instead of call_close); not in a format with a section.
    static constexpr std::array<call_markers, 0> other_calls{};
    /// Markers that are syntax wherever they stand outside a call (Cohere's `<|START_RESPONSE|>`
    /// around its answer): consumed as markup, never text.
    static constexpr std::array<std::string_view, 0> markup_markers{};
    /// json_call array: an array may also open with no marker, as the first non-blank byte of the
    /// output (a `[` anywhere else is text).
    static constexpr bool bare_array_at_start = false;
    /// json_call: a call object is `{"NAME": ARGUMENTS}`, its first key the tool name.
    static constexpr bool call_keyed_by_name = false;
    /// json_call: the key of a call object's tool name (at most 10 bytes; Cohere's `tool_name`).
    static constexpr std::string_view call_name_key = "name";
    /// json_call: a call object without an arguments member ENDs `invalid_arguments` (MiniMax-M1,
    /// whose vLLM parser drops it); else its arguments are `{}`.
    static constexpr bool call_needs_arguments = false;
    static constexpr std::string_view value_open{};         ///< key_value: before each value
    static constexpr std::string_view parameters_close{};   ///< key_value: after the last parameter
    /// key_value: one line break after the name and before `value_close` is syntax.
    static constexpr bool strip_value_newline = false;
    /// key_value: a value no schema types is JSON-decoded when it parses.
    static constexpr bool decode_untyped_values = false;
    /// key_value: a value no schema types is JSON-decoded when it parses if its header (the bytes
    /// between `parameter_open` and `parameter_name_end`) holds `NAME="V"` with V other than
    /// `raw_string` (DSML's `string="false"`); absent or `raw_string`, it is a string.
    static constexpr value_type_attribute typed_value_attribute{};

    /// The call a header names; by default the trimmed header is the tool name (none when empty).
    static std::optional<call_header> read_header(std::string_view header)
    {
        const std::string_view name = detail::trim_blanks(header);
        if (name.empty())
            return std::nullopt;
        return call_header{std::string(name), {}};
    }

    /// key_value: the key a raw parameter name gives (a format that quotes names strips them).
    static std::string read_parameter_name(std::string_view raw) { return std::string(detail::trim_blanks(raw)); }
};

} // namespace toolstream
