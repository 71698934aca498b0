// The block reader of the json_calls format (parse/formats/json_calls.hpp), built from its options.
#pragma once

#include <toolstream/detail/json_call_tracker.hpp>
#include <toolstream/parse/engine/detail/json_call_block.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string_view>

namespace toolstream::detail {

/// The blocks of json_calls: a JSON text that opens with a signature (json_signature_matcher),
/// read by json_call_block.
class json_calls_reader {
public:
    /// File bodies are decoded out of JSON strings.
    static constexpr bool decodes_file_bodies = true;

    template<class Options>
    explicit json_calls_reader(const Options& o)
        : max_held_(std::max<std::size_t>(o.max_held, 16)), max_held_body_(o.max_held_body)
    {
    }

    std::span<const std::string_view> openers() const noexcept { return openers_; }
    call_frame_limits limits() const noexcept { return {max_held_, max_held_body_}; }

    opening_verdict open(std::size_t, std::string_view v)
    {
        if (!reading_)
            signature_.reset();
        reading_ = true;
        const auto verdict = signature_.advance(v.substr(0, max_held_));
        using result = json_signature_matcher::verdict;
        if (verdict == result::more && signature_.scanned() < max_held_)
            return opening_verdict::more();
        reading_ = false;
        if (verdict == result::match)
            return opening_verdict::block(0);   // the JSON itself is read by the block
        return opening_verdict::text(1, verdict == result::more);   // later bytes may open a call
    }

    template<emitter W>
    void begin(block_context<W>&)
    {
        block_.begin(signature_.layout());
    }

    template<emitter W>
    bool step(block_context<W>& ctx)
    {
        return block_.step(ctx);
    }

    template<emitter W>
    void finalize(block_context<W>&)
    {
    }

    bool done() const noexcept { return block_.done(); }
    std::size_t held_bytes() const noexcept { return 0; }

    void reset() noexcept
    {
        block_.reset();
        reading_ = false;
    }

private:
    static constexpr std::array<std::string_view, 2> openers_{"{", "["};

    std::size_t max_held_;
    std::size_t max_held_body_;
    json_signature_matcher signature_;
    json_call_block block_;
    bool reading_ = false;   // an opening is being read
};

} // namespace toolstream::detail
