// The xml policy: tool calls written as XML tags inside the model's text.
#pragma once

#include <toolstream/engine/format_reader.hpp>
#include <toolstream/engine/text_format.hpp>
#include <toolstream/formats/detail/xml_block.hpp>
#include <toolstream/formats/detail/xml_lexing.hpp>
#include <toolstream/types.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <array>
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
    /// When false, `<tool …>` stays text; the shorthand tags are still parsed (as
    /// AutoByteus's parser does for api_tool_call).
    bool parse_tool_calls = true;
};

namespace detail {

/// The blocks of xml: an opening tag (`<tool …>`, `<write_file …>`, `<run_bash …>`) read by
/// scan_tag within the cap, then the block read by xml_block.
class xml_reader {
public:
    /// File bodies are the input's own bytes.
    static constexpr bool decodes_file_bodies = false;

    explicit xml_reader(const xml_options& o)
        : cap_(std::max<std::size_t>(o.max_tag_size, 64)), max_held_body_(o.max_held_body),
          first_(o.parse_tool_calls ? 0 : 1)
    {
    }

    std::span<const std::string_view> openers() const noexcept
    {
        return std::span<const std::string_view>(openers_).subspan(first_);
    }
    call_frame_limits limits() const noexcept { return {cap_, max_held_body_}; }

    opening_verdict open(std::size_t i, std::string_view v)
    {
        opener_ = static_cast<opener>(first_ + i);
        const std::size_t n = openers_[first_ + i].size();
        if (v.size() == n)
            return opening_verdict::more();
        if (!is_blank(v[n]) && v[n] != '>')
            return opening_verdict::text(n);   // `<tool` then `s>`: text
        if (hint_ < n)
            hint_ = n;
        const tag_scan t = scan_tag(v, hint_, cap_);
        if (t.type == tag_scan::kind::more)
            return opening_verdict::more();
        hint_ = 0;
        if (t.type == tag_scan::kind::tag && read_opening(v.substr(0, t.size)))
            return opening_verdict::block(t.size);
        // An opening longer than max_tag_size is text.
        return opening_verdict::text(t.size, t.type == tag_scan::kind::not_tag && t.size == cap_);
    }

    template<class W>
    void begin(block_context<W>& ctx)
    {
        block_.begin(kind_, type_, std::move(meta_), empty_, ctx);
        meta_ = {};
    }

    template<class W>
    bool step(block_context<W>& ctx)
    {
        return block_.step(ctx, cap_);
    }

    template<class W>
    void finalize(block_context<W>& ctx)
    {
        block_.finalize(ctx);
    }

    bool done() const noexcept { return block_.done(); }
    std::size_t held_bytes() const noexcept { return 0; }

    void reset() noexcept
    {
        block_.reset();
        hint_ = 0;
    }

private:
    enum class opener { tool, write_file, run_bash };

    static constexpr std::array<std::string_view, 3> openers_{"<tool", "<write_file", "<run_bash"};

    // What a complete opening tag opens; false if the tag is text after all.
    bool read_opening(std::string_view tag)
    {
        const auto t = read_tag(tag);
        if (!t)
            return false;
        meta_ = {};
        empty_ = t->self_closing;
        if (opener_ == opener::tool) {
            const auto name = find_attribute(t->attributes, "name");
            const std::string tool_name = name ? xml_value(*name) : std::string();
            if (tool_name.empty())
                return false;
            meta_["tool_name"] = tool_name;
            type_ = segment_type::tool_call;
            kind_ = xml_block_kind::generic;
            if (iequals_ascii(tool_name, "write_file") || iequals_ascii(tool_name, "patch_file")) {
                type_ = iequals_ascii(tool_name, "write_file") ? segment_type::write_file : segment_type::patch_file;
                kind_ = xml_block_kind::file;
            } else if (iequals_ascii(tool_name, "run_bash")) {
                type_ = segment_type::run_bash;
                kind_ = xml_block_kind::shell;
                set_shell_options(t->attributes, meta_);
            }
            return true;
        }
        if (t->self_closing)
            return false;   // a shorthand tag without a body
        kind_ = xml_block_kind::shorthand;
        if (opener_ == opener::write_file) {
            const auto path = find_attribute(t->attributes, "path");
            const std::string p = path ? xml_value(*path) : std::string();
            if (p.empty())
                return false;
            meta_["path"] = p;
            type_ = segment_type::write_file;
            return true;
        }
        set_shell_options(t->attributes, meta_);
        type_ = segment_type::run_bash;
        return true;
    }

    std::size_t cap_;
    std::size_t max_held_body_;
    std::size_t first_;        // 1 when `<tool` opens nothing (parse_tool_calls = false)
    opener opener_ = opener::tool;
    std::size_t hint_ = 0;     // how far the opening tag being read was searched
    xml_block_kind kind_ = xml_block_kind::generic;
    segment_type type_ = segment_type::tool_call;
    boost::json::object meta_;
    bool empty_ = false;
    xml_block block_;
};

static_assert(format_reader<xml_reader, xml_options>);

} // namespace detail

/// Tool calls written as XML in the text (docs/formats.md has the grammar):
/// - `<tool name="X">…</tool>`: a `tool_call` segment, START `{tool_name}`, content the raw inner
///   XML. It ends at the first `</tool>` outside `<arg>` elements, CDATA sections and comments.
/// - `write_file`, `patch_file` and `run_bash` tools, and the shorthand `<write_file path="P">`
///   and `<run_bash>`: file or shell segments whose content is the body or command only (the
///   `__START_CONTENT__`/`__END_CONTENT__` markers stripped). START waits for the path, which may
///   come after the body, up to `max_held_body` bytes; past it START goes without the path and
///   END carries it.
/// - Names match ASCII case-insensitively; any other `<` stays text byte for byte, and so does an
///   opening tag longer than `max_tag_size`.
/// - `held_bytes()` stays below `max(max_tag_size, 64) + 16`, plus up to `max_held_body` while a
///   file body waits for its path. finalize(): held bytes are what they would be had no tag
///   completed, and an open block ENDs `incomplete`.
struct xml_format : reader_format<detail::xml_reader> {
    static constexpr std::string_view name = "xml";   ///< As the registry and the CLI spell it.
    static constexpr bool ignore_case = true;
    using options = xml_options;
};

using xml = text_format_policy<xml_format>;
static_assert(text_format_traits<xml_format> && parser_policy<xml>);

} // namespace toolstream
