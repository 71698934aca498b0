// libFuzzer target: model text through the model-native formats (policies/formats/), alone and
// behind reasoning parsers. Header bits 2-5 pick the policy, bits 6-7 the hold caps.
#include <toolstream/policies/formats/deepseek_v3.hpp>
#include <toolstream/policies/formats/deepseek_v31.hpp>
#include <toolstream/policies/formats/kimi_k2.hpp>
#include <toolstream/policies/formats/llama3_json.hpp>
#include <toolstream/policies/formats/mistral.hpp>
#include <toolstream/policies/formats/openai.hpp>
#include <toolstream/policies/formats/qwen3_coder.hpp>
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
    // body decoded from them); a reasoning parser adds at most 256 leading blanks and a marker. A
    // call ENDs complete after its closing marker or, when that was stripped, at the end of the
    // stream (in finalize()): no closing rule is checked.
    const std::size_t bound = options.max_held + 2 * options.max_held_body + 512;
    fuzz::check_text_policy<Policy>(in, options, nullptr, bound, true);
}

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
    switch (in->option(2, 4)) {
    case 0: check<deepseek_v31>(*in, options); break;
    case 1: check<deepseek_v3>(*in, options); break;
    case 2: check<kimi_k2>(*in, options); break;
    case 3: check<reasoned<deepseek_v31, deepseek_r1_reasoning>>(*in, options); break;
    case 4: check<reasoned<deepseek_v3, qwen3_reasoning>>(*in, options); break;
    case 5: check<reasoned<kimi_k2, kimi_k2_reasoning>>(*in, options); break;
    case 6: check<reasoned<kimi_k2, openai_gptoss_reasoning>>(*in, options); break;
    case 7: check<reasoned<deepseek_v31, minimax_m2_reasoning>>(*in, options); break;
    case 8: check<mistral_calls>(*in, options); break;
    case 9: check<llama3_json>(*in, options); break;
    case 10: check<reasoned<mistral_calls, qwen3_reasoning>>(*in, options); break;
    case 11: check<reasoned<llama3_json, deepseek_r1_reasoning>>(*in, options); break;
    case 12: check<reasoned<openai, openai_gptoss_reasoning>>(*in, options); break;
    case 13: check<qwen3_coder>(*in, options); break;   // bare <function=, a missing </parameter>
    case 14: check<reasoned<qwen3_coder, qwen3_reasoning>>(*in, options); break;
    default: check<openai>(*in, options); break;   // the role-header recipient
    }
    return 0;
}
