// One block of the xml policy, from right after its opening tag through its closing tag: a
// generic <tool>, a write_file/patch_file or run_bash <tool>, or a shorthand tag.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/formats/detail/xml_arguments.hpp>
#include <toolstream/parse/formats/detail/xml_body.hpp>
#include <toolstream/parse/formats/detail/xml_lexing.hpp>
#include <toolstream/parse/segment_emitter.hpp>
#include <toolstream/segment_event.hpp>

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

/// Reads one block from a block_context whose buffer front is the block's next unread byte.
/// Everything that is not content is reported as markup, in input order, through the call frame
/// (which holds a file's content and the markup after it until its path arrives).
class xml_block {
public:
    /// Starts a block right after its opening tag (already reported). `empty`: the tag was
    /// self-closing, so the block ends at once.
    template<emitter W>
    void begin(xml_block_kind kind, segment_type type, boost::json::object meta, bool empty, block_context<W>& ctx)
    {
        kind_ = kind;
        type_ = type;
        depth_ = 0;
        hint_ = 0;
        const bool patch = type == segment_type::patch_file;
        phase_ = kind == xml_block_kind::generic ? phase::body
            : kind == xml_block_kind::shorthand  ? phase::raw
                                                 : phase::args;
        close_ = type == segment_type::write_file ? "</write_file>" : "</run_bash>";
        close_set_ = marker_set({&close_, 1}, true);
        content_key_ = patch ? "patch" : "content";
        start_marker_ = patch ? "__START_PATCH__" : "__START_CONTENT__";
        end_marker_ = patch ? "__END_PATCH__" : "__END_CONTENT__";
        ctx.call.begin(type, std::move(meta), {}, false, ctx.out);   // a file waits for its path
        if (empty)
            finish(ctx);
    }

    bool done() const noexcept { return phase_ == phase::done; }

    /// One step over the buffer (not empty); false when it needs more input.
    template<emitter W>
    bool step(block_context<W>& ctx, std::size_t cap)
    {
        switch (phase_) {
        case phase::body: return body(ctx, cap);
        case phase::section: return section(ctx);
        case phase::args: return args(ctx, cap);
        case phase::value: return value(ctx, cap);
        case phase::arg_body: {
            auto emit = [&](std::size_t n, bool markup) { take(ctx, n, markup); };
            const bool progressed = arg_.step(ctx.buf, cap, emit);
            if (arg_.done())
                phase_ = phase::args;
            return progressed;
        }
        case phase::raw: return raw(ctx);
        case phase::done: break;
        }
        return false;
    }

    /// End of stream inside the block: held bytes are what ordinary bytes are where they stand:
    /// syntax between a file or shell tool's arguments and inside a value read whole, content
    /// everywhere else (a partial `</tool>`, closing tag or end marker included). The driver
    /// then ENDs the segment `incomplete`.
    template<emitter W>
    void finalize(block_context<W>& ctx)
    {
        take(ctx, ctx.view().size(), phase_ == phase::args || phase_ == phase::value);
        phase_ = phase::done;
    }

    void reset() noexcept { phase_ = phase::done; }

private:
    enum class phase { body, section, args, value, arg_body, raw, done };
    enum class value_key { path, background, timeout };

    template<emitter W>
    void finish(block_context<W>& ctx)
    {
        if (type_ == segment_type::tool_call)
            end_with_content_arguments(ctx.call, ctx.out);
        else
            ctx.call.end(ctx.out);   // a file tool without a path: the writer reports it
        phase_ = phase::done;
    }

