// libFuzzer target: raw anthropic response bytes through pipeline<anthropic, api_tool_call>.
#include <toolstream/providers/anthropic.hpp>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (const auto in = toolstream::fuzz::read_input(data, size))
        toolstream::fuzz::check_provider<toolstream::anthropic>(*in);
    return 0;
}
