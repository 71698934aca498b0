// One block of the xml policy, from right after its opening tag through its closing tag: a
// generic <tool>, a write_file/patch_file or run_bash <tool>, or a shorthand tag.
#pragma once

#include <toolstream/policies/detail/marker_scanner.hpp>
#include <toolstream/policies/detail/xml_arguments.hpp>
#include <toolstream/policies/detail/xml_body.hpp>
#include <toolstream/policies/detail/xml_lexing.hpp>
#include <toolstream/error.hpp>
#include <toolstream/segment_writer.hpp>
#include <toolstream/types.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream::detail {

enum class xml_block_kind {
    generic,     ///< <tool name="x">: the raw inner XML up to </tool>
    file,        ///< <tool name="write_file|patch_file">: the body only; START waits for the path
    shell,       ///< <tool name="run_bash">: the command only
    shorthand,   ///< <write_file path="…"> / <run_bash>: raw bytes up to the closing tag
};

/// Reads one block from a scan_buffer whose front is the block's next unread byte. Everything
/// that is not content is reported as markup, in input order. A file tool's content that comes
/// before its path is held (with the markup after it) until the path or the block's end, or
/// until more than `max_held` bytes wait: then the segment STARTs without its path.
class xml_block {
public:
    /// Starts a block right after its opening tag (already reported). `empty`: the tag was
    /// self-closing, so the block ends at once.
    template<class W>
    void begin(xml_block_kind kind, segment_type type, boost::json::object meta, bool empty, std::size_t max_held,
               W& out)
    {
        max_held_ = max_held;
        kind_ = kind;
        type_ = type;
        meta_ = std::move(meta);
        started_ = false;
        depth_ = 0;
        hint_ = 0;
        pending_.clear();
        pieces_.clear();
        const bool patch = type == segment_type::patch_file;
        phase_ = kind == xml_block_kind::generic ? phase::body
            : kind == xml_block_kind::shorthand  ? phase::raw
                                                 : phase::args;
        close_ = type == segment_type::write_file ? "</write_file>" : "</run_bash>";
        content_key_ = patch ? "patch" : "content";
        start_marker_ = patch ? "__START_PATCH__" : "__START_CONTENT__";
        end_marker_ = patch ? "__END_PATCH__" : "__END_CONTENT__";
        if (kind != xml_block_kind::file)
            start(out);
        if (empty)
            finish(segment_status::complete, out);
    }

    bool done() const noexcept { return phase_ == phase::done; }

    /// Content held until a file tool's path arrives (at most `max_held`).
    std::size_t held_bytes() const noexcept { return pending_.size(); }

    /// One step over `buf` (not empty); false when it needs more input.
    template<class W>
    bool step(scan_buffer& buf, std::size_t cap, W& out)
    {
        switch (phase_) {
        case phase::body: return body(buf, cap, out);
        case phase::section: return section(buf, out);
        case phase::args: return args(buf, cap, out);
        case phase::value: return value(buf, cap, out);
        case phase::arg_body: {
            auto emit = [&](std::size_t n, bool markup) { take(buf, n, markup, out); };
            const bool progressed = arg_.step(buf, cap, emit);
            if (arg_.done())
                phase_ = phase::args;
            return progressed;
        }
        case phase::raw: return raw(buf, out);
        case phase::done: break;
        }
        return false;
    }

    /// End of stream inside the block: held bytes go out (content if they can only be content,
    /// else markup), and the segment ENDs `incomplete`.
    template<class W>
    void finalize(scan_buffer& buf, W& out)
    {
        const std::string_view v = buf.view();
        if (phase_ == phase::arg_body) {
            auto emit = [&](std::size_t n, bool markup) { take(buf, n, markup, out); };
            arg_.finalize(buf, emit);
        } else if (phase_ == phase::body) {
            // A partial </tool> is syntax; a partial tag of the arguments is content.
            take(buf, v.size(), scan::common_prefix(v, "</tool>", true) == v.size(), out);
        } else {
            take(buf, v.size(), phase_ != phase::section, out);
        }
        finish(segment_status::incomplete, out);
    }

    void reset() noexcept
    {
        phase_ = phase::done;
        pending_.clear();
        pieces_.clear();
        meta_.clear();
    }

private:
    enum class phase { body, section, args, value, arg_body, raw, done };
    enum class value_key { path, background, timeout };

    struct piece {
        std::size_t size;
        bool markup;
    };

