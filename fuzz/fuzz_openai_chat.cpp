// libFuzzer target: raw openai_chat response bytes through pipeline<openai_chat, api_tool_call>.
#include <toolstream/providers/openai_chat.hpp>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (const auto in = toolstream::fuzz::read_input(data, size))
        toolstream::fuzz::check_provider<toolstream::openai_chat>(*in);
    return 0;
}
