// The xml policy: tool calls written as XML tags inside the model's text.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/policies/detail/marker_scanner.hpp>
#include <toolstream/policies/detail/xml_block.hpp>
#include <toolstream/policies/detail/xml_lexing.hpp>
#include <toolstream/types.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace toolstream {

struct xml_options {
    /// The longest opening tag, argument value (path, run_bash option) or undecided stretch
    /// (whitespace before a start marker, the lookahead after an end marker) the policy holds
    /// while reading it. Past it the bytes are released: as text outside a tool, as content
    /// or syntax inside one. Values below 64 count as 64.
    std::size_t max_tag_size = 4096;
    /// The most bytes of a file tool's body (and the markup among it) held while its START
    /// waits for a path that comes after the body. Past it the segment STARTs without a path;
    /// a path that comes later is in the END's metadata and the invocation.
    std::size_t max_held_body = std::size_t{1} << 20;
    /// When false, `<tool …>` stays text; the shorthand tags are still parsed (as the
    /// reference's parser does for api_tool_call).
    bool parse_tool_calls = true;
};

/// Finds tool calls written as XML in the text:
/// - `<tool name="X">…</tool>`: a `tool_call` segment, START `{tool_name}`, content the raw
///   inner XML (the adapter parses it as arguments);
/// - `<tool name="write_file">` / `<tool name="patch_file">` with `<arg name="path">` and
///   `<arg name="content">` / `<arg name="patch">`: a `write_file` / `patch_file` segment, START
///   `{tool_name, path}`, content the file body or patch only;
/// - `<tool name="run_bash">` with `<arg name="command">`: a `run_bash` segment, START
///   `{tool_name}` plus `background` / `timeout_seconds` (from attributes or args), content
///   the command only;
/// - `<write_file path="P">raw</write_file>`: a `write_file` segment, START `{path}`;
/// - `<run_bash>cmd</run_bash>`: a `run_bash` segment (attributes as above).
///
/// Tag, argument and tool names match ASCII case-insensitively; `tool_name` keeps the original
/// case. Any other `<` stays text byte for byte (`<div>`, `a < b`, `<br/>`, `<tools>`, a `<tool>`
/// without a name, a shorthand `<write_file>` without a path, self-closing shorthand tags), and
/// so does an opening tag longer than `max_tag_size`. A self-closing `<tool name="X"/>` is a
/// call with no arguments.
///
/// - Generic tools end at the first `</tool>` outside `<arg>` elements, CDATA sections and
///   comments; closing `</arguments>` closes any `<arg>` left open. (The reference ends at the
///   first `</tool>`, even inside an argument.)
/// - File tools: START waits for the path, which may come after the body; such a body is held
///   until the path (or `</tool>`) arrives, or until it passes `max_held_body` bytes: then the
///   segment STARTs without a path, and a later path is set in the END's metadata. The body is the `content`/`patch`
///   value between `__START_CONTENT__`/`__END_CONTENT__` (`__START_PATCH__`/`__END_PATCH__`),
///   markers excluded, with the line break after the start marker and the indentation of the
///   closing line dropped; an end marker counts only before optional whitespace and `</arg>`.
///   Without a start marker the body is the raw value up to the first `</arg>` (a CDATA
///   section's inside is body, its delimiters are not). See detail::xml_body.
/// - `path` and run_bash option values are entity-decoded and stripped; bodies and commands are
///   raw. A path or option value longer than `max_tag_size` is ignored. A file or run_bash
///   tool's other arguments (and the legacy `<path>…</path>` form) are syntax.
/// - Every byte not emitted as text or content is reported as markup, in input order.
/// - Text that cannot start a tag goes out in the feed that brings it. What is held between
///   feeds: outside a tool, a `<` that may still become `<tool`, `<write_file` or `<run_bash`,
///   or such an opening tag being read; inside one, a tag, value or undecided stretch being
///   read. `held_bytes()` stays below `max(max_tag_size, 64) + 16`, plus up to
///   `max_held_body` while a file body waits for its path.
/// - finalize(): held text goes out as text (a half-read opening tag included); an open block
///   flushes what it holds and ENDs `incomplete` (so its invocation is never complete).
class xml {
public:
    static constexpr std::string_view name = "xml";   ///< As the registry and the CLI spell it.

    xml() = default;
    explicit xml(xml_options options) : options_(options) {}

    template<class Writer>
    void on_content(std::string_view text, Writer& out)
    {
        buf_.append(text);
        while (!buf_.empty() && step(out)) {
        }
    }


    template<class Writer>
    void finalize(Writer& out)
    {
        if (state_ == state::block)
            block_.finalize(buf_, out);
        else
            out.text(buf_.view());
        buf_.clear();
        state_ = state::text;
    }

    void reset()
    {
        buf_.clear();
        block_.reset();
        state_ = state::text;
        hint_ = 0;
    }

