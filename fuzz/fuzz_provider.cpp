// libFuzzer target: the raw response bytes of one registered provider through
// pipeline<Provider, api_tool_call>. One binary serves every entry of registry.hpp's
// registered_providers (one build instead of one per provider); the environment variable
// TOOLSTREAM_FUZZ_PROVIDER names the one a run fuzzes, and fuzz/run.sh keeps a corpus per name.
#include <toolstream/runtime/registry.hpp>

#include "fuzz_support.hpp"

#include <array>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace {

using check_function = void (*)(const toolstream::fuzz::input&);

// The check of each registered provider, in registry order (that of provider_names).
template<class... P>
constexpr std::array<check_function, sizeof...(P)> checks_of(toolstream::type_list<P...>) noexcept
{
    return {&toolstream::fuzz::check_provider<P>...};
}

// A run without a known provider would fuzz nothing and look like a clean run: it stops instead.
check_function chosen_check()
{
    const char* name = std::getenv("TOOLSTREAM_FUZZ_PROVIDER");
    constexpr auto checks = checks_of(toolstream::registered_providers{});
    const std::size_t i = name ? toolstream::detail::index_of(toolstream::provider_names, name) : checks.size();
    if (i == checks.size()) {
        std::fprintf(stderr, "fuzz_provider: set TOOLSTREAM_FUZZ_PROVIDER to a provider of registry.hpp (got %s)\n",
                     name ? name : "nothing");
        std::abort();
    }
    return checks[i];
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const check_function check = chosen_check();
    if (const auto in = toolstream::fuzz::read_input(data, size))
        check(*in);
    return 0;
}
