// libFuzzer target: the raw response bytes of one registered provider through
// pipeline<Provider, api_tool_call>. One binary serves every entry of registry.hpp's
// registered_providers (one build instead of one per provider); the environment variable
// TOOLSTREAM_FUZZ_PROVIDER names the one a run fuzzes, and fuzz/run.sh keeps a corpus per name.
#include <toolstream/registry.hpp>

#include "fuzz_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {

using check_function = void (*)(const toolstream::fuzz::input&);

template<class... P>
check_function check_of(toolstream::type_list<P...>, std::string_view name) noexcept
{
    check_function chosen = nullptr;
    ((name == toolstream::provider_converter<P>::name ? (void)(chosen = &toolstream::fuzz::check_provider<P>)
                                                       : (void)0),
     ...);
    return chosen;
}

// A run without a known provider would fuzz nothing and look like a clean run: it stops instead.
check_function chosen_check()
{
    const char* name = std::getenv("TOOLSTREAM_FUZZ_PROVIDER");
    const check_function check = name ? check_of(toolstream::registered_providers{}, name) : nullptr;
    if (!check) {
        std::fprintf(stderr, "fuzz_provider: set TOOLSTREAM_FUZZ_PROVIDER to a provider of registry.hpp (got %s)\n",
                     name ? name : "nothing");
        std::abort();
    }
    return check;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const check_function check = chosen_check();
    if (const auto in = toolstream::fuzz::read_input(data, size))
        check(*in);
    return 0;
}
