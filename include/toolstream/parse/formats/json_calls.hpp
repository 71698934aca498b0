// The json_calls policy (alias "json"): tool calls written as JSON objects in the model's text.
#pragma once

#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/formats/detail/json_calls_reader.hpp>

#include <string_view>

namespace toolstream {

/// The options of json_calls: a text format's (text_format_options). `max_held` caps a `{`/`[`
/// whose signature is still being read (past it, the `{` is text) and a call whose tool name is
/// not known yet (past it, the call STARTs without `tool_name`); `schemas` make a tool named
/// write_file, patch_file or run_bash a file or shell tool when its schema has that tool's shape
/// (call_frame).
using json_calls_options = text_format_options;

/// Tool calls written as JSON in the text. A `{` or `[` opens calls when the JSON starts with a
/// signature, compared with whitespace between tokens ignored: `{"tool":`, `{"function":`,
/// `{"name":` (the object is one call), `{"tool_calls":`, `{"tools":` (each object of that array
/// is a call), `[{"tool":`, `[{"function":`, `[{"name":` (each object of the array is a call). Any
/// other `{` or `[` stays text, byte for byte. The JSON ends where its brackets balance, strings
/// (with escapes) skipped. A call reads as `{"tool":{"function":"name","parameters":{…}}}` (also
/// `{"tool":"name","parameters":…}`), `{"function":{"name":…,"arguments":…}}` (arguments an
/// object or a JSON string holding one) or `{"name":…,"args":{…}}`.
///
/// Each call is one segment; the bytes around calls (`{"tool_calls":[`, commas, `]}`) are
/// consumed markup. A generic tool is a `tool_call` segment whose content is the call object's
/// raw JSON and whose argument fragments are its arguments value, raw as it streams (decoded
/// when it is a string). A write_file, patch_file or run_bash call named before its arguments
/// is a file or shell segment streaming the decoded body; the raw JSON is then markup. START
/// waits until the tool name has been read, the call ends, or `max_held` bytes are held (then it
/// STARTs without `tool_name`, which END carries); a file's START also waits for its path, up to
/// `max_held_body` input bytes. `held_bytes()` stays within `max_held`, plus twice `max_held_body`
/// (raw and decoded) while a file waits for its path. END carries `{tool_name, arguments}`; a call
/// without a name, arguments that are not an object, or invalid JSON END `invalid_arguments`; a
/// stream ending inside a call ENDs it `incomplete`. A half-read signature at the end is text.
struct json_calls_format : reader_format<detail::json_calls_reader> {
    static constexpr std::string_view name = "json_calls";   ///< As the registry and the CLI spell it.
    static constexpr bool agent_syntax = true;
};

/// Named json_calls, not json: `toolstream::json` would collide with the usual
/// `namespace json = boost::json;` in a user's code that also says `using namespace toolstream;`.
using json_calls = text_format_policy<json_calls_format>;
static_assert(text_format_traits<json_calls_format> && parser_policy<json_calls>);

} // namespace toolstream
