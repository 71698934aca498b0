// The pieces of the Gemma tool-call reader (parse/formats/detail/gemma4_arguments.hpp) that know nothing
// of its grammar: a marker at the front, a scalar or a delimited value as JSON, the bounded token.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/literal_words.hpp>
#include <toolstream/detail/parse_json.hpp>
#include <toolstream/detail/utf8.hpp>
#include <toolstream/error.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/engine/format_reader.hpp>

#include <boost/json/value.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Whether `v` starts with `marker`, may still (a prefix of it ends `v`), or does not.
enum class marker_front { yes, maybe, no };
inline marker_front front_of(std::string_view v, std::string_view marker) noexcept
{
    const std::size_t n = scan::common_prefix(v, marker, false);
    return n == marker.size() ? marker_front::yes : n == v.size() ? marker_front::maybe : marker_front::no;
}

/// A bare scalar as JSON: `true`, `false`, `null` and JSON numbers as written; `none`/`nil` (any
/// case) as null; the rest a string.
inline void append_gemma_scalar(std::string& json, std::string_view s)
{
    error_code ec;
    const boost::json::value v = parse_json(s, ec);
    if (!ec && (v.is_number() || v.is_bool()))
        json += s;
    else if (json_literal_of(s, json_words | python_words | nil_word, letter_case::any) == "null")
        json += "null";
    else
        append_json_string(json, s);
}

/// A delimited value read as vLLM's functiongemma parser reads it (json.loads, else the text): its
/// text as written, blanks around it dropped, when that is JSON; else the text as a string.
inline void append_json_or_string(std::string& json, std::string_view raw)
{
    const std::string_view text = trim_blanks(raw);
    error_code ec;
    (void)parse_json(text, ec);
    if (ec)
        append_json_string(json, raw);
    else
        json += text;
}

/// Whether a delimited value that starts with `raw` may be JSON: no byte but blanks yet, or its
/// first other byte can start a JSON value.
constexpr bool may_be_json(std::string_view raw) noexcept
{
    const std::size_t first = skip_blanks(raw, 0);
    return first == raw.size() || std::string_view("-0123456789tfn[{\"").find(raw[first]) != std::string_view::npos;
}

/// A file tool's metadata member from its value: `text` itself (`as_text`: a path, a string), else
/// the value `text` reads as (JSON), or `text` when it reads as none.
inline boost::json::value gemma_metadata_value(bool as_text, std::string_view text)
{
    if (!as_text) {
        error_code ec;
        boost::json::value v = parse_json(text, ec);
        if (!ec)
            return v;
    }
    return boost::json::value(text);
}

/// Takes the blanks at the front as call text; false when nothing else is there yet.
template<emitter W>
bool take_call_blanks(block_context<W>& ctx)
{
    const std::size_t i = skip_blanks(ctx.view(), 0);
    ctx.take(i, byte_role::call_text);
    return !ctx.view().empty();
}

/// The verdict of a Gemma argument reader and the token it reads (a key or scalar, held whole).
class gemma_token_reader {
public:
    enum class outcome { reading, closed, invalid };

    outcome state() const noexcept { return outcome_; }
    const std::string& error() const noexcept { return why_; }   ///< why the arguments are invalid

protected:
    void restart(std::size_t cap)
    {
        cap_ = cap;
        outcome_ = outcome::reading;
        why_.clear();
    }

    bool invalid(std::string_view why)
    {
        why_ = "invalid Gemma tool-call arguments: ";
        why_ += why;
        outcome_ = outcome::invalid;
        return true;
    }

    // Appends what fits of the next `n` bytes to the token (cap_ in all, whatever the chunking;
    // whole UTF-8 characters when they do not all fit).
    template<emitter W>
    bool read_token(block_context<W>& ctx, std::size_t n)
    {
        const std::size_t room = cap_ - std::min(cap_, token_.size());
        const std::size_t fits = n <= room ? n : utf8_complete_prefix(ctx.view().substr(0, room));
        token_.append(ctx.view().substr(0, fits));
        ctx.take(fits, byte_role::call_text);
        return fits == n;
    }

    std::size_t cap_ = 4096;
    outcome outcome_ = outcome::reading;
    std::string token_;   // a key or scalar being read (at most cap_ bytes)
    std::string why_;
};

} // namespace toolstream::detail
