// libFuzzer target: model text through handler<xml>.
#include <toolstream/parse/formats/xml.hpp>

#include "fuzz_support.hpp"

#include <algorithm>

namespace {

// A block ends complete only right after a closing tag (`</tool>`, `</write_file>`...) or the
// `/>` of a self-closing <tool/>, consumed as markup.
bool closed(std::string_view, std::string_view markup_run)
{
    return markup_run.ends_with('>') && (markup_run.find("</") != std::string_view::npos || markup_run.ends_with("/>"));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace toolstream;
    const auto in = fuzz::read_input(data, size);
    if (!in)
        return 0;
    static constexpr std::size_t caps[] = {4096, 0, 100, 300};   // header bits 2-3; below 64 counts as 64
    xml_options options;
    options.max_tag_size = caps[in->option(2, 2)];
    options.parse_tool_calls = in->option(4, 1) == 0;
    static constexpr std::size_t held_bodies[] = {std::size_t{1} << 20, 0, 64, 300};   // header bits 5-6
    options.max_held_body = held_bodies[in->option(5, 2)];
    // The documented bound: "below max(max_tag_size, 64) + 16, plus up to max_held_body".
    const std::size_t bound = std::max<std::size_t>(options.max_tag_size, 64) + 15 + options.max_held_body;
    fuzz::check_text_policy<xml>(*in, options, closed, bound);
    return 0;
}
