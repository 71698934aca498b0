// The block reader of the xml format (parse/formats/xml.hpp), built from its options.
#pragma once

#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>
#include <toolstream/parse/formats/detail/xml_block.hpp>
#include <toolstream/parse/formats/detail/xml_lexing.hpp>
#include <toolstream/segment_event.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// The blocks of xml: an opening tag (`<tool …>`, `<write_file …>`, `<run_bash …>`) read by
/// scan_tag within the cap, then the block read by xml_block.
class xml_reader {
public:
    /// File bodies are the input's own bytes.
    static constexpr bool decodes_file_bodies = false;

    template<class Options>
    explicit xml_reader(const Options& o)
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

    template<emitter W>
    void begin(block_context<W>& ctx)
    {
        block_.begin(kind_, type_, std::move(meta_), empty_, ctx);
        meta_ = {};
    }

    template<emitter W>
    bool step(block_context<W>& ctx)
    {
        return block_.step(ctx, cap_);
    }

    template<emitter W>
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

} // namespace toolstream::detail
