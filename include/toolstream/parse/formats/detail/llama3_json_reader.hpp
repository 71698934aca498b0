// The block reader of the llama3_json format (parse/formats/llama3_json.hpp).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/json_signature.hpp>
#include <toolstream/parse/engine/detail/json_call_block.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string_view>

namespace toolstream::detail {

/// The blocks of llama3_json: calls that open at `<|python_tag|>` or at any `{`, each followed
/// by a JSON object that names a call in its first keys (`{"name": "…", "parameters":` or
/// `"arguments":`, blanks ignored, within the hold cap). After a call, blanks `;` blanks and
/// another such object continue the block; anything else ends it and is text. A `;` outside a
/// string ends an object the model left unclosed (json_stop): its call ENDs `invalid_arguments`
/// and the call after the `;` is read.
class llama3_json_reader {
public:
    /// File bodies are decoded out of JSON strings.
    static constexpr bool decodes_file_bodies = true;

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

    template<emitter W>
    void begin(block_context<W>&)
    {
        phase_ = phase::call;
        json_.begin(json_call_layout::single, json_stop(separator));
    }

    template<emitter W>
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
        json_.begin(json_call_layout::single, json_stop(separator));
        return true;
    }

    template<emitter W>
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
    static constexpr std::string_view separator = ";";
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

static_assert(format_reader<llama3_json_reader, text_format_options>);

} // namespace toolstream::detail
