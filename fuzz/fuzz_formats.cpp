// libFuzzer target: model text through every registered text format (registry.hpp) whose options
// are text_format_options, and through `auto` (which chooses among them), behind each reasoning parser (reasoning_parsers) or none. Header byte 3
// picks the format (modulo their number); bits 2-5, and the low half of byte 2 above them, the
// reasoning parser (modulo their number plus one; 0: none); bits 6-7 the hold caps. A format added
// to the registry is fuzzed with no edit here. The formats run as runtime_policy, the variant over
// the registry that the programs run: the harness is instantiated once, not once per format, which
// takes this target's build from four minutes of CPU to under two.
#include <toolstream/runtime/registry.hpp>
#include <toolstream/runtime/runtime_policy.hpp>

#include "fuzz_support.hpp"

#include <algorithm>
#include <concepts>
#include <type_traits>

namespace {

using namespace toolstream;

template<class Policy>
concept text_format = requires { typename Policy::options_type; }
                      && (std::same_as<typename Policy::options_type, text_format_options>
                          || std::same_as<typename Policy::options_type, auto_options>);

// `options` as policy P takes them (auto: its hold cap).
template<class P>
typename P::options_type options_for(const text_format_options& options)
{
    if constexpr (std::same_as<typename P::options_type, auto_options>)
        return auto_options{{options.max_held, options.max_held_body, nullptr}};
    else
        return options;
}

template<class... P>
constexpr std::size_t text_format_count(type_list<P...>) noexcept
{
    return (std::size_t{0} + ... + std::size_t{text_format<P>});
}

/// Calls `f(std::type_identity<P>{})` for the `n`th text format P of the list.
template<class... P, class F>
void with_nth_format(type_list<P...>, std::size_t n, F&& f)
{
    std::size_t i = 0;
    (
        [&] {
            if constexpr (text_format<P>)
                if (i++ == n)
                    f(std::type_identity<P>{});
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
    text_format_options options;
    options.max_held = caps[in->option(6, 2)][0];
    options.max_held_body = caps[in->option(6, 2)][1];
    reasoning_syntax reasoning;   // default: none, the format alone
    const unsigned picked = in->option(2, 4) | ((in->seed >> 8) & 0x0fu) << 4;
    if (const unsigned r = picked % (reasoning_parsers.size() + 1); r >= 1)
        reasoning = reasoning_parsers[r - 1];
    const std::size_t format = (in->seed >> 16) % formats;
    // The engine holds at most a hold cap of opening plus a held body (its input bytes and the
    // body decoded from them); a reasoning parser adds at most 256 leading blanks and a marker. A
    // call ENDs complete after its closing marker or, when that was stripped, at the end of the
    // stream (in finalize()): no closing rule is checked. `auto` holds up to its decision window
    // (4096 bytes, or max_held when larger) from a marker before it chooses a format.
    std::size_t bound = options.max_held + 2 * options.max_held_body + 512;
    bool decodes = false;
    with_nth_format(registered_policies{}, format, [&](auto p) {
        using P = typename decltype(p)::type;
        decodes = fuzz::decodes_file_bodies<P>();
        if constexpr (std::same_as<typename P::options_type, auto_options>)
            bound += std::max<std::size_t>(options.max_held, 4096);
    });
    fuzz::check_made_policy<runtime_policy>(
        *in,
        [&] {
            runtime_policy made;
            with_nth_format(registered_policies{}, format,
                            [&](auto p) {
                                using P = typename decltype(p)::type;
                                made = runtime_policy{P(options_for<P>(options))};
                            });
            made.set_reasoning(reasoning);
            return made;
        },
        decodes, nullptr, bound, true);
    return 0;
}
