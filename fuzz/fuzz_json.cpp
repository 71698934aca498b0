// libFuzzer target: model text through handler<json_calls>.
#include <toolstream/parse/formats/json_calls.hpp>

#include "fuzz_support.hpp"

namespace {

using namespace toolstream;

// A call ends complete only where its object closes: the last byte before its END (content of a
// tool_call, syntax of a file tool) is the `}`.
bool closed(std::string_view bytes, std::string_view)
{
    return bytes.ends_with('}');
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto in = fuzz::read_input(data, size);
    if (!in)
        return 0;
    static constexpr std::size_t caps[] = {4096, 16, 64, 300};   // header bits 2-3
    static constexpr std::size_t held_bodies[] = {std::size_t{1} << 20, 0, 64, 300};   // header bits 4-5
    json_calls_options options;
    options.max_held = caps[in->option(2, 2)];
    options.max_held_body = held_bodies[in->option(4, 2)];
    // File bodies are decoded from JSON strings (json_calls::decodes_file_bodies): the recorder
    // leaves them out of the reconstructed input.
    static_assert(fuzz::decodes_file_bodies<json_calls>());
    // A file waiting for its path holds its raw input and the body decoded from it.
    fuzz::check_text_policy<json_calls>(*in, options, closed, options.max_held + 2 * options.max_held_body);
    return 0;
}
