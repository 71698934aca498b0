// The block reader of the mistral_calls format (parse/formats/mistral_calls.hpp).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/detail/json_call_block.hpp>
#include <toolstream/parse/engine/detail/json_object_reader.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// The blocks of mistral: after `[TOOL_CALLS]` (blanks allowed), a JSON array whose first element
/// is an object (a call list, read by json_call_block) or a call header `NAME[CALL_ID]ID[ARGS]`
/// then one JSON object. A header is read within the hold cap; a name holds only `[A-Za-z0-9_.:-]`,
/// so prose after `[TOOL_CALLS]` is told from a call at its first other byte and stays text.
/// A `[TOOL_CALLS]` outside a string ends JSON the model left unclosed (json_stop, its prefix
/// held at most 11 bytes): the call ENDs `invalid_arguments` and the next call is read.
class mistral_reader {
public:
    /// File bodies are decoded out of JSON strings.
    static constexpr bool decodes_file_bodies = true;

    explicit mistral_reader(const text_format_options& o)
        : cap_(std::max<std::size_t>(o.max_held, 16)), limits_{cap_, o.max_held_body}
    {
    }

    std::span<const std::string_view> openers() const noexcept { return openers_; }
    call_frame_limits limits() const noexcept { return limits_; }
    bool done() const noexcept { return list_ ? list_block_.done() : object_.done(); }
    std::size_t held_bytes() const noexcept { return 0; }

    opening_verdict open(std::size_t, std::string_view v)
    {
        const std::string_view w = v.substr(0, cap_);
        const auto more = [&] { return w.size() < cap_ ? opening_verdict::more() : opening_verdict::text(at, true); };
        std::size_t i = skip_blanks(w, at);
        if (i == w.size())
            return more();
        if (w[i] == '[') {   // pre-v11: a list of call objects
            const std::size_t j = skip_blanks(w, i + 1);
            if (j == w.size())
                return more();
            list_ = true;
            return w[j] == '{' ? opening_verdict::block(i) : opening_verdict::text(at);
        }
        list_ = false;
        const std::size_t name_end = skip_name(w, i);
        name_ = w.substr(i, name_end - i);
        id_ = {};
        i = name_end;
        bool has_id = false;
        if (const auto n = scan::common_prefix(w.substr(i), call_id, false); n == call_id.size()) {
            const std::size_t id_end = skip_name(w, i + n);
            id_ = w.substr(i + n, id_end - i - n);
            i = id_end;
            has_id = true;
        } else if (i + n == w.size()) {
            return more();
        }
        if (i == w.size())
            return more();
        if (name_.empty() || (has_id && id_.empty()))
            return opening_verdict::text(at);
        if (w[i] == '{')
            return opening_verdict::block(i);
        const std::size_t n = scan::common_prefix(w.substr(i), args, false);
        if (n == args.size())
            return opening_verdict::block(i + n);
        return i + n == w.size() ? more() : opening_verdict::text(at);
    }

    template<emitter W>
    void begin(block_context<W>& ctx)
    {
        if (list_) {
            list_block_.begin(json_call_layout::array, json_stop(opener));
            return;
        }
        ctx.call.begin_tool(name_, {}, id_, ctx.out);
        object_.begin(ctx.call, json_stop(opener));
    }

    template<emitter W>
    bool step(block_context<W>& ctx)
    {
        if (list_)
            return list_block_.step(ctx);
        const bool progressed = object_.step(ctx);
        if (object_.done())
            object_.end(ctx);
        return progressed;
    }

    /// A prefix of `[TOOL_CALLS]` held at the end is the JSON's.
    template<emitter W>
    void finalize(block_context<W>& ctx)
    {
        if (list_)
            list_block_.finalize(ctx);
        else
            object_.finalize(ctx);
    }

    void reset() noexcept
    {
        list_block_.reset();
        object_.reset();
        list_ = false;
    }

private:
    static constexpr std::string_view opener = "[TOOL_CALLS]";
    static constexpr std::string_view call_id = "[CALL_ID]";
    static constexpr std::string_view args = "[ARGS]";
    static constexpr std::size_t at = opener.size();
    static constexpr std::array<std::string_view, 1> openers_{opener};

    static std::size_t skip_name(std::string_view w, std::size_t i) noexcept
    {
        const auto name_char = [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
                || c == '-' || c == '.' || c == ':';
        };
        while (i < w.size() && name_char(w[i]))
            ++i;
        return i;
    }

    std::size_t cap_;
    call_frame_limits limits_;
    bool list_ = false;
    std::string name_;
    std::string id_;
    json_call_block list_block_;
    json_object_reader object_;
};

static_assert(format_reader<mistral_reader, text_format_options>);

} // namespace toolstream::detail
