// Reasoning parsers (vLLM's --reasoning-parser): reasoning_policy<Policy, Reasoning> splits the
// model's reasoning out of the content first and forwards the rest to any parser policy.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/detail/ascii.hpp>
#include <toolstream/engine/detail/marker_scanner.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

namespace toolstream {

/// How a model writes its reasoning. A region is `open … close`; the markup is consumed.
struct reasoning_syntax {
    std::string_view name;
    std::string_view open;
    std::string_view close;
    /// The stream starts inside reasoning (the opening marker was in the prompt); a stream that
    /// starts with `open` anyway (after blanks) opens it explicitly.
    bool open_at_start = false;
    /// Ends a region open from the first byte and is left to the format (qwen3: `<tool_call>`).
    /// Inside an explicit `open … close` region it is reasoning.
    std::string_view ends_implicit_at;
    /// Ends any region and is left to the format: harmony's next message when `<|end|>` was
    /// stripped, a tool-call section (kimi_k2, minimax_m2), qwen3's `<tool_call>`.
    std::string_view yields_to;
    /// Regions recur anywhere in the stream: only for markers that are special tokens, which a
    /// tool's arguments cannot hold. Otherwise one region, at the start of the stream (as vLLM's
    /// reasoning parsers read it), so `<think>` inside a later tool call is the call's data.
    /// A recurring region opens only where the policy holds no bytes (input order is kept).
    bool recurs = false;
    /// When set, `yields_to` ends a region only when blanks and then one of these follow it (a
    /// call's body: qwen3's `<function` or `{`); else it is reasoning text ("I could use
    /// <tool_call> here"). The look is bounded by max_leading_blanks.
    std::array<std::string_view, 2> yields_before{};
};

/// `syntax` with the prompt's thinking state: `open` true when the chat template left a region
/// open (`<think>` in the prompt: output before `</think>`, or with no tags, is reasoning), false
/// when thinking is disabled (output with no tags is content; an explicit region still opens).
constexpr reasoning_syntax with_thinking_open(reasoning_syntax syntax, bool open) noexcept
{
    syntax.open_at_start = open;
    return syntax;
}

// Each name's default follows vLLM's parser of that name; with_thinking_open() (the CLIs'
// --thinking-open) overrides whether the region is open at the start.

/// DeepSeek R1: the template ends the prompt with `<think>\n`; the model may repeat it.
struct deepseek_r1_reasoning {
    static constexpr reasoning_syntax syntax{"deepseek_r1", "<think>", "</think>", true, {}, {}, false, {}};
};
/// Qwen3 / Qwen3.5: the template puts `<think>` in the prompt (thinking on unless disabled), the
/// model may repeat it; a `<tool_call>` followed by a call body ends a region, explicit or not.
struct qwen3_reasoning {
    static constexpr reasoning_syntax syntax{
        "qwen3", "<think>", "</think>", true, {}, "<tool_call>", false, {"<function", "{"}};
};
/// MiniMax M2: the template opens `<think>`; the model writes `</think>` only. A tool-call
/// section ends a region left open (vLLM keeps it as reasoning: docs/text_formats.md).
struct minimax_m2_reasoning {
    static constexpr reasoning_syntax syntax{"minimax_m2", "<think>", "</think>", true, {}, "<minimax:tool_call>", false, {}};
};
/// Kimi K2 (Thinking): thinking on unless disabled, `<think>` optional; a tool-call section ends
/// a region.
struct kimi_k2_reasoning {
    static constexpr reasoning_syntax syntax{
        "kimi_k2", "<think>", "</think>", true, {}, "<|tool_calls_section_begin|>", false, {}};
};
/// Seed-OSS: `<seed:think>…</seed:think>`, opened by the model.
struct seed_oss_reasoning {
    static constexpr reasoning_syntax syntax{
        "seed_oss", "<seed:think>", "</seed:think>", false, "<seed:tool_call>", {}, false, {}};
};
/// Step-3: the template opens `<think>`; everything before `</think>` is reasoning, a tool-call
/// section included (vLLM's step3 reasoning parser).
struct step3_reasoning {
    static constexpr reasoning_syntax syntax{"step3", "<think>", "</think>", true, {}, {}, false, {}};
};
/// gpt-oss harmony: the analysis channel; `<|end|>` is often stripped, then the next message
/// (`<|start|>`) ends it.
struct openai_gptoss_reasoning {
    static constexpr reasoning_syntax syntax{
        "openai_gptoss", "<|channel|>analysis<|message|>", "<|end|>", false, {}, "<|start|>", true, {}};
};

/// The reasoning parsers by name (the CLI's --reasoning-parser).
inline constexpr std::array<reasoning_syntax, 7> reasoning_parsers{
    deepseek_r1_reasoning::syntax, qwen3_reasoning::syntax, minimax_m2_reasoning::syntax,
    kimi_k2_reasoning::syntax, openai_gptoss_reasoning::syntax, seed_oss_reasoning::syntax,
    step3_reasoning::syntax};

/// The reasoning parser called `name`, or nullptr.
constexpr const reasoning_syntax* find_reasoning_parser(std::string_view name) noexcept
{
    for (const auto& r : reasoning_parsers)
        if (r.name == name)
            return &r;
    return nullptr;
}

/// A reasoning parser known at compile time: `void` (the syntax is given at run time), or a tag
/// whose static `syntax` is a `reasoning_syntax` (qwen3_reasoning, …).
template<class R>
concept reasoning_tag = std::is_void_v<R> || requires {
    { R::syntax } -> std::convertible_to<reasoning_syntax>;
};

namespace detail {
template<reasoning_tag R>
constexpr reasoning_syntax reasoning_syntax_of() noexcept
{
    if constexpr (std::is_void_v<R>)
        return {};
    else
        return R::syntax;
}
} // namespace detail

namespace detail {

/// The state of a reasoning parser: reasoning bytes go out as reasoning segments, its markers as
/// markup, the other bytes to `inner` (any parser policy) in order. Only a marker prefix (at most
/// the longest marker, or up to 256 leading blanks) is held.
class reasoning_splitter {
public:
    explicit reasoning_splitter(reasoning_syntax syntax = {}) : syntax_(syntax) { reset(); }

