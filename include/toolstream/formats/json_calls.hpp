// The json_calls policy (CLI name "json"): tool calls written as JSON objects in the model's text.
#pragma once

#include <toolstream/detail/json_call_tracker.hpp>
#include <toolstream/engine/detail/json_call_block.hpp>
#include <toolstream/engine/format_reader.hpp>
#include <toolstream/engine/text_format.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string_view>

namespace toolstream {

struct json_calls_options {
    /// The most bytes the policy holds back: a `{`/`[` whose signature is still being read (past
    /// it, the `{` is text), or a call whose tool name is not known yet (past it, the call STARTs
    /// without `tool_name`, which its END then carries). At least 16.
    std::size_t max_held = 4096;
    /// The most input bytes held while a file tool's START waits for a `path` that comes after
    /// its body (plus the body decoded from them, at most as many bytes again); past it the
    /// segment STARTs without the path, which its END then carries.
    std::size_t max_held_body = std::size_t{1} << 20;
};

namespace detail {

/// The blocks of json_calls: a JSON text that opens with a signature (json_signature_matcher),
/// read by json_call_block.
class json_calls_reader {
public:
    /// File bodies are decoded out of JSON strings.
    static constexpr bool decodes_file_bodies = true;

    explicit json_calls_reader(const json_calls_options& o)
        : max_held_(std::max<std::size_t>(o.max_held, 16)), max_held_body_(o.max_held_body)
    {
    }

    std::span<const std::string_view> openers() const noexcept { return openers_; }
    call_frame_limits limits() const noexcept { return {max_held_, max_held_body_}; }

    opening_verdict open(std::size_t, std::string_view v)
    {
        if (!reading_)
            signature_.reset();
        reading_ = true;
        const auto verdict = signature_.advance(v.substr(0, max_held_));
        using result = json_signature_matcher::verdict;
        if (verdict == result::more && signature_.scanned() < max_held_)
            return opening_verdict::more();
        reading_ = false;
        if (verdict == result::match)
            return opening_verdict::block(0);   // the JSON itself is read by the block
        return opening_verdict::text(1, verdict == result::more);   // later bytes may open a call
    }

    template<class W>
    void begin(block_context<W>&)
    {
        block_.begin(signature_.layout());
    }

    template<class W>
    bool step(block_context<W>& ctx)
    {
        return block_.step(ctx);
    }

    template<class W>
    void finalize(block_context<W>&)
    {
    }

    bool done() const noexcept { return block_.done(); }
    std::size_t held_bytes() const noexcept { return 0; }

    void reset() noexcept
    {
        block_.reset();
        reading_ = false;
    }

private:
    static constexpr std::array<std::string_view, 2> openers_{"{", "["};

    std::size_t max_held_;
    std::size_t max_held_body_;
    json_signature_matcher signature_;
    json_call_block block_;
    bool reading_ = false;   // an opening is being read
};

static_assert(format_reader<json_calls_reader, json_calls_options>);

} // namespace detail

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
    static constexpr std::string_view name = "json";   ///< As the registry and the CLI spell it.
    using options = json_calls_options;
};

/// Named json_calls, not json: `toolstream::json` would collide with the usual
/// `namespace json = boost::json;` in a user's code that also says `using namespace toolstream;`.
using json_calls = text_format_policy<json_calls_format>;
static_assert(text_format_traits<json_calls_format> && parser_policy<json_calls>);

} // namespace toolstream
