// The block reader of the sentinel format (parse/formats/sentinel.hpp), built from its options.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>
#include <toolstream/parse/formats/detail/sentinel_header.hpp>
#include <toolstream/parse/formats/detail/xml_arguments.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// The blocks of sentinel: an opening read by sentinel_opening_reader, then a raw body up to
/// `[[SEG_END]]`.
class sentinel_reader {
public:
    /// File bodies are the input's own bytes.
    static constexpr bool decodes_file_bodies = false;

    template<class Options>
    explicit sentinel_reader(const Options& o) : max_held_(std::max<std::size_t>(o.max_held, 16)) {}

    std::span<const std::string_view> openers() const noexcept { return openers_; }
    /// The header says it all: a file without a path STARTs without it.
    call_frame_limits limits() const noexcept { return {max_held_, 0}; }

    opening_verdict open(std::size_t, std::string_view v)
    {
        if (!reading_)
            opening_.reset();
        reading_ = true;
        const auto verdict = opening_.advance(v.substr(0, max_held_));
        using result = sentinel_opening_reader::verdict;
        if (verdict == result::more && opening_.scanned() < max_held_)
            return opening_verdict::more();
        reading_ = false;
        if (verdict == result::done && (block_ = read_sentinel_header(opening_.header(v))))
            return opening_verdict::block(opening_.scanned());
        return opening_verdict::text(opening_.scanned(), verdict == result::more);
    }

    template<emitter W>
    void begin(block_context<W>& ctx)
    {
        const bool call = block_->type == segment_type::tool_call;
        const boost::json::value* header_arguments = call ? block_->metadata.if_contains("arguments") : nullptr;
        std::string arguments;
        if (header_arguments != nullptr && block_->error.empty())
            append_compact_json(arguments, *header_arguments);
        body_ = !call ? body::content : header_arguments != nullptr ? body::content : body::undecided;
        ctx.call.begin(block_->type, std::move(block_->metadata), {}, false, ctx.out);
        ctx.call.add(byte_role::argument, arguments, ctx.out);
        done_ = false;
    }

    template<emitter W>
    bool step(block_context<W>& ctx)
    {
        if (body_ == body::undecided) {   // a tool_call's body: JSON streams, XML is read at the end
            const std::string_view v = ctx.view();
            const std::size_t first = v.size() - detail::skip_blanks(v).size();
            ctx.take(first, byte_role::content);
            if (first == v.size())
                return first > 0;
            body_ = ctx.view()[0] == '{' ? body::json : body::xml;
        }
        const auto m = find_marker(ctx.view(), end_set_);
        ctx.take(m.position, body_ == body::json ? byte_role::argument_text : byte_role::content);
        if (m.marker == marker_match::npos)
            return m.position > 0;
        ctx.take(sentinel_end_marker.size(), byte_role::markup);
        if (!block_->error.empty())
            ctx.call.end(ctx.out, segment_status::invalid_arguments, block_->error);
        else if (body_ == body::xml)
            end_with_content_arguments(ctx.call, ctx.out);
        else
            ctx.call.end(ctx.out);
        done_ = true;
        return true;
    }

    /// A partial `[[SEG_END]]` is body.
    template<emitter W>
    void finalize(block_context<W>& ctx)
    {
        ctx.take(ctx.view().size(), byte_role::content);
    }

    bool done() const noexcept { return done_; }
    std::size_t held_bytes() const noexcept { return 0; }

    void reset() noexcept
    {
        reading_ = false;
        done_ = true;
    }

private:
    enum class body { content, undecided, json, xml };

    static constexpr std::array<std::string_view, 1> openers_{sentinel_start_marker};
    static constexpr std::array<std::string_view, 1> end_markers_{sentinel_end_marker};
    static constexpr marker_set end_set_{end_markers_, true};

    std::size_t max_held_;
    sentinel_opening_reader opening_;
    std::optional<sentinel_block> block_;
    body body_ = body::content;
    bool reading_ = false;
    bool done_ = true;
};

} // namespace toolstream::detail
