// libFuzzer target: model text through handler<sentinel>.
#include <toolstream/parse/formats/sentinel.hpp>

#include "fuzz_support.hpp"

namespace {

// A block ends complete only right after its `[[SEG_END]]` (matched case-insensitively).
bool closed(std::string_view, std::string_view markup_run)
{
    return toolstream::fuzz::lower(markup_run).ends_with("[[seg_end]]");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace toolstream;
    const auto in = fuzz::read_input(data, size);
    if (!in)
        return 0;
    static constexpr std::size_t caps[] = {4096, 16, 64, 300};   // header bits 2-3
    sentinel_options options;
    options.max_held = caps[in->option(2, 2)];
    fuzz::check_text_policy<sentinel>(*in, options, closed, options.max_held);
    return 0;
}
