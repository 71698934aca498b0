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

/// The blocks of llama3_json: calls that open at `<|python_tag|>` or at any `{`, each followed
/// by a JSON object that names a call in its first keys (`{"name": "…", "parameters":` or
/// `"arguments":`, blanks ignored, within the hold cap). After a call, blanks `;` blanks and
/// another such object continue the block; anything else ends it and is text.
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

    opening_verdict open(std::size_t opener, std::string_view v)
    {
        const std::size_t at = openers_[opener].size();
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
    }

private:
    enum class phase { call, separator, done };
    static constexpr std::size_t brace = 1;
    static constexpr std::array<std::string_view, 2> openers_{"<|python_tag|>", "{"};

    // Whether w[i..] opens one call object (`{"name": "…", "parameters":` or `"arguments":`):
    // block (yes), text (no) or more.
    static opening_verdict::kind signature_at(std::string_view w, std::size_t i)
    {
        using kind = opening_verdict::kind;
        // Each step: `token` after blanks; a name's string value in between.
        auto expect = [&](std::string_view token) {
            i = skip_blanks(w, i);
            const std::size_t n = std::min(token.size(), w.size() - i);
            if (w.compare(i, n, token, 0, n) != 0)
                return kind::text;
            i += n;
            return n == token.size() ? kind::block : kind::more;
        };
        for (std::string_view token : {std::string_view("{"), std::string_view("\"name\""), std::string_view(":")})
            if (const kind k = expect(token); k != kind::block)
                return k;
        if (const kind k = expect("\""); k != kind::block)
            return k;
        for (;; ++i) {   // the name: a JSON string
            if (i >= w.size())
                return kind::more;
            if (w[i] == '\\')
                ++i;
            else if (w[i] == '"')
                break;
            else if (static_cast<unsigned char>(w[i]) < 0x20)
                return kind::text;
        }
        ++i;
        if (const kind k = expect(","); k != kind::block)
            return k;
        i = skip_blanks(w, i);
        const std::size_t key = i;
        kind best = kind::text;
        for (std::string_view token : {std::string_view("\"parameters\""), std::string_view("\"arguments\"")}) {
            i = key;
            if (const kind k = expect(token); k == kind::block)
                return expect(":");
            else if (k == kind::more)
                best = kind::more;
        }
        return best;
    }

    std::size_t cap_;
    call_frame_limits limits_;
    json_call_block json_;
    phase phase_ = phase::done;
};

} // namespace toolstream::detail

namespace toolstream {

/// Traits of the llama3_json format (text_format_traits). When a JSON object is a call follows
/// vLLM's parser (extract_tool_calls), which looks for a call at every `{`, after prose too, and
/// takes an object for one only with a `name` and `parameters` (or `arguments`):
/// - `{` anywhere, or `<|python_tag|>` (a special token), opens a call when the object begins
///   `{"name": "…", "parameters":` (or `"arguments":`; blanks anywhere between). Any other
///   object (no such keys, invalid JSON in them, `{"function":…}`) is text: a model asked for
///   JSON output writes exactly that. Prose before a call stays text (vLLM drops it when it
///   finds calls; a stream has sent it already).
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