    template<class W>
    void start(W& out)
    {
        ref_ = out.start(type_, std::move(meta_));   // leaves meta_ empty
        started_ = true;
        std::size_t at = 0;
        for (const piece& p : pieces_) {
            const std::string_view bytes = std::string_view(pending_).substr(at, p.size);
            if (p.markup)
                out.markup(bytes);
            else
                out.content(ref_, bytes);
            at += p.size;
        }
        pending_.clear();
        pieces_.clear();
    }

    template<class W>
    void finish(segment_status status, W& out)
    {
        if (!started_)
            start(out);   // a file tool without a path: the writer reports it
        if (status == segment_status::complete && type_ == segment_type::tool_call)
            end_with_content_arguments(out, ref_);
        else if (status == segment_status::complete) {
            out.end(ref_);
        } else {
            const std::string why = make_error_code(error::incomplete_call).message();
            out.end(ref_, status, why);
        }
        phase_ = phase::done;
    }

    // Content before a file's START is held, and so is markup behind held content, up to
    // max_held_ bytes: past that the START goes out without the path (which, if it comes,
    // is set in the END's metadata).
    template<class W>
    void emit(std::string_view bytes, bool markup, W& out)
    {
        if (bytes.empty())
            return;
        bool holds = !started_ && (!markup || !pieces_.empty());
        if (holds && bytes.size() > max_held_ - pending_.size()) {
            start(out);
            holds = false;
        }
        if (holds) {
            pending_.append(bytes);
            if (!pieces_.empty() && pieces_.back().markup == markup)
                pieces_.back().size += bytes.size();
            else
                pieces_.push_back({bytes.size(), markup});
        } else if (markup) {
            out.markup(bytes);
        } else {
            out.content(ref_, bytes);
        }
    }

    template<class W>
    bool take(scan_buffer& buf, std::size_t n, bool markup, W& out)
    {
        emit(buf.view().substr(0, n), markup, out);
        buf.consume(n);
        hint_ = 0;
        return true;
    }

    // What starts at v[0] == '<'. In a generic body CDATA sections and comments are read whole,
    // so a </tool> inside them does not end the call.
    tag_scan lex(std::string_view v, bool sections, std::size_t cap)
    {
        if (v.size() < 2)
            return {};
        if (!can_start_markup(v[1]))
            return {tag_scan::kind::not_tag, 1};
        if (sections && v[1] == '!') {
            static constexpr std::string_view opens[] = {"<![CDATA[", "<!--"};
            static constexpr std::string_view closes[] = {"]]>", "-->"};
            for (std::size_t k = 0; k < 2; ++k) {
                const std::size_t n = scan::common_prefix(v, opens[k], false);
                if (n == opens[k].size()) {
                    section_end_ = closes[k];
                    return {tag_scan::kind::section, n};
                }
                if (n == v.size())
                    return {};
            }
        }
        return scan_tag(v, hint_, cap);
    }

    // Generic tool: everything is content but the closing </tool>, which counts only outside
    // <arg> elements (so `</tool>` inside an argument value does not end the call early).
    template<class W>
    bool body(scan_buffer& buf, std::size_t cap, W& out)
    {
        const std::string_view v = buf.view();
        if (v[0] != '<')
            return take(buf, std::min(v.find('<'), v.size()), false, out);
        const tag_scan t = lex(v, true, cap);
        if (t.type == tag_scan::kind::more)
            return false;
        if (t.type == tag_scan::kind::section)
            phase_ = phase::section;
        if (t.type != tag_scan::kind::tag)
            return take(buf, t.size, false, out);
        const auto tag = read_tag(v.substr(0, t.size));
        if (depth_ == 0 && is_tag(tag, "tool", true)) {
            take(buf, t.size, true, out);
            finish(segment_status::complete, out);
            return true;
        }
        if (is_tag(tag, "arg", false) && !tag->self_closing)
            ++depth_;
        else if (is_tag(tag, "arg", true) && depth_ > 0)
            --depth_;
        else if (is_tag(tag, "arguments", true))
            depth_ = 0;   // closing the wrapper closes any <arg> left open
        return take(buf, t.size, false, out);
    }

    template<class W>
    bool section(scan_buffer& buf, W& out)
    {
        const auto m = find_marker(buf.view(), {section_end_});
        if (m.marker == 0)
            phase_ = phase::body;
        const std::size_t n = m.position + (m.marker == 0 ? section_end_.size() : 0);
        return n > 0 && take(buf, n, false, out);
    }

