// The streamed value of one <arg> of the xml policy: a file body (write_file `content`,
// patch_file `patch`, with optional start/end markers) or a command (run_bash, no markers).
#pragma once

#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/formats/detail/xml_lexing.hpp>

#include <cstddef>
#include <string_view>

namespace toolstream::detail {

/// Reads an <arg> value from right after its opening tag through its closing syntax. Bytes go
/// out through `emit(n, markup)`, which reports the first `n` bytes of the buffer as content
/// (`markup == false`) or consumed syntax and consumes them; input order is kept.
///
/// With markers (file bodies): leading whitespace, then `start_marker` (its whitespace and one
/// line break after it are syntax, at any chunking), then the body up to an `end_marker` that is
/// followed by optional whitespace and `</arg>` (or `</arguments>`/`</tool>` when `</arg>` is
/// missing). Other end markers are body text. With no end marker at all, an `</arg>` followed by
/// optional whitespace and `</arguments>` or `</tool>` ends the body. In both cases the
/// indentation on the closing line is syntax, so the body ends with its last line break.
/// Without a start marker (or with markers disabled): the raw bytes up to the first `</arg>`,
/// where a CDATA section's delimiters are syntax and its inside is body (so it may hold `</arg>`).
/// Markers and tags match ASCII case-insensitively. Every undecided stretch (whitespace before
/// the start marker, a closing line's indentation, the lookahead after a marker) is held only
/// while shorter than `cap` bytes (indentation plus a partial marker: `cap + 14`); past that it
/// is decided as body.
class xml_body {
public:
    /// Starts a value; empty markers read it plainly.
    void begin(std::string_view start_marker, std::string_view end_marker) noexcept
    {
        start_ = start_marker;
        end_ = end_marker;
        const std::string_view closers[] = {end_, arg_close};
        closers_ = marker_set(closers, true);
        phase_ = start_.empty() ? phase::plain : phase::seek;
        hint_ = 0;
        indent_ = 0;
        line_start_ = true;
    }

    bool done() const noexcept { return phase_ == phase::done; }

    /// One step; false when it needs more input.
    template<class Emit>
    bool step(scan_buffer& buf, std::size_t cap, Emit& emit)
    {
        switch (phase_) {
        case phase::seek: return seek(buf.view(), cap, emit);
        case phase::after_start: return after_start(buf.view(), emit);
        case phase::marked: return marked(buf.view(), cap, emit);
        case phase::closing: return closing(buf.view(), cap, emit);
        case phase::plain: return plain(buf.view(), emit);
        case phase::cdata: return cdata(buf.view(), emit);
        case phase::done: break;
        }
        return false;
    }

private:
    enum class phase { seek, after_start, marked, closing, plain, cdata, done };

    static constexpr std::string_view arg_close = "</arg>";
    static constexpr std::string_view cdata_open = "<![CDATA[";
    static constexpr std::string_view cdata_close = "]]>";
    static constexpr std::string_view plain_markers[] = {arg_close, cdata_open};
    static constexpr marker_set plain_set{plain_markers, true};
    static constexpr std::string_view cdata_markers[] = {cdata_close};
    static constexpr marker_set cdata_set{cdata_markers, false};

    static constexpr bool is_indent(char c) noexcept { return c == ' ' || c == '\t'; }

    template<class Emit>
    bool take(std::size_t n, bool markup, Emit& emit)
    {
        emit(n, markup);
        hint_ = 0;
        return true;
    }

    // Whitespace, then the start marker (marker mode) or anything else (plain mode). Only the
    // first `cap` bytes may decide, so the decision is the same at every chunking.
    template<class Emit>
    bool seek(std::string_view v, std::size_t cap, Emit& emit)
    {
        const std::string_view w = v.substr(0, cap);
        std::size_t i = hint_;
        while (i < w.size() && is_blank(w[i]))
            ++i;
        hint_ = i;
        const std::string_view rest = w.substr(i);
        const std::size_t n = scan::common_prefix(rest, start_, true);
        const bool fits = i + start_.size() <= cap;
        if (fits && n == start_.size()) {
            phase_ = phase::after_start;
            return take(i + n, true, emit);
        }
        if (fits && n == rest.size())
            return false;   // only whitespace or a marker prefix so far
        phase_ = phase::plain;
        hint_ = 0;
        return true;
    }

    // One line break right after the start marker is syntax, whichever chunk brings it.
    template<class Emit>
    bool after_start(std::string_view v, Emit& emit)
    {
        if (v.empty() || (v[0] == '\r' && v.size() < 2))
            return false;
        phase_ = phase::marked;
        line_start_ = true;
        indent_ = 0;
        if (v[0] == '\n')
            return take(1, true, emit);
        if (v.starts_with("\r\n"))
            return take(2, true, emit);
        return true;
    }

