// libFuzzer target: model text through handler<json_calls>.
#include <toolstream/policies/json_calls.hpp>

#include "fuzz_support.hpp"

namespace {

// A call ends complete only where its object closes: its content's last byte is the `}`.
bool closed(std::string_view bytes, std::string_view markup_run)
{
    return markup_run.empty() && bytes.ends_with('}');
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace toolstream;
    const auto in = fuzz::read_input(data, size);
    if (!in)
        return 0;
    static constexpr std::size_t caps[] = {4096, 16, 64, 300};   // header bits 2-3
    json_calls_options options;
    options.max_held = caps[in->option(2, 2)];
    fuzz::check_text_policy<json_calls>(*in, options, closed, options.max_held);
    return 0;
}
