// Choosing the parser policy at run time, by name: a std::variant of the policies.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/policies/api_tool_call.hpp>
#include <toolstream/policies/json_calls.hpp>
#include <toolstream/policies/passthrough.hpp>
#include <toolstream/policies/sentinel.hpp>
#include <toolstream/policies/xml.hpp>
#include <toolstream/types.hpp>

#include <array>
#include <cstddef>
#include <cstdlib>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace toolstream {

/// One of the policies, chosen at run time; a parser policy itself, so `handler<runtime_policy>`
/// works like `handler<xml>`. Native tool calls go to the chosen policy when it assembles them
/// (passthrough ignores them). Prefer a policy type when it is known at compile time: each call
/// here is a std::visit.
class runtime_policy {
public:
    using variant_type = std::variant<api_tool_call, xml, json_calls, sentinel, passthrough>;

    /// api_tool_call, the default of the reference.
    runtime_policy() = default;

    template<class Policy>
        requires std::is_constructible_v<variant_type, Policy&&>
                 && (!std::is_same_v<std::remove_cvref_t<Policy>, runtime_policy>)
    explicit runtime_policy(Policy&& policy) : policy_(std::forward<Policy>(policy))
    {
    }

    template<class Writer>
    void on_content(std::string_view text, Writer& out)
    {
        std::visit([&](auto& p) { p.on_content(text, out); }, policy_);
    }

    template<class Writer>
    void on_tool_call(const tool_call_delta& d, Writer& out)
    {
        std::visit(
            [&](auto& p) {
                if constexpr (requires { p.on_tool_call(d, out); })
                    p.on_tool_call(d, out);
            },
            policy_);
    }

    template<class Writer>
    void finalize(Writer& out)
    {
        std::visit([&](auto& p) { p.finalize(out); }, policy_);
    }

    void reset()
    {
        std::visit([](auto& p) { p.reset(); }, policy_);
    }

    /// Bytes the chosen policy holds back (0 for the policies that hold none).
    std::size_t held_bytes() const noexcept
    {
        return std::visit(
            [](const auto& p) -> std::size_t {
                if constexpr (requires { p.held_bytes(); })
                    return p.held_bytes();
                else
                    return 0;
            },
            policy_);
    }

    /// The name make_policy() takes for the chosen policy.
    std::string_view name() const noexcept;

    variant_type& get() noexcept { return policy_; }
    const variant_type& get() const noexcept { return policy_; }

private:
    variant_type policy_;
};

namespace detail {

// Names in the order of runtime_policy::variant_type's alternatives.
inline constexpr std::array<std::string_view, std::variant_size_v<runtime_policy::variant_type>> policy_names{
    "api_tool_call", "xml", "json", "sentinel", "passthrough"};

template<std::size_t... I>
runtime_policy make_policy_at(std::size_t index, std::index_sequence<I...>)
{
    runtime_policy out;
    ((index == I ? (out.get().emplace<I>(), 0) : 0), ...);
    return out;
}

} // namespace detail

inline std::string_view runtime_policy::name() const noexcept
{
    return detail::policy_names[policy_.index()];
}

/// The policy called `name` ("api_tool_call", "xml", "json", "sentinel", "passthrough"), with
/// default options; any other name fails with error::unknown_parser.
inline result<runtime_policy> make_policy(std::string_view name)
{
    for (std::size_t i = 0; i < detail::policy_names.size(); ++i)
        if (detail::policy_names[i] == name)
            return detail::make_policy_at(i, std::make_index_sequence<detail::policy_names.size()>{});
    return make_error_code(error::unknown_parser);
}

/// The environment variable TOOLSTREAM_STREAM_PARSER when it names a policy, else
/// "api_tool_call" (as the reference treats AUTOBYTEUS_STREAM_PARSER). The view is static.
inline std::string_view default_policy_name()
{
    const char* env = std::getenv("TOOLSTREAM_STREAM_PARSER");
    if (env != nullptr)
        for (auto name : detail::policy_names)
            if (name == env)
                return name;
    return detail::policy_names[0];
}

} // namespace toolstream
