// The block reader of the harmony format (parse/formats/harmony.hpp).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/detail/json_object_reader.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// The blocks of harmony: a message header, from `<|start|>` or `<|channel|>` to `<|message|>`
/// (read within the hold cap), or a lone end token (`<|end|>`, `<|return|>`, `<|call|>`), all
/// markup. The header's recipient (`to=NAME`) makes the message a call, whose content is one JSON
/// object, ended by `<|call|>` (any special token) outside a string if the model left it
/// unclosed (json_stop: the call ENDs `invalid_arguments`); the analysis channel makes it
/// reasoning, up to the next special token; any other message's content is text, read by the
/// driver.
class harmony_reader {
public:
    /// File bodies are decoded out of JSON strings.
    static constexpr bool decodes_file_bodies = true;

    explicit harmony_reader(const text_format_options& o)
        : cap_(std::max<std::size_t>(o.max_held, 32)), limits_{cap_, o.max_held_body},
          tokens_(std::span<const std::string_view>(openers_).first(role_recipient), false)
    {
    }

    std::span<const std::string_view> openers() const noexcept { return openers_; }
    call_frame_limits limits() const noexcept { return limits_; }
    bool done() const noexcept { return phase_ == phase::done; }
    std::size_t held_bytes() const noexcept { return 0; }

    void on_text(std::string_view t) noexcept { at_start_ = at_start_ && detail::all_blank(t); }

    opening_verdict open(std::size_t opener, std::string_view v)
    {
        const std::size_t at = openers_[opener].size();
        phase_ = phase::done;
        if (opener == role_recipient && !at_start_)
            return opening_verdict::text(at);   // `to=` in prose
        if (opener > channel && opener < role_recipient)   // an end token
            return opening_verdict::block(at);
        const std::string_view w = v.substr(0, cap_);
        const auto m = find_marker(w.substr(at), {message}, false);
        if (m.marker == marker_match::npos)
            return w.size() < cap_ ? opening_verdict::more() : opening_verdict::text(at, true);
        const std::string_view header = w.substr(0, at + m.position);
        const auto channel_at = header.find(openers_[channel]);
        const std::string_view channel_name = first_word(
            channel_at == std::string_view::npos ? std::string_view{} : header.substr(channel_at + openers_[channel].size()));
        tool_ = recipient(header);
        if (!tool_.empty())
            phase_ = phase::call;
        else if (channel_name == "analysis")
            phase_ = phase::reasoning;
        return opening_verdict::block(at + m.position + message.size());
    }

    template<emitter W>
    void begin(block_context<W>& ctx)
    {
        at_start_ = false;
        if (phase_ != phase::call)
            return;
        ctx.call.begin_tool(tool_, {}, {}, ctx.out);
        object_.begin(ctx.call, json_stop(call));
    }

    template<emitter W>
    bool step(block_context<W>& ctx)
    {
        if (phase_ == phase::call) {
            const bool progressed = object_.step(ctx);
            if (object_.done()) {
                object_.end(ctx);
                phase_ = phase::done;
            }
            return progressed;
        }
        // reasoning up to the next special token: `<|end|>` closes it, any other is the driver's
        const auto m = find_marker(ctx.view(), tokens_);
        ctx.out.reasoning(ctx.view().substr(0, m.position));
        ctx.consume(m.position);
        if (m.marker == marker_match::npos)
            return m.position > 0;
        if (openers_[m.marker] == end)
            ctx.take(end.size(), byte_role::markup);
        phase_ = phase::done;
        return true;
    }

    /// A token prefix held at the end of reasoning is reasoning.
    template<emitter W>
    void finalize(block_context<W>& ctx)
    {
        if (phase_ == phase::reasoning) {
            ctx.out.reasoning(ctx.view());
            ctx.consume(ctx.view().size());
        }
        phase_ = phase::done;
    }

    void reset() noexcept
    {
        object_.reset();
        phase_ = phase::done;
        at_start_ = true;
    }

private:
    enum class phase { call, reasoning, done };
    static constexpr std::string_view message = "<|message|>";
    static constexpr std::string_view end = "<|end|>";
    static constexpr std::string_view call = "<|call|>";
    static constexpr std::size_t channel = 1;
    static constexpr std::size_t role_recipient = 5;
    // `to=` opens a header only at the stream's start: the completion began after the prompt's
    // `<|start|>assistant`, inside the role part (` to=functions.NAME<|channel|>commentary …`).
    static constexpr std::array<std::string_view, 6> openers_{"<|start|>", "<|channel|>", end, "<|return|>", call, "to="};


    // The word at the start of `s` (after blanks), up to a blank or a token.
    static std::string_view first_word(std::string_view s) noexcept
    {
        std::size_t i = 0;
        while (i < s.size() && detail::is_blank(s[i]))
            ++i;
        std::size_t j = i;
        while (j < s.size() && !detail::is_blank(s[j]) && s[j] != '<')
            ++j;
        return s.substr(i, j - i);
    }

    // The tool a header's `to=` names, without the `functions.` namespace; empty: none.
    static std::string recipient(std::string_view header)
    {
        const auto to = header.find("to=");
        if (to == std::string_view::npos || (to > 0 && !detail::is_blank(header[to - 1]) && header[to - 1] != '>'))
            return {};
        std::string_view name = first_word(header.substr(to + 3));
        if (name.starts_with("functions."))
            name.remove_prefix(10);
        return std::string(name);
    }

    std::size_t cap_;
    call_frame_limits limits_;
    marker_set tokens_;
    phase phase_ = phase::done;
    std::string tool_;
    json_object_reader object_;
    bool at_start_ = true;   // only blanks so far: the role part may still be going on
};

static_assert(format_reader<harmony_reader, text_format_options>);

} // namespace toolstream::detail
