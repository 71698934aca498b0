// libFuzzer target: raw openai_responses response bytes through pipeline<openai_responses, api_tool_call>.
#include <toolstream/providers/openai_responses.hpp>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (const auto in = toolstream::fuzz::read_input(data, size))
        toolstream::fuzz::check_provider<toolstream::openai_responses>(*in);
    return 0;
}
