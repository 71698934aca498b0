// Writing a whole payload to a boost::json::basic_parser while json_string_decoder, not Boost.JSON,
// decodes its long or escaped string values.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/json_string_decoder.hpp>
#include <toolstream/detail/json_string_skip.hpp>
#include <toolstream/detail/sliced_write.hpp>
#include <toolstream/error.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Writes one complete payload to a basic_parser and decodes the string values that follow a `:`
/// itself when they are long or escaped: once Boost.JSON meets an escape it decodes the rest of
/// the string a byte at a time, json_string_decoder a word at a time. A provider event that
/// carries a whole file as one string (Mistral, Gemini, a completed Responses item) spends most
/// of its parse there.
///
/// The parser gets every other byte of the payload, and `""` in place of each such value; before
/// that `""`, the parser's handler receives the value's decoding through on_string_part, a slice
/// at a time, as if the parser had sent it. So the handler
/// sees the same calls, and the same text, as a parse of the whole payload would give it.
///
/// The verdict is the parser's: everything before a value has been parsed without error before
/// the value is decoded, a `:` outside strings in a valid prefix is always followed by a value,
/// and json_string_decoder::read accepts exactly the strings Boost.JSON accepts (its failure is
/// the payload's, error::invalid_payload). Anything the lexical walk does not expect (a `\`
/// outside a string, a string with no end) leaves the rest of the payload to the parser.
///
/// Payloads shorter than `min_payload` go to the parser whole: their strings are short, and the
/// walk would cost more than it saves. Memory: one slice of decoded text, whatever the payload.
class string_value_feed {
public:
    /// Shorter payloads are written to the parser as they are.
    static constexpr std::size_t min_payload = 1024;
    /// A value whose first this many bytes have no escape and no end is decoded here too.
    static constexpr std::size_t min_plain_run = 64;
    /// The most bytes decoded at once: the handler gets each slice's decoding.
    static constexpr std::size_t slice = 4096;

    /// Writes `text`, which must hold one whole JSON value, to `parser` (reset, with no input
    /// yet), the last write with `more` false. Returns the bytes consumed as write_sliced
    /// counts them: fewer than `text.size()` when `ec` is set or the value ended early.
    template<class Parser>
    std::size_t write(Parser& parser, std::string_view text, error_code& ec)
    {
        if (text.size() >= min_payload) [[unlikely]]   // rare beside the small events of a stream
            return write_decoding(parser, text, ec);
        return write_sliced(parser, text, false, ec);
    }

    /// The string values decoded here since construction, for tests to see the feed work.
    std::size_t values_decoded() const noexcept { return values_decoded_; }

private:
    template<class Parser>
    std::size_t write_decoding(Parser& parser, std::string_view text, error_code& ec)
    {
        std::size_t given = 0;   // text[0, given) reached the parser
        string_skip skip(text, text.size());
        for (std::size_t at = 0;;) {
            const std::size_t open = skip.next(at);
            if (open == text.size() || text[open] != '"')
                break;   // the end, or a `\` outside a string: the parser judges it
            const std::size_t first = skip.next(open + 1);
            if (first == text.size())
                break;   // no end: the parser judges it
            if ((text[first] == '"' && first - open <= min_plain_run) || !follows_colon(text, open)) {
                at = skip.closing_quote(first) + 1;
                if (at > text.size())
                    break;   // no end: the parser judges it
                continue;
            }
            if (!write_part(parser, text.substr(given, open - given), ec))
                return given;
            given = open;
            at = decode_value(parser.handler(), text, open + 1, ec);
            if (ec || !write_part(parser, "\"\"", ec))
                return given;
            given = at;
        }
        return given + write_sliced(parser, text.substr(given), false, ec);
    }

    // True when the last byte before `open` that is not JSON whitespace is a `:`.
    static bool follows_colon(std::string_view text, std::size_t open) noexcept
    {
        while (open > 0) {
            const char c = text[--open];
            if (!is_blank(c))
                return c == ':';
        }
        return false;
    }

    // Writes a piece that does not end the payload; false when the parser stopped.
    template<class Parser>
    static bool write_part(Parser& parser, std::string_view piece, error_code& ec)
    {
        return write_sliced(parser, piece, true, ec) == piece.size() && !ec;
    }

    // Decodes the string value starting at text[from] (after its opening quote) into the
    // handler; returns the position after its closing quote (ec set when it has none or is
    // invalid, or when the handler stopped).
    template<class Handler>
    std::size_t decode_value(Handler& handler, std::string_view text, std::size_t from, error_code& ec)
    {
        ++values_decoded_;
        decoded_.reserve(json_string_decoder::read_room(slice));   // once: its size for good
        decoder_.reset_string();
        std::size_t total = 0;
        while (!decoder_.closed()) {
            if (from == text.size()) {
                ec = error::invalid_payload;   // the payload ends inside the string
                return from;
            }
            decoded_.clear();
            from += decoder_.read(text.substr(from, slice), decoded_, ec);
            if (ec) {
                ec = error::invalid_payload;
                return from;
            }
            total += decoded_.size();
            if (!decoded_.empty() && !handler.on_string_part(decoded_, total, ec)) {
                if (!ec)
                    ec = error::invalid_payload;
                return from;
            }
        }
        return from;
    }

    json_string_decoder decoder_;
    std::string decoded_;   // one slice's decoding
    std::size_t values_decoded_ = 0;
};

} // namespace toolstream::detail
