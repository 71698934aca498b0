// libFuzzer target: model text through the model-native formats (policies/formats/), alone and
// behind reasoning parsers. Header bits 2-4 pick the policy, bits 5-6 the hold cap.
#include <toolstream/policies/formats/deepseek_v3.hpp>
#include <toolstream/policies/formats/deepseek_v31.hpp>
#include <toolstream/policies/formats/kimi_k2.hpp>
#include <toolstream/policies/reasoning.hpp>

#include "fuzz_support.hpp"

namespace {

using namespace toolstream;

// A format behind the reasoning parser `R`, built from the format's options.
template<class Format, class R>
struct reasoned : reasoning_policy<Format, R> {
    reasoned() = default;
    explicit reasoned(const text_format_options& o) : reasoning_policy<Format, R>(R::syntax, Format(o)) {}
};

template<class Policy>
void check(const fuzz::input& in, const text_format_options& options)
{
    // The engine holds at most a hold cap of opening plus a held body (its input bytes and the
    // body decoded from them); a reasoning parser adds at most 256 leading blanks and a marker. A call ENDs complete after its closing marker or,
    // when that was stripped, at the end of the stream: no closing rule is checked.
    const std::size_t bound = options.max_held + 2 * options.max_held_body + 512;
    fuzz::check_text_policy<Policy>(in, options, nullptr, bound);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto in = fuzz::read_input(data, size);
    if (!in)
        return 0;
    static constexpr std::size_t caps[] = {4096, 16, 64, 300};   // header bits 5-6
    text_format_options options;
    options.max_held = caps[in->option(5, 2)];
    options.max_held_body = in->option(7, 1) == 0 ? std::size_t{1} << 20 : 64;   // header bit 7
    switch (in->option(2, 3)) {
    case 0: check<deepseek_v31>(*in, options); break;
    case 1: check<deepseek_v3>(*in, options); break;
    case 2: check<kimi_k2>(*in, options); break;
    case 3: check<reasoned<deepseek_v31, deepseek_r1_reasoning>>(*in, options); break;
    case 4: check<reasoned<deepseek_v3, qwen3_reasoning>>(*in, options); break;
    case 5: check<reasoned<kimi_k2, kimi_k2_reasoning>>(*in, options); break;
    case 6: check<reasoned<kimi_k2, openai_gptoss_reasoning>>(*in, options); break;
    default: check<reasoned<deepseek_v31, minimax_m2_reasoning>>(*in, options); break;
    }
    return 0;
}
