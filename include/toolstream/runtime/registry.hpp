// The one list of providers and parser policies. Runtime selection by name, both programs' names,
// a provider's framing, the fuzz targets (one per provider; every text format in fuzz_formats)
// and the formats benchmark derive from it: adding a provider or a policy is one line here (and,
// for a text format, its sample in tests/support/format_samples.hpp).
#pragma once

#include <toolstream/parse/formats/apertus.hpp>
#include <toolstream/parse/formats/cohere_command.hpp>
#include <toolstream/parse/formats/deepseek_v3.hpp>
#include <toolstream/parse/formats/deepseek_v31.hpp>
#include <toolstream/parse/formats/deepseek_v32.hpp>
#include <toolstream/parse/formats/deepseek_v4.hpp>
#include <toolstream/parse/formats/deepseek_v41.hpp>
#include <toolstream/parse/formats/ernie45.hpp>
#include <toolstream/parse/formats/functiongemma.hpp>
#include <toolstream/parse/formats/gemma4.hpp>
#include <toolstream/parse/formats/gigachat3.hpp>
#include <toolstream/parse/formats/glm45.hpp>
#include <toolstream/parse/formats/granite.hpp>
#include <toolstream/parse/formats/granite_20b_fc.hpp>
#include <toolstream/parse/formats/harmony.hpp>
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/formats/hunyuan_a13b.hpp>
#include <toolstream/parse/formats/hy_v3.hpp>
#include <toolstream/parse/formats/inkling.hpp>
#include <toolstream/parse/formats/internlm.hpp>
#include <toolstream/parse/formats/jamba.hpp>
#include <toolstream/parse/formats/json_calls.hpp>
#include <toolstream/parse/formats/kimi_k2.hpp>
#include <toolstream/parse/formats/kimi_k3.hpp>
#include <toolstream/parse/formats/lfm2.hpp>
#include <toolstream/parse/formats/ling3.hpp>
#include <toolstream/parse/formats/llama3_json.hpp>
#include <toolstream/parse/formats/llama4_pythonic.hpp>
#include <toolstream/parse/formats/longcat.hpp>
#include <toolstream/parse/formats/minimax.hpp>
#include <toolstream/parse/formats/minimax_m2.hpp>
#include <toolstream/parse/formats/mistral_calls.hpp>
#include <toolstream/parse/formats/olmo3.hpp>
#include <toolstream/parse/formats/phi4_mini_json.hpp>
#include <toolstream/parse/formats/poolside_v1.hpp>
#include <toolstream/parse/formats/pythonic.hpp>
#include <toolstream/parse/formats/qwen3_coder.hpp>
#include <toolstream/parse/formats/qwen3_xml.hpp>
#include <toolstream/parse/formats/seed_oss.hpp>
#include <toolstream/parse/formats/sentinel.hpp>
#include <toolstream/parse/formats/step3.hpp>
#include <toolstream/parse/formats/step3p5.hpp>
#include <toolstream/parse/formats/xlam.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/parse/policies/auto_detect.hpp>
#include <toolstream/parse/policies/reasoning_parsers.hpp>
#include <toolstream/parse/policies/structured.hpp>
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/mistral.hpp>
#include <toolstream/providers/ollama.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/providers/openai_responses.hpp>

#include <array>
#include <cstddef>
#include <cstdlib>
#include <string_view>
#include <type_traits>
#include <utility>

