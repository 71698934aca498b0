// Choosing the provider and the parser policy at run time, by name, through std::variant.
#pragma once

#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/pipeline/text_pipeline.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/runtime/runtime_policy.hpp>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace toolstream {

namespace detail {
template<class List, class Sink>
struct pipeline_variant_of;
template<class... P, class Sink>
struct pipeline_variant_of<type_list<P...>, Sink> {
    // The registered providers in order, then plain text (text_pipeline.hpp).
    using type = std::variant<pipeline<P, runtime_policy, Sink>..., text_pipeline<runtime_policy, Sink>>;
};
} // namespace detail

/// A pipeline whose provider and policy are named at run time. Each alternative is a fully
/// compile-time pipeline; the variant adds one dispatch per write(), none per event.
template<event_sink Sink = recording_sink>
class runtime_pipeline {
public:
    using variant_type = typename detail::pipeline_variant_of<registered_providers, Sink>::type;

    /// A registered provider and policy by name (see registry.hpp), or "text" (text_provider_name)
    /// for plain model text through the policy (text_pipeline); error::unknown_provider or
    /// error::unknown_parser for names nobody has.
    /// `reasoning_parser` names a reasoning parser in front of the policy (empty: none);
    /// `schemas` go to the policy's options, `thinking_open` to the reasoning parser (make_policy).
    static result<std::unique_ptr<runtime_pipeline>> create(std::string_view provider, std::string_view parser,
                                                            Sink sink = {}, pipeline_options options = {},
                                                            std::string_view reasoning_parser = {},
                                                            std::shared_ptr<const tool_schemas> schemas = nullptr,
                                                            std::optional<bool> thinking_open = {});

    ~runtime_pipeline();

    error_code write(std::string_view bytes);
    error_code finish();
    stream_summary summary() const;
    Sink& sink();
    /// The format each choice's text was read in (runtime_policy::format()), by choice index.
    std::vector<std::string_view> formats();
    std::string_view provider_name() const noexcept
    {
        return is_text() ? text_provider_name : provider_names[pipeline_.index()];
    }
    /// framing::text for plain text.
    framing wire_framing() const noexcept
    {
        return is_text() ? framing::text : provider_framings[pipeline_.index()];
    }

private:
    static constexpr std::size_t text_index = provider_names.size();
    bool is_text() const noexcept { return pipeline_.index() == text_index; }

    // What make_policy() builds each policy from.
    struct policy_request {
        std::string parser;
        std::string reasoning;
        std::shared_ptr<const tool_schemas> schemas;
        std::optional<bool> thinking_open;
    };

    template<std::size_t I>
    runtime_pipeline(std::in_place_index_t<I> which, const policy_request& request, Sink sink, pipeline_options options)
        : pipeline_(which, std::move(sink), std::move(options),
                    [request] { return make_policy(request.parser, request.reasoning, request.schemas, request.thinking_open).value(); })
    {
    }

    template<std::size_t... I>
    static result<std::unique_ptr<runtime_pipeline>> create_at(std::string_view provider, const policy_request& request,
                                                               Sink sink, pipeline_options options,
                                                               std::index_sequence<I...>)
    {
        std::unique_ptr<runtime_pipeline> made;
        ((provider == provider_names[I]
              ? void(made.reset(new runtime_pipeline(std::in_place_index<I>, request, std::move(sink), std::move(options))))
              : void()),
         ...);
        if (provider == text_provider_name)
            made.reset(new runtime_pipeline(std::in_place_index<text_index>, request, std::move(sink), std::move(options)));
        if (!made)
            return error::unknown_provider;
        return made;
    }

    variant_type pipeline_;
};

// The members that reach the pipelines are defined here, out of the class and not inline, so that
// an explicit instantiation declaration (TOOLSTREAM_EXTERN_RUNTIME_PIPELINE, below) keeps every
// policy's code out of the TUs that declare it: an inline member would still be instantiated
// there for the optimiser.

template<event_sink Sink>
auto runtime_pipeline<Sink>::create(std::string_view provider, std::string_view parser, Sink sink,
                                    pipeline_options options, std::string_view reasoning_parser,
                                    std::shared_ptr<const tool_schemas> schemas, std::optional<bool> thinking_open)
    -> result<std::unique_ptr<runtime_pipeline>>
{
    if (auto probe = make_policy(parser, reasoning_parser); !probe)
        return probe.error();
    const policy_request request{std::string(parser), std::string(reasoning_parser), std::move(schemas), thinking_open};
    return create_at(provider, request, std::move(sink), std::move(options),
                     std::make_index_sequence<provider_names.size()>{});
}

template<event_sink Sink>
runtime_pipeline<Sink>::~runtime_pipeline() = default;

template<event_sink Sink>
error_code runtime_pipeline<Sink>::write(std::string_view bytes)
{
    return std::visit([&](auto& p) { return p.write(bytes); }, pipeline_);
}

template<event_sink Sink>
error_code runtime_pipeline<Sink>::finish()
{
    return std::visit([](auto& p) { return p.finish(); }, pipeline_);
}

template<event_sink Sink>
stream_summary runtime_pipeline<Sink>::summary() const
{
    return std::visit([](const auto& p) { return p.summary(); }, pipeline_);
}

template<event_sink Sink>
std::vector<std::string_view> runtime_pipeline<Sink>::formats()
{
    return std::visit(
        [](auto& p) {
            std::vector<std::string_view> out;
            for (std::size_t i = 0; i < p.choice_count(); ++i)
                out.push_back(p.choice(i).policy().format());
            return out;
        },
        pipeline_);
}

template<event_sink Sink>
Sink& runtime_pipeline<Sink>::sink()
{
    return std::visit([](auto& p) -> Sink& { return p.sink(); }, pipeline_);
}

} // namespace toolstream

/// Compile a runtime_pipeline once, not in every TU that uses it (docs/compile_time.md):
/// `TOOLSTREAM_EXTERN_RUNTIME_PIPELINE(MySink);` where MySink is declared (a header of yours)
/// says another TU instantiates it; `TOOLSTREAM_INSTANTIATE_RUNTIME_PIPELINE(MySink);` in one
/// .cpp does. The TUs that only declare it compile none of the policies' code.
#define TOOLSTREAM_EXTERN_RUNTIME_PIPELINE(...) extern template class ::toolstream::runtime_pipeline<__VA_ARGS__>
#define TOOLSTREAM_INSTANTIATE_RUNTIME_PIPELINE(...) template class ::toolstream::runtime_pipeline<__VA_ARGS__>

// Opt-in: the program links the prebuilt runtime object (toolstream/runtime/runtime_pipeline_src.hpp
// compiled once) for the default sink: runtime_pipeline<> here, handler<runtime_policy> in
// runtime/runtime_policy.hpp.
#if defined(TOOLSTREAM_SEPARATE_RUNTIME)
TOOLSTREAM_EXTERN_RUNTIME_PIPELINE(::toolstream::recording_sink);
#endif
