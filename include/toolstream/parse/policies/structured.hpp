// Structured outputs: the content channel is one JSON object under a response_format schema,
// Agent TARS's `{"content": string, "toolCall": {"name": string, "args": object}}` by default.
#pragma once

#include <toolstream/detail/json_extent.hpp>
#include <toolstream/detail/json_string_decoder.hpp>
#include <toolstream/parse/parser_policy.hpp>
#include <toolstream/parse/segment_emitter.hpp>
#include <toolstream/segment_event.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace toolstream {

struct structured_options {
    std::string content_key = "content";    ///< The string streamed as text.
    std::string tool_call_key = "toolCall"; ///< The object that makes a tool call.
    std::string name_key = "name";          ///< In the tool call: the tool's name.
    std::string arguments_key = "args";     ///< In the tool call: the arguments object.
};

/// Reads the response object as it streams, keys in any order:
/// - the content string's decoded text is text, as it arrives;
/// - the tool call object becomes a `tool_call` segment whose argument fragments are the raw
///   text of its arguments object, byte for byte, as each feed brings it. START comes at once,
///   with `tool_name` when the name came first; a name after the arguments goes in the END's
///   metadata. The call ENDs `complete` as soon as both its name and its arguments are whole
///   (the closing braces of the response may be cut); at finalize, before that, `incomplete`.
/// - other keys are skipped; a content channel that does not start with `{` is text, and so is
///   what follows the object from its first byte that is not blank.
/// Nothing is held: every byte of the response object (blanks before it included) is reported as
/// consumed markup in the feed that brings it, ahead of the text decoded from it, and the text
/// after the object is the input's own bytes. So the input is the markup followed by that text.
/// Every byte is looked at once; the state is a few counters and the key being read.
class structured {
public:
    static constexpr std::string_view name = "structured";

    structured() = default;
    explicit structured(structured_options options) : options_(std::move(options)) {}

    template<emitter Emitter>
    void on_content(std::string_view s, Emitter& w);
    template<emitter Emitter>
    void finalize(Emitter& w);
    void reset() { *this = structured(std::move(options_)); }

    /// Whether the response object is being read: its bytes are its own, so a reasoning parser
    /// opens no region there.
    bool in_block() const noexcept
    {
        return expect_ != expect::start && expect_ != expect::after && expect_ != expect::text;
    }

private:
    enum class place : std::uint8_t { response, tool_call };
    enum class expect : std::uint8_t { start, key_or_end, key, colon, value, comma_or_end, after, text };
    enum class reading : std::uint8_t { nothing, key, content, name, arguments, skipped };

    // Both return false when `c` was not consumed: value_bytes() reads it next, or, when it
    // turned the channel into text, the text branch.
    template<emitter Emitter>
    bool structural(char c, Emitter& w);
    template<emitter Emitter>
    bool begin_value(char c, Emitter& w);
    template<emitter Emitter>
    void close_object(Emitter& w);
    template<emitter Emitter>
    void call_ready(Emitter& w);
    template<emitter Emitter>
    std::size_t value_bytes(std::string_view s, std::size_t i, Emitter& w);

    structured_options options_;
    expect expect_ = expect::start;
    place place_ = place::response;
    reading reading_ = reading::nothing;
    std::string key_;
    std::string decoded_;                 // this feed's decoded content text, or the name
    detail::json_string_decoder decoder_;
    std::string name_;
    bool name_done_ = false;
    bool arguments_done_ = false;
    std::optional<segment_ref> call_;
    bool call_ended_ = false;
    // Where the key, string or value being read ends.
    detail::json_extent extent_;
};

static_assert(parser_policy<structured>);

} // namespace toolstream

#include <toolstream/parse/policies/impl/structured.hpp>