    // Emits v[0, pos) as body but holds its trailing indentation (blanks after a line break),
    // which is syntax if a closing marker follows.
    template<class Emit>
    void emit_keeping_indent(std::string_view v, std::size_t pos, std::size_t cap, Emit& emit)
    {
        // v[0, indent_) is known blank when line_start_: do not walk it again.
        const std::size_t floor = line_start_ ? indent_ : 0;
        std::size_t j = pos;
        while (j > floor && is_indent(v[j - 1]))
            --j;
        if (line_start_ && j == floor)
            j = 0;
        bool held = j == 0 ? line_start_ : v[j - 1] == '\n';
        if (held && pos - j >= cap)
            held = false;
        if (!held)
            j = pos;
        take(j, false, emit);
        indent_ = pos - j;
        line_start_ = held;
    }

    template<class Emit>
    bool marked(std::string_view v, std::size_t cap, Emit& emit)
    {
        if (line_start_) {
            std::size_t i = indent_;
            while (i < v.size() && is_indent(v[i]))
                ++i;
            indent_ = i;
            if (indent_ >= cap) {   // too deep to be a closing line's indentation
                line_start_ = false;
                indent_ = 0;
                return take(i, false, emit);
            }
            if (i == v.size())
                return false;
        }
        const std::size_t from = line_start_ ? indent_ : 0;
        const auto m = find_marker(v.substr(from), closers_);
        const auto markers = closers_.markers();
        const std::size_t pos = from + m.position;
        emit_keeping_indent(v, pos, cap, emit);   // v is stale from here
        if (m.marker == marker_match::npos)
            return pos > indent_;   // progress when some body went out
        closer_ = m.marker;
        hint_ = indent_ + markers[m.marker].size();
        phase_ = phase::closing;
        return true;
    }

    // After an end marker (or a bare </arg>): blanks, then a closing tag decides whether it
    // ends the body. The whole undecided stretch stays within `cap` bytes.
    template<class Emit>
    bool closing(std::string_view v, std::size_t cap, Emit& emit)
    {
        static constexpr std::string_view closers[] = {"</arg>", "</arguments>", "</tool>"};
        const std::string_view w = v.substr(0, cap);
        std::size_t i = hint_;   // past the indentation and the marker, which may pass `cap`
        while (i < w.size() && is_blank(w[i]))
            ++i;
        hint_ = i;
        const std::string_view rest = i < w.size() ? w.substr(i) : std::string_view();
        bool maybe = false;
        // An end marker may close with </arg>; a bare </arg> needs the tag that follows it.
        for (std::size_t k = closer_ == 0 ? 0 : 1; k < 3; ++k) {
            const std::size_t n = scan::common_prefix(rest, closers[k], true);
            if (n == closers[k].size()) {
                phase_ = phase::done;
                line_start_ = false;
                indent_ = 0;
                return take(k == 0 ? i + n : i, true, emit);   // the others close in args
            }
            maybe = maybe || (n == rest.size() && i + closers[k].size() <= cap);
        }
        if (maybe)
            return false;
        // Not the end: the marker and its blanks are body text.
        phase_ = phase::marked;
        emit_keeping_indent(v, i, cap, emit);
        return true;
    }

    template<class Emit>
    bool plain(std::string_view v, Emit& emit)
    {
        const auto m = find_marker(v, plain_set);
        if (m.position > 0)
            take(m.position, false, emit);
        if (m.marker == 0) {
            phase_ = phase::done;
            return take(arg_close.size(), true, emit);
        }
        if (m.marker == 1) {
            phase_ = phase::cdata;
            return take(cdata_open.size(), true, emit);
        }
        return m.position > 0;
    }

    template<class Emit>
    bool cdata(std::string_view v, Emit& emit)
    {
        const auto m = find_marker(v, cdata_set);
        if (m.position > 0)
            take(m.position, false, emit);
        if (m.marker == 0) {
            phase_ = phase::plain;
            return take(cdata_close.size(), true, emit);
        }
        return m.position > 0;
    }

    std::string_view start_;
    std::string_view end_;
    marker_set closers_;            // end_ (when not empty), then </arg>
    phase phase_ = phase::done;
    std::size_t hint_ = 0;
    std::size_t indent_ = 0;        // held blanks at the front of the buffer (when line_start_)
    bool line_start_ = true;        // the body emitted so far ends a line (or is empty)
    std::size_t closer_ = 0;        // 0: end marker, 1: bare </arg>
};

} // namespace toolstream::detail