    template<class Inner, class Writer>
    void on_content(std::string_view text, Inner& inner, Writer& out)
    {
        if (state_ == state::content && buf_.empty()) {
            inner.on_content(text, out);
            return;
        }
        buf_.append(text);
        while (!buf_.empty() && step(inner, out)) {
        }
    }

    /// Held bytes are what they would be had no marker completed; then `inner` finalizes.
    template<class Inner, class Writer>
    void finalize(Inner& inner, Writer& out)
    {
        if (!buf_.empty()) {
            if (state_ == state::reasoning || (state_ == state::start && syntax_.open_at_start))
                out.reasoning(buf_.view());
            else
                inner.on_content(buf_.view(), out);
            buf_.clear();
        }
        inner.finalize(out);
    }

    void reset() noexcept
    {
        buf_.clear();
        state_ = syntax_.open.empty() ? state::content : state::start;
        implicit_ = false;
    }

    std::size_t held_bytes() const noexcept { return buf_.size(); }
    const reasoning_syntax& syntax() const noexcept { return syntax_; }

private:
    // start: the stream's first bytes may open a region; seek: a recurring region may open
    // anywhere; reasoning: inside one; content: everything is the format's.
    enum class state { start, seek, reasoning, content };
    static constexpr std::size_t max_leading_blanks = 256;


    template<class Inner>
    static bool holds_bytes(const Inner& inner) noexcept
    {
        if constexpr (requires { inner.held_bytes(); })
            return inner.held_bytes() != 0;
        else
            return false;
    }

    template<class Inner, class Writer>
    void forward(std::size_t n, Inner& inner, Writer& out)
    {
        if (n > 0)
            inner.on_content(buf_.view().substr(0, n), out);
        buf_.consume(n);
    }

    template<class Writer>
    void emit(std::size_t n, bool reasoning, Writer& out)
    {
        if (n > 0) {
            if (reasoning)
                out.reasoning(buf_.view().substr(0, n));
            else
                out.markup(buf_.view().substr(0, n));
        }
        buf_.consume(n);
    }

    template<class Inner, class Writer>
    bool step(Inner& inner, Writer& out)
    {
        const std::string_view v = buf_.view();
        switch (state_) {
        case state::content: forward(v.size(), inner, out); return true;
        case state::start: return start(v, inner, out);
        case state::seek: {
            const std::array<std::string_view, 1> markers{syntax_.open};
            const auto m = find_marker(v, markers, false);
            forward(m.position, inner, out);
            if (m.marker == marker_match::npos)
                return false;   // a prefix of `open` (or nothing) is left
            if (holds_bytes(inner)) {
                // Inside syntax the inner policy has not settled (an opening it holds): a region
                // here would put reasoning before bytes that came first. The marker is its data.
                forward(syntax_.open.size(), inner, out);
                return true;
            }
            emit(syntax_.open.size(), false, out);
            state_ = state::reasoning;
            return true;
        }
        case state::reasoning: return reasoning(v, out);
        }
        return false;
    }