    // Between the arguments of a file or shell tool: all syntax, up to an <arg> this tool
    // streams or reads, or </tool>.
    template<class W>
    bool args(scan_buffer& buf, std::size_t cap, W& out)
    {
        const std::string_view v = buf.view();
        if (v[0] != '<')
            return take(buf, std::min(v.find('<'), v.size()), true, out);
        const tag_scan t = lex(v, false, cap);
        if (t.type == tag_scan::kind::more)
            return false;
        if (t.type == tag_scan::kind::tag) {
            const auto tag = read_tag(v.substr(0, t.size));
            if (is_tag(tag, "tool", true)) {
                take(buf, t.size, true, out);
                finish(segment_status::complete, out);
                return true;
            }
            if (is_tag(tag, "arg", false) && !tag->self_closing)
                if (const auto name = find_attribute(tag->attributes, "name"))
                    route(xml_value(*name));
        }
        return take(buf, t.size, true, out);
    }

    void route(std::string_view key)
    {
        if (kind_ == xml_block_kind::file) {
            if (iequals_ascii(key, "path")) {
                phase_ = phase::value;
                value_ = value_key::path;
            } else if (iequals_ascii(key, content_key_)) {
                phase_ = phase::arg_body;
                arg_.begin(start_marker_, end_marker_);
            }
            return;
        }
        if (iequals_ascii(key, "command")) {
            phase_ = phase::arg_body;
            arg_.begin({}, {});
        } else if (iequals_ascii(key, "background")) {
            phase_ = phase::value;
            value_ = value_key::background;
        } else if (iequals_ascii(key, "timeout_seconds") || iequals_ascii(key, "timeoutSeconds")) {
            phase_ = phase::value;
            value_ = value_key::timeout;
        }
    }

    // A value read whole (path, run_bash options): held until its </arg>, at most `cap` bytes;
    // a longer one is not read and its bytes are syntax.
    template<class W>
    bool value(scan_buffer& buf, std::size_t cap, W& out)
    {
        static constexpr std::string_view close = "</arg>";
        const std::string_view v = buf.view();
        const std::string_view w = v.substr(0, cap);
        const auto m = find_marker(w.substr(hint_), {close}, true);
        const std::size_t pos = hint_ + m.position;
        if (m.marker == 0) {
            const std::string raw(v.substr(0, pos));
            phase_ = phase::args;
            set_value(raw, out);   // a path STARTs the file: held bytes before it go first
            return take(buf, pos + close.size(), true, out);
        }
        if (w.size() == cap) {
            phase_ = phase::args;
            out.report(error::marker_too_long);   // a value longer than the cap is not read
            return take(buf, cap, true, out);
        }
        hint_ = pos;
        return false;
    }

    template<class W>
    void set_value(std::string_view raw, W& out)
    {
        if (value_ != value_key::path) {
            set_shell_option(value_ == value_key::background ? "background" : "timeout_seconds", raw,
                             out.metadata(ref_));
            return;
        }
        std::string path = xml_value(raw);
        if (path.empty())
            return;
        if (started_) {
            out.metadata(ref_)["path"] = path;   // a later path wins, as with duplicate arguments
            return;
        }
        meta_["path"] = path;
        start(out);
    }

    // Shorthand tags: raw bytes up to the closing tag.
    template<class W>
    bool raw(scan_buffer& buf, W& out)
    {
        const auto m = find_marker(buf.view(), {close_}, true);
        if (m.position > 0)
            take(buf, m.position, false, out);
        if (m.marker != 0)
            return m.position > 0;
        take(buf, close_.size(), true, out);
        finish(segment_status::complete, out);
        return true;
    }

    xml_block_kind kind_ = xml_block_kind::generic;
    segment_type type_ = segment_type::tool_call;
    phase phase_ = phase::done;
    boost::json::object meta_;        // START metadata while a file waits for its path
    segment_ref ref_{};
    bool started_ = false;
    std::size_t hint_ = 0;            // how far a held tag or value was already searched
    std::size_t depth_ = 0;           // open <arg> elements in a generic body
    value_key value_ = value_key::path;
    xml_body arg_;
    std::string_view section_end_;
    std::string_view close_;
    std::string_view content_key_;
    std::string_view start_marker_;
    std::string_view end_marker_;
    std::size_t max_held_ = 0;        // the most bytes pending_ may hold
    std::string pending_;             // held bytes of a file whose path is not known yet
    std::vector<piece> pieces_;       // pending_ split into content and markup, in input order
};

} // namespace toolstream::detail
