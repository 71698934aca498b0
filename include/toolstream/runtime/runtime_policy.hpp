// Choosing the parser policy at run time, by name: a std::variant of the policies.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/parse/raw_parameters.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/types.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace toolstream {

namespace detail {
template<class List>
struct variant_of;
template<class... P>
struct variant_of<type_list<P...>> {
    using type = std::variant<P...>;
};
} // namespace detail

/// One of the registered policies, chosen at run time; a parser policy itself, so
/// `handler<runtime_policy>` works like `handler<xml>`. Prefer a policy type when it is known at
/// compile time: each call here is a std::visit.
class runtime_policy {
public:
    using variant_type = detail::variant_of<registered_policies>::type;

    /// The first registered policy (api_tool_call, AutoByteus's default too).
    runtime_policy() = default;

    template<class Policy>
        requires std::is_constructible_v<variant_type, Policy&&>
                 && (!std::is_same_v<std::remove_cvref_t<Policy>, runtime_policy>)
    explicit runtime_policy(Policy&& policy) : policy_(std::forward<Policy>(policy))
    {
    }

    /// A reasoning parser in front of the policy (reasoning.hpp); none by default.
    void set_reasoning(reasoning_syntax syntax) { reasoning_ = detail::reasoning_splitter(syntax); }
    const reasoning_syntax& reasoning() const noexcept { return reasoning_.syntax(); }

    template<emitter Emitter>
    void on_content(std::string_view text, Emitter& out)
    {
        chosen c{policy_};
        reasoning_.on_content(text, c, out);
    }

    template<emitter Emitter>
    void finalize(Emitter& out)
    {
        chosen c{policy_};
        reasoning_.finalize(c, out);
    }

    // reset(), held_bytes() and make_policy() are templates only so that a TU which never calls
    // them instantiates nothing for them: the body of a non-template inline function instantiates
    // every template it names, here a visit of all the registered policies.
    template<class = void>
    void reset()
    {
        reasoning_.reset();
        std::visit([](auto& p) { p.reset(); }, policy_);
    }

    /// Bytes the chosen policy holds back (0 for the policies that hold none).
    template<class = void>
    std::size_t held_bytes() const noexcept
    {
        return held_bytes_of(policy_) + reasoning_.held_bytes();
    }

    /// The name make_policy() takes for the chosen policy.
    std::string_view name() const noexcept;

    /// The format the text is read in: name(), or for `auto` the format it chose in this stream
    /// (or the last one, once finalized), empty while none.
    template<class = void>
    std::string_view format() const noexcept
    {
        if (const auto* a = std::get_if<auto_detect>(&policy_))
            return a->format();
        return name();
    }

    /// Whether the policy decodes file bodies out of JSON strings now (its decodes_file_bodies;
    /// for `auto`, the chosen format's).
    template<class = void>
    bool decodes_file_bodies_now() const noexcept
    {
        return std::visit(
            [](const auto& p) {
                using P = std::remove_cvref_t<decltype(p)>;
                if constexpr (requires { p.decodes_file_bodies_now(); })
                    return p.decodes_file_bodies_now();
                else if constexpr (requires { P::decodes_file_bodies; })
                    return static_cast<bool>(P::decodes_file_bodies);
                else
                    return false;
            },
            policy_);
    }

    variant_type& get() noexcept { return policy_; }
    const variant_type& get() const noexcept { return policy_; }

private:
    // The chosen alternative, as the reasoning splitter's inner policy.
    struct chosen {
        variant_type& policy;
        template<emitter Emitter>
        void on_content(std::string_view text, Emitter& out)
        {
            std::visit([&](auto& p) { p.on_content(text, out); }, policy);
        }
        template<emitter Emitter>
        void finalize(Emitter& out)
        {
            std::visit([&](auto& p) { p.finalize(out); }, policy);
        }
        // Templates, as reset() and held_bytes() above: a TU that feeds no runtime_policy
        // instantiates nothing for them.
        template<class = void>
        std::size_t held_bytes() const noexcept
        {
            return held_bytes_of(policy);
        }
        template<class = void>
        bool in_block() const noexcept
        {
            return std::visit(
                [](const auto& p) {
                    if constexpr (requires { p.in_block(); })
                        return p.in_block();
                    else
                        return false;
                },
                policy);
        }
        template<class = void>
        detail::format_opening find_opening(std::string_view v, std::size_t limit, bool after_output, bool at_end) const
        {
            return std::visit([&](const auto& p) { return detail::find_opening(p, v, limit, after_output, at_end); },
                              policy);
        }
    };

