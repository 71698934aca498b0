// `auto` against the named format, on every input a format test checks (format_checks.hpp's
// run_checked): the same events and invocations, at every split. Runs through runtime_policy, so
// the policies are compiled once (auto_agreement.cpp, with the prebuilt runtime object), not in
// every format test.
#pragma once

#include <toolstream/runtime/runtime_policy.hpp>

#include <functional>
#include <string_view>

namespace toolstream::test {

/// `input` through `named()` (format `name`) and through `detected()` (auto, with the same
/// options), whole and at every chunking of text_policy_checks.hpp: auto must choose the same
/// format at every chunking and give the named format's events and invocations. Where it chooses
/// another format, one that reads the same markup first, its events must be that format's own.
void check_auto_agrees(std::string_view name, const std::function<runtime_policy()>& named,
                       const std::function<runtime_policy()>& detected, std::string_view input);

/// auto_options with what `options` sets for a format (none: the defaults).
inline auto_options auto_options_like() { return {}; }


template<class Options>
auto_options auto_options_like(const Options& options)
{
    auto_options o;
    if constexpr (requires { options.max_held; })
        o.max_held = options.max_held;
    if constexpr (requires { options.max_held_body; })
        o.max_held_body = options.max_held_body;
    if constexpr (requires { options.schemas; })
        o.schemas = options.schemas;
    return o;
}

} // namespace toolstream::test
