// libFuzzer target: the raw response bytes of one registered provider through
// pipeline<Provider, api_tool_call>. fuzz/run.sh (and cmake/fuzzers.cmake) build it once per entry
// of registry.hpp's registered_providers, as fuzz_<name>, with -DTOOLSTREAM_FUZZ_PROVIDER=<name>.
#include <toolstream/registry.hpp>

#include "fuzz_support.hpp"

#ifndef TOOLSTREAM_FUZZ_PROVIDER
#error "build with -DTOOLSTREAM_FUZZ_PROVIDER=<a provider tag of registry.hpp>"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (const auto in = toolstream::fuzz::read_input(data, size))
        toolstream::fuzz::check_provider<toolstream::TOOLSTREAM_FUZZ_PROVIDER>(*in);
    return 0;
}