    /// Bytes received but not yet emitted or reported.
    std::size_t held_bytes() const noexcept { return buf_.size() + block_.held_bytes(); }

    const xml_options& options() const noexcept { return options_; }

private:
    enum class state { text, opening_tag, block };
    enum class opener { tool, write_file, run_bash };

    static constexpr std::string_view openers_[] = {"<tool", "<write_file", "<run_bash"};

    std::size_t cap() const noexcept { return std::max<std::size_t>(options_.max_tag_size, 64); }

    template<class Writer>
    bool step(Writer& out)
    {
        switch (state_) {
        case state::text: return text(out);
        case state::opening_tag: return opening_tag(out);
        case state::block: break;
        }
        const bool progressed = block_.step(buf_, cap(), out);
        if (block_.done())
            state_ = state::text;
        return progressed;
    }

    // Emits text up to the first `<` that may open a tool tag; holds it while undecided.
    template<class Writer>
    bool text(Writer& out)
    {
        const std::size_t first = options_.parse_tool_calls ? 0 : 1;
        const auto markers = std::span<const std::string_view>(openers_).subspan(first);
        const auto m = detail::find_marker(buf_.view(), markers, true);
        out.text(buf_.view().substr(0, m.position));
        buf_.consume(m.position);
        if (m.marker == detail::marker_match::npos)
            return false;
        const std::size_t n = markers[m.marker].size();
        const std::string_view v = buf_.view();
        if (v.size() == n)
            return false;   // `<tool` then `s>` would be text
        if (detail::is_xml_space(v[n]) || v[n] == '>') {
            state_ = state::opening_tag;
            opener_ = static_cast<opener>(first + m.marker);
            hint_ = n;
            return true;
        }
        out.text(v.substr(0, n));
        buf_.consume(n);
        return true;
    }

    template<class Writer>
    bool opening_tag(Writer& out)
    {
        const std::string_view v = buf_.view();
        const auto t = detail::scan_tag(v, hint_, cap());
        if (t.type == detail::tag_scan::kind::more)
            return false;
        if (t.type == detail::tag_scan::kind::tag && open_block(v.substr(0, t.size), out))
            return true;
        if (t.type == detail::tag_scan::kind::not_tag && t.size == cap())
            out.report(error::marker_too_long);   // an opening longer than max_tag_size is text
        out.text(v.substr(0, t.size));
        buf_.consume(t.size);
        state_ = state::text;
        return true;
    }

    // Starts the block an opening tag announces; false if the tag is text after all.
    template<class Writer>
    bool open_block(std::string_view tag, Writer& out)
    {
        const auto t = detail::read_tag(tag);
        if (!t)
            return false;
        using detail::xml_block_kind;
        boost::json::object meta;
        if (opener_ == opener::tool) {
            const auto name = detail::find_attribute(t->attributes, "name");
            const std::string tool_name = name ? detail::xml_value(*name) : std::string();
            if (tool_name.empty())
                return false;
            meta["tool_name"] = tool_name;
            segment_type type = segment_type::tool_call;
            xml_block_kind kind = xml_block_kind::generic;
            if (detail::iequals_ascii(tool_name, "write_file")) {
                type = segment_type::write_file;
                kind = xml_block_kind::file;
            } else if (detail::iequals_ascii(tool_name, "patch_file")) {
                type = segment_type::patch_file;
                kind = xml_block_kind::file;
            } else if (detail::iequals_ascii(tool_name, "run_bash")) {
                type = segment_type::run_bash;
                kind = xml_block_kind::shell;
                detail::set_shell_options(t->attributes, meta);
            }
            enter(kind, type, std::move(meta), t->self_closing, tag, out);
            return true;
        }
        if (t->self_closing)
            return false;   // a shorthand tag without a body
        if (opener_ == opener::write_file) {
            const auto path = detail::find_attribute(t->attributes, "path");
            const std::string p = path ? detail::xml_value(*path) : std::string();
            if (p.empty())
                return false;
            meta["path"] = p;
            enter(xml_block_kind::shorthand, segment_type::write_file, std::move(meta), false, tag, out);
            return true;
        }
        detail::set_shell_options(t->attributes, meta);
        enter(xml_block_kind::shorthand, segment_type::run_bash, std::move(meta), false, tag, out);
        return true;
    }

    // The opening tag is reported before the block's START, as it comes first in the input.
    template<class Writer>
    void enter(detail::xml_block_kind kind, segment_type type, boost::json::object meta, bool empty,
               std::string_view tag, Writer& out)
    {
        out.markup(tag);
        buf_.consume(tag.size());
        block_.begin(kind, type, std::move(meta), empty, options_.max_held_body, out);
        state_ = block_.done() ? state::text : state::block;
    }

    xml_options options_;
    detail::scan_buffer buf_;
    state state_ = state::text;
    opener opener_ = opener::tool;
    std::size_t hint_ = 0;   // how far the opening tag being read was searched
    detail::xml_block block_;
};

} // namespace toolstream
