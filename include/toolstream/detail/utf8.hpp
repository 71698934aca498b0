// UTF-8, the one place the library decodes, encodes and cuts it: strict decoding (as Boost.JSON
// requires, whole or fed in pieces), encoding a code point, and holding back a character split
// between two pieces.
#pragma once

#include <toolstream/detail/byte_words.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream::detail {

/// What a lead byte allows: the length of its sequence (0 when it cannot start one) and the range
/// of the second byte, which narrows after E0, ED, F0 and F4 so that no overlong form, surrogate
/// or value above U+10FFFF is valid (as Boost.JSON requires).
struct utf8_lead {
    int length;
    unsigned char low, high;
};
constexpr utf8_lead lead_of(unsigned char c) noexcept
{
    return {c < 0x80 ? 1 : c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0,
            static_cast<unsigned char>(c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80),
            static_cast<unsigned char>(c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF)};
}

/// The length of the UTF-8 character at the start of `s` (1 to 4) when whole and strictly valid,
/// 0 when `s` ends inside a character valid so far, -1 when invalid: a decoder fed in pieces holds
/// the first kind back and rejects the second at once.
constexpr int utf8_sequence_length(const char* s, std::size_t n) noexcept
{
    const utf8_lead lead = lead_of(static_cast<unsigned char>(s[0]));
    if (lead.length == 0)
        return -1;
    for (int k = 1; k < lead.length; ++k) {
        if (static_cast<std::size_t>(k) >= n)
            return 0;
        const auto b = static_cast<unsigned char>(s[k]);
        if (k == 1 ? (b < lead.low || b > lead.high) : (b & 0xC0) != 0x80)
            return -1;
    }
    return lead.length;
}

/// Length of the strictly valid UTF-8 sequence at `i` (as utf8_sequence_length), storing its
/// value in `cp`; 0 if invalid or cut short.
inline std::size_t decode_utf8(std::string_view s, std::size_t i, std::uint32_t& cp) noexcept
{
    const int n = utf8_sequence_length(s.data() + i, s.size() - i);
    if (n <= 0)
        return 0;
    const auto c = static_cast<unsigned char>(s[i]);
    cp = n == 1 ? c : c & (0x7Fu >> n);
    for (int k = 1; k < n; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3Fu);
    return static_cast<std::size_t>(n);
}

/// Writes the UTF-8 encoding of `cp` (at most U+10FFFF) to `out`; returns its length (1 to 4).
constexpr std::size_t encode_utf8(std::uint32_t cp, char* out) noexcept
{
    constexpr unsigned char lead[] = {0x00, 0xC0, 0xE0, 0xF0};
    const std::size_t tail = cp < 0x80 ? 0 : cp < 0x800 ? 1 : cp < 0x10000 ? 2 : 3;
    out[0] = static_cast<char>(lead[tail] | (cp >> (6 * tail)));
    for (std::size_t k = 1; k <= tail; ++k)
        out[k] = static_cast<char>(0x80 | ((cp >> (6 * (tail - k))) & 0x3F));
    return tail + 1;
}

inline void append_utf8(std::uint32_t cp, std::string& out)
{
    char bytes[4];
    out.append(bytes, encode_utf8(cp, bytes));
}

/// Bytes to replace by one U+FFFD at `i`, where no valid sequence starts: the maximal subpart
/// of a sequence (a lead byte and the continuation bytes it may take), at least 1, as the
/// Unicode standard (3.9, "U+FFFD substitution of maximal subparts") and the WHATWG decoder do.
inline std::size_t invalid_utf8_length(std::string_view s, std::size_t i) noexcept
{
    const utf8_lead lead = lead_of(static_cast<unsigned char>(s[i]));
    const auto n = static_cast<std::size_t>(lead.length == 0 ? 1 : lead.length);
    std::size_t k = 1;
    for (; k < n && i + k < s.size(); ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if (k == 1 ? (b < lead.low || b > lead.high) : (b & 0xC0) != 0x80)
            break;
    }
    return k;
}