    template<class = void>
    static std::size_t held_bytes_of(const variant_type& policy) noexcept
    {
        return std::visit(
            [](const auto& p) -> std::size_t {
                if constexpr (requires { p.held_bytes(); })
                    return p.held_bytes();
                else
                    return 0;
            },
            policy);
    }

    variant_type policy_;
    detail::reasoning_splitter reasoning_;
};

namespace detail {

// A named concept rather than an inline requires-expression: Clang 14 makes an invalid type in a
// requires-expression's parameter list a hard error inside `if constexpr`.
template<class Policy>
concept options_take_schemas = requires(typename Policy::options_type& o,
                                        const std::shared_ptr<const tool_schemas>& s) { o.schemas = s; };

// Alternative I of `v`, built with `schemas` when its options take them (the text formats).
template<std::size_t I, class Variant>
void emplace_policy(Variant& v, const std::shared_ptr<const tool_schemas>& schemas)
{
    using policy = std::variant_alternative_t<I, Variant>;
    if constexpr (options_take_schemas<policy>) {
        typename policy::options_type options;
        options.schemas = schemas;
        v.template emplace<I>(std::move(options));
    } else {
        v.template emplace<I>();
    }
}

template<std::size_t... I>
runtime_policy make_policy_at(std::size_t index, const std::shared_ptr<const tool_schemas>& schemas,
                              std::index_sequence<I...>)
{
    runtime_policy out;
    ((index == I ? (emplace_policy<I>(out.get(), schemas), 0) : 0), ...);
    return out;
}

} // namespace detail

inline std::string_view runtime_policy::name() const noexcept
{
    return policy_names[policy_.index()];
}

/// The registered policy called `name` (or an alias of it), with default options, behind the
/// reasoning parser `reasoning_parser` when one is named (reasoning_parsers); any other name
/// fails with error::unknown_parser. `schemas` (an OpenAI `tools` array's, tool_schemas) go to
/// the options of the policies that take them: the key/value formats type raw values by them.
/// `thinking_open`, when set, says whether the prompt left thinking open (with_thinking_open);
/// unset: the reasoning parser's default.
template<class = void>
result<runtime_policy> make_policy(std::string_view name, std::string_view reasoning_parser = {},
                                          std::shared_ptr<const tool_schemas> schemas = nullptr,
                                          std::optional<bool> thinking_open = {})
{
    const auto found = find_parser_names(name, reasoning_parser);
    if (!found.known)
        return make_error_code(error::unknown_parser);
    auto made = detail::make_policy_at(detail::index_of(policy_names, found.policy), schemas,
                                       std::make_index_sequence<policy_names.size()>{});
    if (found.reasoning != nullptr)
        made.set_reasoning(thinking_open ? with_thinking_open(*found.reasoning, *thinking_open) : *found.reasoning);
    return made;
}

static_assert(parser_policy<runtime_policy>);

} // namespace toolstream

// Opt-in: with TOOLSTREAM_SEPARATE_RUNTIME defined in every TU, handler<runtime_policy> with the
// default sink comes from the run-time path's one TU (runtime_pipeline_src.hpp), compiled once.
#if defined(TOOLSTREAM_SEPARATE_RUNTIME)
#include <toolstream/handler/handler.hpp>
#include <toolstream/sinks.hpp>
extern template class ::toolstream::handler<::toolstream::runtime_policy, ::toolstream::recording_sink>;
#endif
