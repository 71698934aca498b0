// libFuzzer target: raw gemini response bytes through pipeline<gemini, api_tool_call>.
#include <toolstream/providers/gemini.hpp>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (const auto in = toolstream::fuzz::read_input(data, size))
        toolstream::fuzz::check_provider<toolstream::gemini>(*in);
    return 0;
}
