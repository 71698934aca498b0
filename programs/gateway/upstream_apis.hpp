// The request dialects the gateway writes to an upstream, and which registered providers answer
// each: the providers the gateway serves are the registry's providers that have one here, so a
// provider added to the registry with an upstream_api_of is served with no other change.
#pragma once

#include <toolstream/runtime/registry.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace gateway {

/// A request body the gateway can write (upstream_request.hpp).
enum class upstream_api {
    chat_completions,   ///< the client's Chat Completions body as written, streaming
    ollama_chat,        ///< Ollama's /api/chat
};

/// How the gateway asks a registered provider's server: `api`, and whether it takes
/// `stream_options.include_usage` (the usage chunk, for the metrics and the client dialects that
/// report usage). No specialization: the gateway cannot serve the provider.
template<class Provider>
struct upstream_api_of {};
template<>
struct upstream_api_of<toolstream::openai_chat> {
    static constexpr upstream_api api = upstream_api::chat_completions;
    static constexpr bool asks_usage = true;
};
template<>
struct upstream_api_of<toolstream::mistral> {
    static constexpr upstream_api api = upstream_api::chat_completions;
    static constexpr bool asks_usage = false;   // Mistral's API refuses stream_options; it sends usage anyway
};
template<>
struct upstream_api_of<toolstream::ollama> {
    static constexpr upstream_api api = upstream_api::ollama_chat;
    static constexpr bool asks_usage = false;   // Ollama reports its counts in the last line
};

/// One served provider: its registry name and how it is asked.
struct upstream_provider {
    std::string_view name;
    upstream_api api;
    bool asks_usage;
};

namespace detail {

template<class P>
concept servable = requires {
    { upstream_api_of<P>::api } -> std::convertible_to<upstream_api>;
};

template<class List>
struct servable_providers;
template<class... P>
struct servable_providers<toolstream::type_list<P...>> {
    static constexpr std::size_t count = (std::size_t{servable<P>} + ...);
    static constexpr std::array<upstream_provider, count> list = [] {
        std::array<upstream_provider, count> out{};
        std::size_t i = 0;
        const auto add = [&]<class Q>(Q*) {
            if constexpr (servable<Q>)
                out[i++] = {toolstream::provider_converter<Q>::name, upstream_api_of<Q>::api, upstream_api_of<Q>::asks_usage};
        };
        (add(static_cast<P*>(nullptr)), ...);
        return out;
    }();
};

} // namespace detail

/// The registered providers the gateway serves, in the registry's order.
inline constexpr auto upstream_providers = detail::servable_providers<toolstream::registered_providers>::list;

/// Their names, for the options and the usage text.
inline constexpr auto gateway_providers = [] {
    std::array<std::string_view, upstream_providers.size()> names{};
    for (std::size_t i = 0; i < names.size(); ++i)
        names[i] = upstream_providers[i].name;
    return names;
}();

/// The served provider called `name`, if the gateway serves it.
constexpr std::optional<upstream_provider> upstream_provider_named(std::string_view name) noexcept
{
    for (const auto& p : upstream_providers)
        if (p.name == name)
            return p;
    return std::nullopt;
}

} // namespace gateway
