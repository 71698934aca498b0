// llama3_json: Llama 3.1-3.3 / 4 JSON tool calls, as vLLM's --tool-call-parser llama3_json reads
// them: `{"name": …, "parameters": {…}}`, optionally after `<|python_tag|>`, several separated by `;`.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/policies/detail/json_call_block.hpp>
#include <toolstream/policies/detail/json_signature.hpp>
#include <toolstream/policies/text_format.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string_view>

namespace toolstream::detail {

/// The blocks of llama3_json: calls that open at `<|python_tag|>` (anywhere: a special token) or
/// at a `{` before which the stream held only blanks, each followed by a JSON object whose
/// signature (json_signature_matcher) is that of one call (`{"name":`, compared with blanks
/// ignored, within the hold cap). After a call, blanks `;` blanks and another such object
/// continue the block; anything else ends it and is text.
class llama3_json_reader {
public:
    explicit llama3_json_reader(const text_format_options& o)
        : cap_(std::max<std::size_t>(o.max_held, 16)), limits_{cap_, o.max_held_body}
    {
    }

    std::span<const std::string_view> openers() const noexcept { return openers_; }
    call_frame_limits limits() const noexcept { return limits_; }
    bool done() const noexcept { return phase_ == phase::done; }
    std::size_t held_bytes() const noexcept { return 0; }

    void on_text(std::string_view t) noexcept
    {
        at_start_ = at_start_ && detail::all_blank(t);
    }

    opening_verdict open(std::size_t opener, std::string_view v)
    {
        const std::size_t at = openers_[opener].size();
        if (opener == brace && !at_start_)
            return opening_verdict::text(at);
        const std::string_view w = v.substr(0, cap_);
        const std::size_t i = opener == brace ? 0 : skip_blanks(w, at);
        if (i == w.size())
            return w.size() < cap_ ? opening_verdict::more() : opening_verdict::text(at, true);
        switch (signature_at(w, i)) {
        case opening_verdict::kind::more:
            return w.size() < cap_ ? opening_verdict::more() : opening_verdict::text(at, true);
        case opening_verdict::kind::block: return opening_verdict::block(i);
        case opening_verdict::kind::text: break;
        }
        return opening_verdict::text(at);
    }

    template<class W>
    void begin(block_context<W>&)
    {
        at_start_ = false;
        phase_ = phase::call;
        json_.begin(json_call_layout::single);
    }

    template<class W>
    bool step(block_context<W>& ctx)
    {
        if (phase_ == phase::call) {
            const bool progressed = json_.step(ctx);
            if (json_.done())
                phase_ = phase::separator;
            return progressed || json_.done();
        }
        // blanks `;` blanks and a call's signature, else the block is over (the bytes are text)
        const std::string_view w = ctx.view().substr(0, cap_);
        std::size_t i = skip_blanks(w, 0);
        if (i < w.size() && w[i] == ';')
            i = skip_blanks(w, i + 1);
        else if (i < w.size()) {
            phase_ = phase::done;
            return true;
        }
        const auto verdict = i < w.size() ? signature_at(w, i) : opening_verdict::kind::more;
        if (verdict == opening_verdict::kind::more && w.size() < cap_)
            return false;
        if (verdict != opening_verdict::kind::block) {
            phase_ = phase::done;
            return true;
        }
        ctx.take(i, byte_role::markup);
        phase_ = phase::call;
        json_.begin(json_call_layout::single);
        return true;
    }

    template<class W>
    void finalize(block_context<W>&)
    {
        phase_ = phase::done;
    }

    void reset() noexcept
    {
        json_.reset();
        phase_ = phase::done;
        at_start_ = true;
    }

private:
    enum class phase { call, separator, done };
    static constexpr std::size_t brace = 1;
    static constexpr std::array<std::string_view, 2> openers_{"<|python_tag|>", "{"};

    static std::size_t skip_blanks(std::string_view w, std::size_t i) noexcept
    {
        while (i < w.size() && is_blank(w[i]))
            ++i;
        return i;
    }

    // Whether w[i..] opens one call object: block (yes), text (no) or more.
    opening_verdict::kind signature_at(std::string_view w, std::size_t i)
    {
        signature_.reset();
        switch (signature_.advance(w.substr(i))) {
        case json_signature_matcher::verdict::more: return opening_verdict::kind::more;
        case json_signature_matcher::verdict::match:
            if (signature_.layout() == json_call_layout::single)
                return opening_verdict::kind::block;
            break;
        case json_signature_matcher::verdict::no_match: break;
        }
        return opening_verdict::kind::text;
    }

    std::size_t cap_;
    call_frame_limits limits_;
    json_signature_matcher signature_;
    json_call_block json_;
    phase phase_ = phase::done;
    bool at_start_ = true;   // only blanks so far: a `{` may open a call
};

} // namespace toolstream::detail

namespace toolstream {

/// Traits of the llama3_json format (text_format_traits). When a JSON object is a call follows
/// vLLM's streaming parser (extract_tool_calls_streaming), which takes the output for calls only
/// when it starts with `<|python_tag|>` or `{`: a stream cannot take back prose once sent.
/// - `{` is a call only where the stream held nothing but blanks before it, `<|python_tag|>`
///   anywhere (a special token: prose before it stays text), and the object must open with a
///   call's signature (`{"name":`, also `{"function":`, `{"tool":`). Any other `{` is text, so
///   prose with braces, or a JSON example mid-answer, stays text.
/// - `{"name": NAME, "parameters": {…}}` (or `"arguments"`): the arguments stream as raw JSON
///   fragments; `write_file` / `patch_file` / `run_bash` stream their decoded body.
/// - Calls separated by `;` (blanks around it are syntax); after the last call, the rest is text.
/// - A call ENDs where its object closes (no end marker to lose): braces or `;` inside strings
///   end nothing.
struct llama3_json_format {
    static constexpr std::string_view name = "llama3_json";
    static constexpr bool decodes_file_bodies = true;
    using reader = detail::llama3_json_reader;
};

using llama3_json = text_format_policy<llama3_json_format>;

} // namespace toolstream