    // Blanks, then `open` or not: a region opens explicitly, implicitly (open_at_start), or never.
    template<class Inner, class Writer>
    bool start(std::string_view v, Inner& inner, Writer& out)
    {
        std::size_t i = 0;
        while (i < v.size() && i < max_leading_blanks && is_blank(v[i]))
            ++i;
        const std::string_view rest = v.substr(i);
        const std::size_t n = scan::common_prefix(rest, syntax_.open, false);
        if (n == syntax_.open.size()) {
            if (syntax_.open_at_start)
                emit(i, true, out);
            else
                forward(i, inner, out);
            emit(n, false, out);
            state_ = state::reasoning;
            return true;
        }
        if (n == rest.size() && i < max_leading_blanks)
            return false;   // blanks or a prefix of `open` so far
        implicit_ = syntax_.open_at_start;
        state_ = implicit_ ? state::reasoning : (syntax_.recurs ? state::seek : state::content);
        return true;
    }

    template<class Writer>
    bool reasoning(std::string_view v, Writer& out)
    {
        const std::array<std::string_view, 3> markers{
            syntax_.close, implicit_ ? syntax_.ends_implicit_at : std::string_view{}, syntax_.yields_to};
        const auto m = find_marker(v, markers, false);
        emit(m.position, true, out);
        if (m.marker == marker_match::npos)
            return false;
        // (find_marker numbers the non-empty markers only.)
        if (m.marker != 0 && !syntax_.yields_to.empty() && buf_.view().starts_with(syntax_.yields_to)) {
            switch (yields_here(buf_.view().substr(syntax_.yields_to.size()))) {
            case scan::follows::more: return false;   // `yields_to` and blanks so far: held
            case scan::follows::no:
            case scan::follows::past_lookahead: emit(syntax_.yields_to.size(), true, out); return true;
            case scan::follows::yes: break;
            }
        }
        if (m.marker == 0)
            emit(syntax_.close.size(), false, out);
        implicit_ = false;
        state_ = syntax_.recurs ? state::seek : state::content;
        return true;
    }

    // Whether `yields_to`, followed by `rest`, ends the region (yields_before).
    scan::follows yields_here(std::string_view rest) const noexcept
    {
        if (syntax_.yields_before[0].empty())
            return scan::follows::yes;
        return scan::followed_by(rest, syntax_.yields_before, max_leading_blanks, false);
    }

    reasoning_syntax syntax_;
    scan_buffer buf_;
    state state_ = state::content;
    bool implicit_ = false;
};

} // namespace detail

/// A parser policy: `Policy` behind a reasoning parser (detail::reasoning_splitter). `Reasoning`
/// is a syntax tag (qwen3_reasoning…), or void for a syntax given at run time (none when
/// default-built).
template<parser_policy Policy, reasoning_tag Reasoning = void>
class reasoning_policy {
public:
    using inner_type = Policy;
    static constexpr bool decodes_file_bodies = [] {
        if constexpr (requires { Policy::decodes_file_bodies; })
            return Policy::decodes_file_bodies;
        else
            return false;
    }();

    reasoning_policy() : reasoning_policy(detail::reasoning_syntax_of<Reasoning>()) {}
    explicit reasoning_policy(reasoning_syntax syntax, Policy inner = Policy{})
        : splitter_(syntax), inner_(std::move(inner))
    {
    }

    template<class Writer>
    void on_content(std::string_view text, Writer& out)
    {
        splitter_.on_content(text, inner_, out);
    }

    template<class Writer>
    void finalize(Writer& out)
    {
        splitter_.finalize(inner_, out);
    }

    void reset()
    {
        splitter_.reset();
        inner_.reset();
    }

    std::size_t held_bytes() const noexcept
    {
        if constexpr (requires { inner_.held_bytes(); })
            return splitter_.held_bytes() + inner_.held_bytes();
        else
            return splitter_.held_bytes();
    }

    const reasoning_syntax& syntax() const noexcept { return splitter_.syntax(); }
    Policy& inner() noexcept { return inner_; }
    const Policy& inner() const noexcept { return inner_; }

private:
    detail::reasoning_splitter splitter_;
    Policy inner_;
};

static_assert(parser_policy<reasoning_policy<detail::parser_policy_archetype, qwen3_reasoning>>);

} // namespace toolstream