/// The length of the longest prefix of `s` that is valid UTF-8. ASCII, most of any text, is
/// passed over eight bytes at a time.
inline std::size_t valid_utf8_prefix(std::string_view s) noexcept
{
    std::size_t i = 0;
    while (i < s.size()) {
        for (; i + 8 <= s.size(); i += 8)
            if (non_ascii_flags(load_word(s.data() + i)) != 0)
                break;
        if (i == s.size())
            break;
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        const int n = utf8_sequence_length(s.data() + i, s.size() - i);
        if (n <= 0)
            break;
        i += static_cast<std::size_t>(n);
    }
    return i;
}

inline bool is_valid_utf8(std::string_view s) noexcept { return valid_utf8_prefix(s) == s.size(); }

/// The UTF-8 of U+FFFD REPLACEMENT CHARACTER, which output writes for bytes that are not UTF-8.
inline constexpr std::string_view replacement_character = "\xEF\xBF\xBD";

/// Appends `s` to `out` with each maximal invalid subpart replaced by U+FFFD (see
/// invalid_utf8_length): what every writer of JSON does with bytes that are not UTF-8.
inline void append_valid_utf8(std::string& out, std::string_view s)
{
    for (;;) {
        const std::size_t good = valid_utf8_prefix(s);
        out.append(s.data(), good);
        if (good == s.size())
            return;
        out.append(replacement_character);
        s.remove_prefix(good + invalid_utf8_length(s, good));
    }
}

/// The length of the longest prefix of `s` that does not end inside a UTF-8 character that the
/// next piece may complete. A writer's every event must be valid UTF-8 on its own (a client
/// decodes each separately), while a text policy may split a character between two deltas.
/// Bytes that are not UTF-8 at all are passed on as they are.
constexpr std::size_t utf8_complete_prefix(std::string_view s) noexcept
{
    const std::size_t n = s.size();
    for (std::size_t back = 1; back <= 3 && back <= n; ++back) {
        const auto c = static_cast<unsigned char>(s[n - back]);
        if ((c & 0xC0) == 0x80)
            continue;   // a continuation byte: look further back for the lead byte
        const std::size_t need = c >= 0xF0 && c < 0xF8 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        return need > back ? n - back : n;
    }
    return n;
}

/// Holds back the unfinished UTF-8 character at the end of a stream of pieces (3 bytes at most).
class utf8_carry {
public:
    /// Calls `emit` with the longest valid-so-far text: held bytes + `piece`, less its unfinished tail.
    template<class Emit>
    void feed(std::string_view piece, Emit&& emit)
    {
        if (held_len_ == 0) {
            const std::size_t keep = utf8_complete_prefix(piece);
            hold(piece.substr(keep));
            if (keep > 0)
                emit(piece.substr(0, keep));
            return;
        }
        // Complete the held character from the front of `piece`; the rest goes through as usual.
        char joined[8];
        std::size_t len = held_len_;
        std::copy(held_, held_ + held_len_, joined);
        std::size_t taken = 0;
        while (taken < piece.size() && len < 4 && (static_cast<unsigned char>(piece[taken]) & 0xC0) == 0x80)
            joined[len++] = piece[taken++];
        held_len_ = 0;
        const std::string_view head(joined, len);
        const std::size_t keep = taken == piece.size() ? utf8_complete_prefix(head) : len;
        hold(head.substr(keep));
        if (keep > 0)
            emit(head.substr(0, keep));
        if (taken < piece.size())
            feed(piece.substr(taken), emit);
    }

    /// Emits what is held (an unfinished character at the end of its stream stays as it is).
    template<class Emit>
    void flush(Emit&& emit)
    {
        if (held_len_ > 0)
            emit(std::string_view(held_, std::exchange(held_len_, 0)));
    }

    bool empty() const noexcept { return held_len_ == 0; }

private:
    void hold(std::string_view tail) noexcept
    {
        // An unfinished character is 3 bytes at most; the bound also spares GCC's -O2 a false
        // -Wstringop-overflow on an unbounded copy.
        const std::size_t n = std::min(tail.size(), sizeof held_ - held_len_);
        for (std::size_t i = 0; i < n; ++i)
            held_[held_len_ + i] = tail[i];
        held_len_ += n;
    }

    char held_[4] = {};
    std::size_t held_len_ = 0;
};

} // namespace toolstream::detail