    template<emitter W>
    bool take(block_context<W>& ctx, std::size_t n, bool markup)
    {
        ctx.take(n, markup ? byte_role::markup : byte_role::content);
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
    template<emitter W>
    bool body(block_context<W>& ctx, std::size_t cap)
    {
        const std::string_view v = ctx.view();
        if (v[0] != '<')
            return take(ctx, std::min(v.find('<'), v.size()), false);
        const tag_scan t = lex(v, true, cap);
        if (t.type == tag_scan::kind::more)
            return false;
        if (t.type == tag_scan::kind::section)
            phase_ = phase::section;
        if (t.type != tag_scan::kind::tag)
            return take(ctx, t.size, false);
        const auto tag = read_tag(v.substr(0, t.size));
        if (depth_ == 0 && is_tag(tag, "tool", true)) {
            take(ctx, t.size, true);
            finish(ctx);
            return true;
        }
        if (is_tag(tag, "arg", false) && !tag->self_closing)
            ++depth_;
        else if (is_tag(tag, "arg", true) && depth_ > 0)
            --depth_;
        else if (is_tag(tag, "arguments", true))
            depth_ = 0;   // closing the wrapper closes any <arg> left open
        return take(ctx, t.size, false);
    }

    template<emitter W>
    bool section(block_context<W>& ctx)
    {
        const auto m = find_marker(ctx.view(), {section_end_});
        if (m.marker == 0)
            phase_ = phase::body;
        const std::size_t n = m.position + (m.marker == 0 ? section_end_.size() : 0);
        return n > 0 && take(ctx, n, false);
    }

    // Between the arguments of a file or shell tool: all syntax, up to an <arg> this tool
    // streams or reads, or </tool>.
    template<emitter W>
    bool args(block_context<W>& ctx, std::size_t cap)
    {
        const std::string_view v = ctx.view();
        if (v[0] != '<')
            return take(ctx, std::min(v.find('<'), v.size()), true);
        const tag_scan t = lex(v, false, cap);
        if (t.type == tag_scan::kind::more)
            return false;
        if (t.type == tag_scan::kind::tag) {
            const auto tag = read_tag(v.substr(0, t.size));
            if (is_tag(tag, "tool", true)) {
                take(ctx, t.size, true);
                finish(ctx);
                return true;
            }
            if (is_tag(tag, "arg", false) && !tag->self_closing)
                if (const auto name = find_attribute(tag->attributes, "name"))
                    route(xml_value(*name));
        }
        return take(ctx, t.size, true);
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
    template<emitter W>
    bool value(block_context<W>& ctx, std::size_t cap)
    {
        static constexpr std::string_view close = "</arg>";
        const std::string_view v = ctx.view();
        const std::string_view w = v.substr(0, cap);
        const auto m = find_marker(w.substr(hint_), {close}, true);
        const std::size_t pos = hint_ + m.position;
        if (m.marker == 0) {
            const std::string raw(v.substr(0, pos));
            phase_ = phase::args;
            set_value(raw, ctx);   // a path STARTs the file: held bytes before it go first
            return take(ctx, pos + close.size(), true);
        }
        if (w.size() == cap) {
            phase_ = phase::args;
            ctx.out.report(error::marker_too_long);   // a value longer than the cap is not read
            return take(ctx, cap, true);
        }
        hint_ = pos;
        return false;
    }

    template<emitter W>
    void set_value(std::string_view raw, block_context<W>& ctx)
    {
        if (value_ != value_key::path) {
            boost::json::object option;
            set_shell_option(value_ == value_key::background ? "background" : "timeout_seconds", raw, option);
            for (auto& kv : option)
                ctx.call.set(kv.key(), std::move(kv.value()), ctx.out);
            return;
        }
        std::string path = xml_value(raw);
        if (!path.empty())
            ctx.call.set("path", boost::json::value(path), ctx.out);   // a later path wins
    }

    // Shorthand tags: raw bytes up to the closing tag.
    template<emitter W>
    bool raw(block_context<W>& ctx)
    {
        const auto m = find_marker(ctx.view(), close_set_);
        if (m.position > 0)
            take(ctx, m.position, false);
        if (m.marker != 0)
            return m.position > 0;
        take(ctx, close_.size(), true);
        finish(ctx);
        return true;
    }

    xml_block_kind kind_ = xml_block_kind::generic;
    segment_type type_ = segment_type::tool_call;
    phase phase_ = phase::done;
    std::size_t hint_ = 0;            // how far a held tag or value was already searched
    std::size_t depth_ = 0;           // open <arg> elements in a generic body
    value_key value_ = value_key::path;
    xml_body arg_;
    std::string_view section_end_;
    std::string_view close_;
    marker_set close_set_;
    std::string_view content_key_;
    std::string_view start_marker_;
    std::string_view end_marker_;
};

} // namespace toolstream::detail