namespace toolstream {

template<class... T>
struct type_list {
    static constexpr std::size_t size = sizeof...(T);
};

/// Provider tags, each with its `provider_converter` (whose `name` the CLI takes).
using registered_providers = type_list<openai_chat, openai_responses, anthropic, gemini, ollama, mistral>;

namespace detail {

// The text formats of a list of policies (text_format_policy types) whose traits' agent_syntax
// is `Agent`, in the list's order.
template<bool Agent, class Found, class... Rest>
struct text_formats_among {
    using type = Found;
};
template<bool Agent, class... Found, class P, class... Rest>
struct text_formats_among<Agent, type_list<Found...>, P, Rest...>
    : text_formats_among<Agent,
                         std::conditional_t<requires { requires P::traits_type::agent_syntax == Agent; },
                                            type_list<Found..., P>, type_list<Found...>>,
                         Rest...> {};

// auto_policy over the text formats of `List`: the models' formats, then the agents' syntaxes.
template<class List>
struct auto_over;
template<class... P>
struct auto_over<type_list<P...>> {
    template<class Models, class Agents>
    struct of;
    template<class... M, class... A>
    struct of<type_list<M...>, type_list<A...>> {
        using type = auto_policy<M..., A...>;
    };
    using type = typename of<typename text_formats_among<false, type_list<>, P...>::type,
                             typename text_formats_among<true, type_list<>, P...>::type>::type;
};

template<class List, class Last>
struct append;
template<class... P, class Last>
struct append<type_list<P...>, Last> {
    using type = type_list<P..., Last>;
};

} // namespace detail

/// The parser policies chosen by name, each with a static `name`. The first is the default.
using named_policies = type_list<api_tool_call, xml, json_calls, sentinel,
                                 hermes, qwen3_coder, glm45, minimax_m2, deepseek_v31, deepseek_v3, kimi_k2,
                                 mistral_calls, llama3_json, harmony, structured,
                                 seed_oss, deepseek_v32, longcat, ernie45, internlm, step3, qwen3_xml, deepseek_v4, deepseek_v41,
                                 gemma4, functiongemma, step3p5, hy_v3, poolside_v1, ling3, inkling,
                                 granite, granite_20b_fc, hunyuan_a13b, jamba, phi4_mini_json, xlam, minimax, apertus,
                                 pythonic, llama4_pythonic, olmo3, lfm2, gigachat3,
                                 cohere_command3, cohere_command4, kimi_k3>;

/// `auto`: finds which of the text formats among named_policies the text is written in, trying
/// them in that order, the models' formats before toolstream's own syntaxes (xml, json_calls,
/// sentinel: format_defaults::agent_syntax), as auto_policy reads them.
using auto_detect = detail::auto_over<named_policies>::type;

/// Every parser policy: the named ones, then `auto`.
using registered_policies = detail::append<named_policies, auto_detect>::type;

/// Other names a policy answers to: {alias, name}. A policy's registry name (its static `name`)
/// is its type's name (`auto` aside, a keyword: auto_detect's); any other name, vLLM's spelling
/// included, is an alias here, taken wherever a policy name is (runtime selection, the CLI, the
/// gateway). vLLM's unified parser names (reasoning and tool calls together) name the format of
/// their tool calls here; the reasoning parser of the same name is chosen apart (--reasoning-parser).
inline constexpr std::array<std::pair<std::string_view, std::string_view>, 12> policy_aliases{{
    {"passthrough", "api_tool_call"},
    {"json", "json_calls"},           // the short name; toolstream::json would clash with boost::json
    {"mistral", "mistral_calls"},     // vLLM; toolstream::mistral is the provider tag
    {"openai", "harmony"},            // vLLM: gpt-oss's harmony format
    {"granite-20b-fc", "granite_20b_fc"},   // vLLM's spelling
    {"glm47", "glm45"},               // vLLM: one parser class (Glm47MoeModelToolParser) for both names
    {"glm47_moe", "glm45"},           // the unified GLM-4.7 parser, the same calls
    {"qwen3", "qwen3_coder"},         // vLLM's unified Qwen3Parser reads qwen3_coder's calls
    {"llama4_json", "llama3_json"},   // vLLM registers one parser class under both names
    {"granite_thinking", "granite"},  // Granite with thinking: granite's calls, its reasoning apart
    {"nemotron_v3", "qwen3_coder"},   // Nemotron 3 writes Qwen3-Coder's XML calls
    {"cohere_command", "cohere_command3"},   // Command A / R7B; Command A Reasoning is cohere_command4
}};

namespace detail {

template<class List>
struct names_of;
template<class... P>
struct names_of<type_list<P...>> {
    static constexpr std::array<std::string_view, sizeof...(P)> policies{P::name...};
    static constexpr std::array<std::string_view, sizeof...(P)> providers{provider_converter<P>::name...};
    static constexpr std::array<framing, sizeof...(P)> framings{provider_converter<P>::wire_framing...};
};

/// Index of `name` in `names`, or names.size().
template<std::size_t N>
constexpr std::size_t index_of(const std::array<std::string_view, N>& names, std::string_view name) noexcept
{
    std::size_t i = 0;
    while (i < N && names[i] != name)
        ++i;
    return i;
}

} // namespace detail

inline constexpr auto policy_names = detail::names_of<registered_policies>::policies;
inline constexpr auto provider_names = detail::names_of<registered_providers>::providers;
inline constexpr auto provider_framings = detail::names_of<registered_providers>::framings;

/// The registered policy name `name` stands for (itself, or what an alias names); empty if none.
constexpr std::string_view canonical_policy_name(std::string_view name) noexcept
{
    for (const auto& [alias, target] : policy_aliases)
        if (alias == name)
            return target;
    return detail::index_of(policy_names, name) < policy_names.size() ? name : std::string_view{};
}

/// What a parser name and a reasoning parser's name stand for: `known` is false when `parser` is
/// no policy's name or alias (`policy` is then empty), or `reasoning_parser` is neither empty nor
/// a reasoning parser's name; `reasoning` is null when none is named.
struct parser_names {
    std::string_view policy;
    const reasoning_syntax* reasoning = nullptr;
    bool known = false;
};

constexpr parser_names find_parser_names(std::string_view parser, std::string_view reasoning_parser = {}) noexcept
{
    parser_names found{canonical_policy_name(parser), nullptr, false};
    found.reasoning = reasoning_parser.empty() ? nullptr : find_reasoning_parser(reasoning_parser);
    found.known = !found.policy.empty() && (reasoning_parser.empty() || found.reasoning != nullptr);
    return found;
}

/// Whether make_policy(parser, reasoning_parser) would succeed, without building a policy.
constexpr bool known_parser_names(std::string_view parser, std::string_view reasoning_parser = {}) noexcept
{
    return find_parser_names(parser, reasoning_parser).known;
}

/// The environment variable TOOLSTREAM_STREAM_PARSER when it names a policy, else
/// "api_tool_call" (as AutoByteus treats AUTOBYTEUS_STREAM_PARSER). The view is static.
inline std::string_view default_policy_name()
{
    const char* env = std::getenv("TOOLSTREAM_STREAM_PARSER");
    if (env != nullptr)
        if (auto name = canonical_policy_name(env); !name.empty())
            return name;
    return policy_names[0];
}

} // namespace toolstream
