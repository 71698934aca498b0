// Shared by the model-native format tests: run an input through every check of
// text_policy_checks.hpp, and print a run as one line per segment / per invocation.
#pragma once

#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/engine/text_format.hpp>
#include <toolstream/parse/raw_parameters.hpp>
#include <toolstream/runtime/registry.hpp>

#include "support/auto_agreement.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"

#include <boost/describe/enum_to_string.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

namespace toolstream::test {

/// A text format as the registry has it: its traits, a parser policy, its name registered.
template<class Policy>
constexpr bool registered_text_format = text_format_traits<typename Policy::traits_type> && parser_policy<Policy>
    && detail::index_of(policy_names, Policy::traits_type::name) < policy_names.size();

/// Options whose schemas are the OpenAI `tools` array `tools_json`.
inline text_format_options with_tools(std::string_view tools_json, std::size_t max_held = 4096)
{
    text_format_options o;
    o.max_held = max_held;
    o.schemas = std::make_shared<const tool_schemas>(boost::json::parse(tools_json).as_array());
    return o;
}

/// Chunk invariance (every split, 1-byte, random), byte conservation, then the whole-input run.
template<class Policy, class... Args>
policy_run run_checked(std::string_view input, const Args&... args)
{
    check_chunk_invariance<Policy>(input, args...);
    check_byte_conservation<Policy>(input, args...);
#if defined(TOOLSTREAM_SEPARATE_RUNTIME)   // the build that links auto_agreement.cpp
    if constexpr (std::is_constructible_v<runtime_policy::variant_type, Policy> && sizeof...(Args) <= 1)
        if constexpr (registered_text_format<Policy>)
            check_auto_agrees(
                Policy::name, [&] { return runtime_policy(Policy(args...)); },
                [&] { return runtime_policy(auto_detect(auto_options_like(args...))); }, input);
#endif
    return run_whole<Policy>(input, args...);
}

/// An input of one `write_file` call with a large body (prose around it): fed in 7-byte and 4 KiB
/// chunks, the policy holds fewer than `max_held` bytes after every feed, and the one invocation is
/// complete with `content` equal to `decoded`; then bytes are conserved over its first `conserved`.
template<class Policy>
void check_large_body(std::string_view input, std::string_view decoded, std::size_t max_held,
                      std::size_t conserved = std::size_t{1} << 16)
{
    for (const std::size_t chunk : {std::size_t{7}, std::size_t{4096}}) {
        INFO("chunks of " << chunk);
        handler<Policy, contract_recording_sink> h(quiet_sink());
        std::size_t most = 0;
        for (std::size_t at = 0; at < input.size(); at += chunk) {
            REQUIRE(!h.feed(input.substr(at, chunk)));
            most = std::max(most, h.policy().held_bytes());
        }
        REQUIRE(!h.finalize());
        CHECK(most < max_held);
        REQUIRE(h.invocations().size() == 1);
        CHECK(h.invocations()[0].is_complete());
        CHECK(h.invocations()[0].arguments.at("content").as_string() == decoded);
    }
    check_byte_conservation<Policy>(input.substr(0, conserved));
}

/// One line per invocation: id, name, arguments, status when not complete.
inline std::string calls(const policy_run& r)
{
    std::string out;
    for (const auto& inv : r.invocations) {
        out += inv.id + " " + inv.name + " " + boost::json::serialize(inv.arguments);
        if (inv.status != invocation_status::complete)
            out += std::string(" ") + boost::describe::enum_to_string(inv.status, "?");
        out += "\n";
    }
    return out;
}

} // namespace toolstream::test
