// libFuzzer target: raw ollama response bytes through pipeline<ollama, api_tool_call>.
#include <toolstream/providers/ollama.hpp>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (const auto in = toolstream::fuzz::read_input(data, size))
        toolstream::fuzz::check_provider<toolstream::ollama>(*in);
    return 0;
}
