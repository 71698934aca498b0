// libFuzzer target: model text through every registered text format (registry.hpp) whose options
// are text_format_options, behind each reasoning parser (reasoning_parsers) or none. Header byte 3
// picks the format (modulo their number); bits 2-5, and the low half of byte 2 above them, the
// reasoning parser (modulo their number plus one; 0: none); bits 6-7 the hold caps. A format added to the registry is fuzzed with no edit here.
#include <toolstream/policies/reasoning.hpp>
#include <toolstream/registry.hpp>

#include "fuzz_support.hpp"

#include <concepts>

namespace {

using namespace toolstream;

template<class Policy>
concept text_format = requires { typename Policy::options_type; }
                      && std::same_as<typename Policy::options_type, text_format_options>;

struct reasoned_options {
    text_format_options format;
    reasoning_syntax reasoning;   // default: none, the format alone
};

// A format behind the reasoning parser its options name.
template<class Format>
struct reasoned : reasoning_policy<Format> {
    reasoned() = default;
    explicit reasoned(const reasoned_options& o) : reasoning_policy<Format>(o.reasoning, Format(o.format)) {}
};

template<class Format>
void check(const fuzz::input& in, const reasoned_options& options)
{
    // The engine holds at most a hold cap of opening plus a held body (its input bytes and the
    // body decoded from them); a reasoning parser adds at most 256 leading blanks and a marker. A
    // call ENDs complete after its closing marker or, when that was stripped, at the end of the
    // stream (in finalize()): no closing rule is checked.
    const std::size_t bound = options.format.max_held + 2 * options.format.max_held_body + 512;
    fuzz::check_text_policy<reasoned<Format>>(in, options, nullptr, bound, true);
}

template<class... P>
constexpr std::size_t text_format_count(type_list<P...>) noexcept
{
    return (std::size_t{0} + ... + std::size_t{text_format<P>});
}

// Runs check<F> for the `n`th text format of the list.
template<class... P>
void check_nth(type_list<P...>, std::size_t n, const fuzz::input& in, const reasoned_options& options)
{
    std::size_t i = 0;
    (
        [&] {
            if constexpr (text_format<P>)
                if (i++ == n)
                    check<P>(in, options);
        }(),
        ...);
}

constexpr std::size_t formats = text_format_count(registered_policies{});
static_assert(formats >= 16, "the registry's text formats are what this target fuzzes");
static_assert(reasoning_parsers.size() < 256, "eight header bits pick none or one reasoning parser");

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto in = fuzz::read_input(data, size);
    if (!in)
        return 0;
    // header bits 6-7: {max_held, max_held_body}
    static constexpr std::size_t caps[][2] = {{4096, std::size_t{1} << 20}, {16, 64}, {64, std::size_t{1} << 20}, {300, 64}};
    reasoned_options options;
    options.format.max_held = caps[in->option(6, 2)][0];
    options.format.max_held_body = caps[in->option(6, 2)][1];
    const unsigned picked = in->option(2, 4) | ((in->seed >> 8) & 0x0fu) << 4;
    if (const unsigned r = picked % (reasoning_parsers.size() + 1); r >= 1)
        options.reasoning = reasoning_parsers[r - 1];
    check_nth(registered_policies{}, (in->seed >> 16) % formats, *in, options);
    return 0;
}
