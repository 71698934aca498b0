// The one scanning primitive of the text policies: find markers that may be split across chunks
// at any byte, holding back only what could still become a marker.
#pragma once

#include <toolstream/detail/ascii.hpp>

#include <array>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Bytes a text policy received but has not consumed: at most a marker prefix or a tag still
/// being read (bounded by a cap), so appending the next chunk copies each byte once. During a
/// feed that finds nothing held, the caller's chunk is read in place (lend) and only what is
/// left at the end of the feed is copied (keep).
class scan_buffer {
public:
    /// Drops the consumed prefix first (moving only the bounded unconsumed rest); capacity reused.
    void append(std::string_view chunk)
    {
        keep();
        if (pos_ != 0) {
            buf_.erase(0, pos_);
            pos_ = 0;
        }
        buf_.append(chunk);
    }

    /// Adds `chunk` for one feed: read in place when nothing is held. keep() must follow before
    /// `chunk` dies.
    void lend(std::string_view chunk)
    {
        if (empty())
            lent_ = chunk;
        else
            append(chunk);
    }

    /// Copies what is left of a lent chunk.
    void keep()
    {
        if (lent_.empty())
            return;
        const std::string_view rest = lent_;
        lent_ = {};
        buf_.assign(rest);
        pos_ = 0;
    }

    std::string_view view() const noexcept { return lent_.empty() ? std::string_view(buf_).substr(pos_) : lent_; }

    void consume(std::size_t n) noexcept
    {
        if (!lent_.empty()) {
            lent_.remove_prefix(n < lent_.size() ? n : lent_.size());
            return;
        }
        pos_ += n < size() ? n : size();
        if (pos_ == buf_.size())
            clear();
    }

    std::size_t size() const noexcept { return lent_.empty() ? buf_.size() - pos_ : lent_.size(); }
    bool empty() const noexcept { return size() == 0; }

    void clear() noexcept
    {
        buf_.clear();
        pos_ = 0;
        lent_ = {};
    }

private:
    std::string buf_;
    std::size_t pos_ = 0;
    std::string_view lent_;   // the caller's chunk, during one feed (the owned buffer is empty then)
};

struct marker_match {
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    std::size_t position = 0;   ///< Start of the full match, or of the partial match at the end, or text.size().
    std::size_t marker = npos;  ///< Index of the fully matched marker, or npos when none matched fully.
    bool prefix = false;        ///< text[position..] is a proper prefix of some marker: hold it back.
};

namespace scan {

constexpr unsigned char lower(unsigned char c) noexcept
{
    return c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c - 'A' + 'a') : c;
}

/// How many leading bytes of `text` agree with `marker` (stops at the first difference).
inline std::size_t common_prefix(std::string_view text, std::string_view marker, bool ignore_case) noexcept
{
    std::size_t n = text.size() < marker.size() ? text.size() : marker.size();
    std::size_t i = 0;
    if (ignore_case) {
        while (i < n && lower(static_cast<unsigned char>(text[i])) == lower(static_cast<unsigned char>(marker[i])))
            ++i;
    } else {
        while (i < n && text[i] == marker[i])
            ++i;
    }
    return i;
}

/// What `rest` is, after a marker: `yes`, fewer than `max_blanks` blanks and then one of `next`
/// (empty ones left out); `more` while it may still become that; `past_lookahead` once the
/// blanks reach `max_blanks`; `no` otherwise.
enum class follows { yes, no, more, past_lookahead };
inline follows followed_by(std::string_view rest, std::span<const std::string_view> next, std::size_t max_blanks,
                           bool ignore_case) noexcept
{
    std::size_t i = 0;
    while (i < rest.size() && i < max_blanks && is_blank(rest[i]))
        ++i;
    if (i == max_blanks)
        return follows::past_lookahead;
    const std::string_view text = rest.substr(i);
    bool prefix = false;
    for (const std::string_view marker : next) {
        if (marker.empty())
            continue;
        const std::size_t n = common_prefix(text, marker, ignore_case);
        if (n == marker.size())
            return follows::yes;
        prefix = prefix || n == text.size();
    }
    return prefix ? follows::more : follows::no;
}

/// Checks the markers at candidate `p`: a full match is final; the first partial one is kept.
inline bool try_at(std::string_view text, std::size_t p, std::span<const std::string_view> markers,
                   bool ignore_case, marker_match& out) noexcept
{
    const std::string_view rest(text.data() + p, text.size() - p);
    for (std::size_t i = 0; i < markers.size(); ++i) {
        auto m = markers[i];
        if (m.empty())
            continue;
        auto n = common_prefix(rest, m, ignore_case);
        if (n == m.size()) {
            out = {p, i, false};
            return true;
        }
        if (n == rest.size() && !out.prefix)
            out = {p, marker_match::npos, true};
    }
    return false;
}

/// Which bytes start one of a set of markers.
using first_byte_table = std::array<bool, 256>;

/// The bytes that start one of `markers` (both cases of a letter when `ignore_case`).
inline first_byte_table first_bytes(std::span<const std::string_view> markers, bool ignore_case) noexcept
{
    first_byte_table first{};
    for (auto m : markers) {
        if (m.empty())
            continue;
        auto c = static_cast<unsigned char>(m.front());
        first[c] = true;
        if (ignore_case) {
            first[lower(c)] = true;
            if (c >= 'a' && c <= 'z')
                first[c - 'a' + 'A'] = true;
        }
    }
    return first;
}

/// find_marker with the table first_bytes made of `markers`, for a set searched often.
inline marker_match find_by_table(std::string_view text, std::span<const std::string_view> markers,
                                  const first_byte_table& first, bool ignore_case) noexcept
{
    marker_match out{text.size(), marker_match::npos, false};
    for (std::size_t p = 0; p < text.size(); ++p)
        if (first[static_cast<unsigned char>(text[p])] && try_at(text, p, markers, ignore_case, out))
            break;
    return out;
}

