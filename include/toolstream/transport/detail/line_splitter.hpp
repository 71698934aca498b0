// Byte-level framing shared by the SSE and NDJSON decoders: BOM skipping and line splitting.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/growth.hpp>
#include <toolstream/error.hpp>

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace toolstream::detail {

/// JSON's whitespace, which is also what both framings treat as blank.

inline constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

/// Drops a UTF-8 byte order mark at the start of a stream, even one split across writes.
class bom_skipper {
public:
    /// `replay` (earlier bytes that began like a BOM but were not one) comes before `rest`.
    struct parts {
        std::string_view replay;
        std::string_view rest;
    };

    parts strip(std::string_view bytes) noexcept
    {
        if (matched_ == settled)
            return {{}, bytes};
        const std::size_t before = matched_;
        std::size_t i = 0;
        while (i < bytes.size() && matched_ < utf8_bom.size() && bytes[i] == utf8_bom[matched_]) {
            ++i;
            ++matched_;
        }
        if (matched_ == utf8_bom.size()) {
            matched_ = settled;
            return {{}, bytes.substr(i)};
        }
        if (i == bytes.size())
            return {};   // everything so far may still be a BOM
        matched_ = settled;
        return {utf8_bom.substr(0, before), bytes};
    }

    /// The start of a BOM that the stream ended inside: it was data after all.
    std::string_view finish() noexcept
    {
        const std::size_t held = matched_ == settled ? 0 : matched_;
        matched_ = settled;
        return utf8_bom.substr(0, held);
    }

    void reset() noexcept { matched_ = 0; }

private:
    static constexpr std::size_t settled = static_cast<std::size_t>(-1);
    std::size_t matched_ = 0;   // BOM bytes seen so far, or `settled` once the start is known
};

/// Sets `ec` to a decoder's error and, when the visitor takes an `error_code`, passes it there
/// too, so that a caller converting events in between sees every error in stream order.
template<class Visitor>
void report_error(Visitor& visit, error_code& ec, error e)
{
    ec = e;
    if constexpr (std::is_invocable_v<Visitor&, error_code>)
        visit(ec);
}

/// Which bytes end a line.
enum class line_ends {
    cr_lf_crlf,   ///< SSE: CR, LF or CRLF; a CRLF split across writes is one line end.
    lf,           ///< NDJSON: LF only; a CR before it is stripped from the line.
};

/// Splits written bytes into lines, looking at each byte once (memchr), without copying lines
/// that lie wholly inside one write.
///
/// `write` calls `on_line(std::string_view line, bool in_input)` per complete line; `in_input`
/// says the view points into the written bytes (so it stays valid until `write` returns) rather
/// than into the splitter's own buffer (valid during the call only). A line longer than
/// `max_line` is never delivered: `on_overflow()` is called once for it instead, and its bytes
/// are dropped as they arrive, so at most `max_line + 1` bytes are ever buffered.
class line_splitter {
public:
    line_splitter(line_ends ends, std::size_t max_line) noexcept : max_line_(max_line), ends_(ends) {}

    template<class OnLine, class OnOverflow>
    void write(std::string_view bytes, OnLine&& on_line, OnOverflow&& on_overflow)
    {
        const char* p = bytes.data();
        const char* const end = p + bytes.size();
        if (skip_lf_ && p != end) {
            skip_lf_ = false;
            if (*p == '\n')
                ++p;
        }
        // The next CR bounds the LF search, so neither search passes a byte twice.
        const char* cr = ends_ == line_ends::cr_lf_crlf ? find(p, end, '\r') : end;
        while (p != end) {
            const char* const eol = find(p, cr, '\n');
            if (eol == end)
                break;
            const std::string_view line(p, static_cast<std::size_t>(eol - p));
            p = eol + 1;
            if (*eol == '\r') {
                if (p == end)
                    skip_lf_ = true;
                else if (*p == '\n')
                    ++p;
                cr = find(p, end, '\r');
            }
            complete(line, on_line, on_overflow);
        }
        if (p == end || dropping_)
            return;
        if (!append({p, static_cast<std::size_t>(end - p)})) {
            dropping_ = true;
            on_overflow();
        }
    }

    /// End of input: delivers a last line that lacks its line end.
    template<class OnLine>
    void finish(OnLine&& on_line)
    {
        if (!partial_.empty())
            on_line(strip_cr(partial_), false);
        reset();
    }

    /// Inside `on_line` for a line that is not `in_input`: swaps the buffer holding it with
    /// `into`, so that a long line gathered across writes changes hands without a copy. The view
    /// `on_line` got then points into `into`, which ends with the line (but for the CR that `lf`
    /// mode strips). A short line (which may live inside the string object itself) is not taken:
    /// returns false and nothing changes.
    bool take_line(std::string& into) noexcept
    {
        if (partial_.size() < min_taken_line)
            return false;
        partial_.swap(into);
        return true;
    }

    /// Drops the line in progress: the bytes up to the next line end are not a line.
    void drop_line() noexcept
    {
        partial_.clear();
        dropping_ = true;
    }

    void reset() noexcept
    {
        partial_.clear();
        skip_lf_ = false;
        dropping_ = false;
    }

    std::size_t buffered_bytes() const noexcept { return partial_.size(); }

    /// The buffer that holds a line `on_line` got with `in_input` false (which a caller may free
    /// during that call: the splitter only clears it after).
    std::string& line_buffer() noexcept { return partial_; }

private:
    // Well beyond any small-string buffer, whose characters a swap would move.
    static constexpr std::size_t min_taken_line = 1024;

    static const char* find(const char* first, const char* last, char c) noexcept
    {
        if (first == last)   // an empty view may hold a null pointer, which memchr must not get
            return last;
        const void* hit = std::memchr(first, c, static_cast<std::size_t>(last - first));
        return hit != nullptr ? static_cast<const char*>(hit) : last;
    }

    template<class OnLine, class OnOverflow>
    void complete(std::string_view line, OnLine& on_line, OnOverflow& on_overflow)
    {
        if (dropping_) {   // the end of an overlong line, already reported
            dropping_ = false;
            return;
        }
        const bool in_input = partial_.empty();
        if (in_input ? !fits({}, line) : !append(line)) {
            on_overflow();
            return;
        }
        on_line(strip_cr(in_input ? line : std::string_view(partial_)), in_input);
        partial_.clear();
    }

    // Whether `head` + `tail` stays within the limit; a last CR that `lf` mode strips is free.
    bool fits(std::string_view head, std::string_view tail) const noexcept
    {
        const std::size_t size = head.size() + tail.size();
        const char last = !tail.empty() ? tail.back() : !head.empty() ? head.back() : '\0';
        return size - (ends_ == line_ends::lf && last == '\r') <= max_line_;
    }

    // Adds to the partial line, or drops it when that would exceed the limit.
    bool append(std::string_view piece)
    {
        if (!fits(partial_, piece)) {
            partial_.clear();
            return false;
        }
        append_growing(partial_, piece);
        return true;
    }

    std::string_view strip_cr(std::string_view line) const noexcept
    {
        if (ends_ == line_ends::lf && !line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        return line;
    }

    std::string partial_;      // the incomplete last line of earlier writes
    std::size_t max_line_;
    line_ends ends_;
    bool skip_lf_ = false;     // the last write ended in CR: an LF starting the next one ends nothing
    bool dropping_ = false;    // inside an overlong line, until its end
};

} // namespace toolstream::detail
