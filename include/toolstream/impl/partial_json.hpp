// Out-of-line parts of partial_json: string bytes and escapes, numbers.
#pragma once

#include <toolstream/detail/utf8.hpp>
#include <toolstream/partial_json.hpp>

#include <boost/json/parse.hpp>

#include <charconv>

namespace toolstream {

inline void partial_json::string_byte(char c)
{
    if (escaping_) {
        escape_ += c;
        if (escape_[0] == 'u') {
            if (escape_.size() < 5)
                return;
            std::uint32_t unit = 0;
            const auto [end, ec] = std::from_chars(escape_.data() + 1, escape_.data() + 5, unit, 16);
            if (ec != std::errc{} || end != escape_.data() + 5)
                return fail();
            escaping_ = false;
            escape_.clear();
            if (unit >= 0xD800 && unit < 0xDC00) {
                if (high_surrogate_ != 0)
                    return fail();
                high_surrogate_ = unit;
                return;
            }
            if (unit >= 0xDC00 && unit < 0xE000) {
                if (high_surrogate_ == 0)
                    return fail();
                const std::uint32_t cp = 0x10000 + ((high_surrogate_ - 0xD800) << 10) + (unit - 0xDC00);
                high_surrogate_ = 0;
                return append_code_point(cp);
            }
            if (high_surrogate_ != 0)
                return fail();
            return append_code_point(unit);
        }
        escaping_ = false;
        escape_.clear();
        if (high_surrogate_ != 0)
            return fail();
        static constexpr std::string_view from = "\"\\/bfnrt", to = "\"\\/\b\f\n\r\t";
        const auto at = from.find(c);
        if (at == std::string_view::npos)
            return fail();
        return append_decoded(to.substr(at, 1));
    }
    if (c == '\\') {
        escaping_ = true;
        return;
    }
    if (high_surrogate_ != 0)
        return fail();
    if (c == '"')
        return end_string();
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20)
        return fail();
    if (u < 0x80 && pending_utf8_.empty())
        return append_decoded(std::string_view(&c, 1));
    // Bytes of a UTF-8 character show once it is whole (invalid UTF-8 passes through).
    pending_utf8_ += c;
    const auto lead = static_cast<unsigned char>(pending_utf8_[0]);
    const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (pending_utf8_.size() >= length || (pending_utf8_.size() > 1 && (u & 0xC0) != 0x80)) {
        append_decoded(pending_utf8_);
        pending_utf8_.clear();
    }
}

inline void partial_json::append_code_point(std::uint32_t cp)
{
    char out[4];
    append_decoded(std::string_view(out, detail::encode_utf8(cp, out)));
}

inline bool partial_json::parse_number(boost::json::value& v) const
{
    // A number is short; Boost.JSON reads it exactly as a whole parse would.
    boost::system::error_code ec;
    v = boost::json::parse(scalar_, ec);
    return !ec && v.is_number();
}

} // namespace toolstream