/// find_marker for markers starting with more than four distinct bytes: a first-byte table.
inline marker_match find_by_table(std::string_view text, std::span<const std::string_view> markers,
                                  bool ignore_case) noexcept
{
    return find_by_table(text, markers, first_bytes(markers, ignore_case), ignore_case);
}

} // namespace scan

/// Up to `capacity` markers prepared for find_marker: their distinct first bytes (both cases of
/// a letter when `ignore_case`) are collected once, so a search on a few bytes costs little.
class marker_set {
public:
    static constexpr std::size_t capacity = 9;

    constexpr marker_set() = default;

    /// The first `capacity` of `markers`; empty markers are ignored.
    constexpr marker_set(std::span<const std::string_view> markers, bool ignore_case) noexcept
        : ignore_case_(ignore_case)
    {
        for (auto m : markers) {
            if (m.empty() || count_ == capacity)
                continue;
            markers_[count_++] = m;
            const auto c = static_cast<unsigned char>(m.front());
            add_first(c);
            if (ignore_case) {
                add_first(scan::lower(c));
                if (c >= 'a' && c <= 'z')
                    add_first(static_cast<unsigned char>(c - 'a' + 'A'));
            }
        }
    }

    constexpr std::span<const std::string_view> markers() const noexcept { return {markers_.data(), count_}; }
    constexpr bool ignore_case() const noexcept { return ignore_case_; }

    /// See find_marker.
    marker_match find(std::string_view text) const
    {
        if (many_)
            return scan::find_by_table(text, markers(), ignore_case_);
        marker_match out{text.size(), marker_match::npos, false};
        const char* const data = text.data();
        const std::size_t size = text.size();
        if (distinct_ == 0 || size == 0)   // an empty view may hold a null pointer, which memchr must not get
            return out;
        if (size < short_text) {   // a feed of a token or two: a byte loop costs less than memchr's set-up
            for (std::size_t p = 0; p < size; ++p)
                if (starts_marker(static_cast<unsigned char>(data[p]))
                    && scan::try_at(text, p, markers(), ignore_case_, out))
                    break;
            return out;
        }
        if (distinct_ == 1) {
            for (std::size_t p = 0; p < size; ++p) {
                const void* hit = std::memchr(data + p, firsts_[0], size - p);
                if (hit == nullptr)
                    break;
                p = static_cast<std::size_t>(static_cast<const char*>(hit) - data);
                if (scan::try_at(text, p, markers(), ignore_case_, out))
                    break;
            }
            return out;
        }
        // Next occurrence of each first byte at or after the cursor, found lazily so each byte is
        // searched once per first byte.
        std::array<std::size_t, 4> next{};
        auto refresh = [&](std::size_t k, std::size_t from) {
            const void* hit = from < size ? std::memchr(data + from, firsts_[k], size - from) : nullptr;
            next[k] = hit != nullptr ? static_cast<std::size_t>(static_cast<const char*>(hit) - data) : size;
        };
        for (std::size_t k = 0; k < distinct_; ++k)
            refresh(k, 0);
        for (std::size_t p = 0; p < size; ++p) {
            std::size_t best = size;
            for (std::size_t k = 0; k < distinct_; ++k) {
                if (next[k] < p)
                    refresh(k, p);
                if (next[k] < best)
                    best = next[k];
            }
            p = best;
            if (p >= size || scan::try_at(text, p, markers(), ignore_case_, out))
                break;
        }
        return out;
    }

private:
    // Below this size a byte loop runs fewer instructions than a memchr per first byte.
    static constexpr std::size_t short_text = 16;

    constexpr bool starts_marker(unsigned char c) const noexcept
    {
        for (std::size_t k = 0; k < distinct_; ++k)
            if (firsts_[k] == c)
                return true;
        return false;
    }

    constexpr void add_first(unsigned char c) noexcept
    {
        for (std::size_t k = 0; k < distinct_; ++k)
            if (firsts_[k] == c)
                return;
        if (distinct_ < firsts_.size())
            firsts_[distinct_++] = c;
        else
            many_ = true;
    }

    std::array<std::string_view, capacity> markers_{};
    std::size_t count_ = 0;
    std::array<unsigned char, 4> firsts_{};
    std::size_t distinct_ = 0;
    bool many_ = false;   // more than four first bytes: a table scan
    bool ignore_case_ = false;
};

/// Earliest full occurrence of any marker in `text` (at one position, the lowest index wins); if
/// there is none, the earliest suffix of `text` that is a proper prefix of a marker (to hold
/// back); else position == text.size(). Case-insensitive for ASCII when the set is. Candidates
/// are found with memchr when the markers start with at most four distinct bytes (the usual `<`,
/// `{`, `[`; a byte loop for a text shorter than 16 bytes), else with a first-byte table; each
/// candidate costs at most the longest marker, so the scan is linear in `text`.
inline marker_match find_marker(std::string_view text, const marker_set& markers)
{
    return markers.find(text);
}

/// find_marker over markers given in place (their set is prepared on each call).
inline marker_match find_marker(std::string_view text, std::span<const std::string_view> markers,
                                bool ignore_case = false)
{
    return marker_set(markers, ignore_case).find(text);
}

inline marker_match find_marker(std::string_view text, std::initializer_list<std::string_view> markers,
                                bool ignore_case = false)
{
    return find_marker(text, std::span<const std::string_view>(markers.begin(), markers.size()), ignore_case);
}

} // namespace toolstream::detail
