// check_auto_agrees (auto_agreement.hpp), compiled once for the test executable.
#include "support/auto_agreement.hpp"

#include <toolstream/handler/handler.hpp>
#include <toolstream/sinks.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace toolstream::test {

namespace {

struct auto_run {
    std::vector<owned_segment_event> events;
    std::vector<tool_invocation> invocations;
    std::string format;
};

auto_run run(const std::function<runtime_policy()>& make, const std::vector<std::string_view>& pieces)
{
    handler<runtime_policy> h(recording_sink{}, {}, make());
    for (const auto piece : pieces)
        (void)h.feed(piece);
    (void)h.finalize();
    return {coalesce(h.events()), h.invocations(), std::string(h.policy().format())};
}

// The registered text format `name`, with the options auto gives the formats it chooses.
runtime_policy format_named(std::string_view name, const auto_options& options)
{
    runtime_policy made;
    detail::for_each_index(std::make_index_sequence<std::variant_size_v<runtime_policy::variant_type>>{}, [&](auto i) {
        using P = std::variant_alternative_t<i, runtime_policy::variant_type>;
        if constexpr (requires { typename P::traits_type; })
            if (P::name == name)
                made = runtime_policy(P(detail::format_options<P>(options)));
    });
    return made;
}

} // namespace

void check_auto_agrees(std::string_view name, const std::function<runtime_policy()>& named,
                       const std::function<runtime_policy()>& detected, std::string_view input)
{
    const auto whole = run(detected, {input});
    INFO("format " << name << ", auto chose '" << whole.format << "'; input: " << input);
    for (const auto& pieces : chunkings(input)) {
        const auto got = run(detected, pieces);
        REQUIRE(got.format == whole.format);
        REQUIRE(got.events == whole.events);
        REQUIRE(got.invocations == whole.invocations);
    }
    const auto expected = run(named, {input});
    // Another format read this input first: auto must then be exactly that format (which may
    // read it otherwise than `name` does; docs/auto.md lists those formats).
    if (!whole.format.empty() && whole.format != name) {
        const auto options = std::get<auto_detect>(detected().get()).options();
        const auto shadow = run([&] { return format_named(whole.format, options); }, {input});
        INFO("as " << name << ":\n" << dump(expected.events) << dump(expected.invocations));
        REQUIRE(whole.events == shadow.events);
        REQUIRE(whole.invocations == shadow.invocations);
        return;
    }
    INFO("named:\n" << dump(expected.events) << dump(expected.invocations) << "auto:\n"
                    << dump(whole.events) << dump(whole.invocations));
    REQUIRE(whole.events == expected.events);
    REQUIRE(whole.invocations == expected.invocations);
}

} // namespace toolstream::test
