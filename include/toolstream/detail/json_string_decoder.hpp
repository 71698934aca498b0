// Decodes the inside of a JSON string as it arrives, an escape split at any byte included.
#pragma once

#include <toolstream/detail/utf8.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// The bytes between a JSON string's quotes, fed in pieces, decoded to UTF-8: the short escapes,
/// `\uXXXX` and surrogate pairs. An unknown escape, a bad hex digit or a lone surrogate fails it
/// for good; other bytes (control characters, invalid UTF-8 included) are copied as they are.
class json_string_decoder {
public:
    void reset() noexcept
    {
        phase_ = phase::plain;
        failed_ = false;
    }

    /// Appends the decoding of `raw` to `out`; false once the string is known to be invalid.
    bool append(std::string_view raw, std::string& out)
    {
        for (std::size_t i = 0; i < raw.size() && !failed_; ++i) {
            const char c = raw[i];
            switch (phase_) {
            case phase::plain: {
                const std::size_t slash = raw.find('\\', i);
                const std::size_t end = slash == std::string_view::npos ? raw.size() : slash;
                out.append(raw.substr(i, end - i));
                i = end;
                if (slash != std::string_view::npos)
                    phase_ = phase::escape;
                break;
            }
            case phase::escape: escape(c, out); break;
            case phase::hex:
            case phase::low_hex: hex_digit(c, out); break;
            case phase::low_slash: expect(c == '\\', phase::low_u); break;
            case phase::low_u:
                expect(c == 'u', phase::low_hex);
                digits_ = 0;
                low_ = 0;
                break;
            }
        }
        return !failed_;
    }

    /// True when the string may end here (not inside an escape) and nothing failed.
    bool complete() const noexcept { return !failed_ && phase_ == phase::plain; }

private:
    enum class phase : std::uint8_t { plain, escape, hex, low_slash, low_u, low_hex };

    void expect(bool ok, phase next) noexcept
    {
        failed_ = !ok;
        phase_ = next;
    }

    void escape(char c, std::string& out)
    {
        static constexpr std::string_view from = "\"\\/bfnrt";
        static constexpr std::string_view to = "\"\\/\b\f\n\r\t";
        phase_ = phase::plain;
        if (c == 'u') {
            phase_ = phase::hex;
            digits_ = 0;
            code_ = 0;
        } else if (const auto k = from.find(c); k != std::string_view::npos) {
            out += to[k];
        } else {
            failed_ = true;
        }
    }

    void hex_digit(char c, std::string& out)
    {
        const int d = c >= '0' && c <= '9' ? c - '0'
            : c >= 'a' && c <= 'f'         ? c - 'a' + 10
            : c >= 'A' && c <= 'F'         ? c - 'A' + 10
                                           : -1;
        if (d < 0) {
            failed_ = true;
            return;
        }
        std::uint32_t& value = phase_ == phase::hex ? code_ : low_;
        value = value * 16 + static_cast<std::uint32_t>(d);
        if (++digits_ < 4)
            return;
        if (phase_ == phase::hex && code_ >= 0xD800 && code_ <= 0xDBFF) {
            phase_ = phase::low_slash;   // a high surrogate: its low half must follow
            return;
        }
        if (phase_ == phase::low_hex) {
            if (low_ < 0xDC00 || low_ > 0xDFFF) {
                failed_ = true;
                return;
            }
            code_ = 0x10000 + ((code_ - 0xD800) << 10) + (low_ - 0xDC00);
        } else if (code_ >= 0xDC00 && code_ <= 0xDFFF) {
            failed_ = true;   // a low surrogate alone
            return;
        }
        phase_ = phase::plain;
        append_utf8(code_, out);
    }

    phase phase_ = phase::plain;
    bool failed_ = false;
    unsigned digits_ = 0;
    std::uint32_t code_ = 0;
    std::uint32_t low_ = 0;
};

} // namespace toolstream::detail
