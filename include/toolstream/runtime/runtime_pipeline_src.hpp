// The run-time path's one translation unit: include this file in ONE .cpp of a program (never in
// a header), as Boost.JSON's src.hpp is included. It compiles the pipelines of every registered
// provider and policy once, for every runtime_pipeline<Sink> of the program (runtime_pipeline.hpp
// declares them). CMake's toolstream::runtime target is this file, compiled.
//
// With TOOLSTREAM_SEPARATE_RUNTIME defined in every TU of the program, it also holds
// handler<runtime_policy, recording_sink>, which runtime_policy.hpp then only declares.
#pragma once

#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/pipeline/text_pipeline.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/runtime/runtime_pipeline.hpp>
#include <toolstream/runtime/runtime_policy.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <variant>

namespace toolstream {

std::string_view format_of_calls_in(std::string_view text)
{
    return auto_detect::format_in(text);
}

namespace detail {

// Every pipeline's handler sees the erased sink through choice_sink, which must say so: the
// handlers then write through segment_emitter<event_target>, as auto's trials do, and each policy
// is compiled once here rather than once per emitter type.
static_assert(erases_event_types<choice_sink<erased_sink>>);

template<class List>
struct erased_pipelines_of;
template<class... P>
struct erased_pipelines_of<type_list<P...>> {
    // The registered providers in order, then plain text (text_pipeline.hpp).
    using type = std::variant<pipeline<P, runtime_policy, erased_sink>..., text_pipeline<runtime_policy, erased_sink>>;
};

struct erased_pipeline::state {
    using variant_type = erased_pipelines_of<registered_providers>::type;
    static constexpr std::size_t text_index = provider_names.size();

    // What make_policy() builds each choice's policy from.
    struct policy_request {
        std::string parser;
        std::string reasoning;
        std::shared_ptr<const tool_schemas> schemas;
        std::optional<bool> thinking_open;
    };

    template<std::size_t I>
    state(std::in_place_index_t<I> which, const policy_request& request, erased_sink sink, pipeline_options options)
        : pipeline(which, sink, std::move(options),
                   [request] { return make_policy(request.parser, request.reasoning, request.schemas, request.thinking_open).value(); })
    {
    }

    template<std::size_t... I>
    static std::unique_ptr<state> make(std::string_view provider, const policy_request& request, erased_sink sink,
                                       pipeline_options& options, std::index_sequence<I...>)
    {
        std::unique_ptr<state> made;
        ((provider == provider_names[I] ? void(made = std::make_unique<state>(std::in_place_index<I>, request, sink, std::move(options)))
                                        : void()),
         ...);
        if (provider == text_provider_name)
            made = std::make_unique<state>(std::in_place_index<text_index>, request, sink, std::move(options));
        return made;
    }

    bool is_text() const noexcept { return pipeline.index() == text_index; }

    variant_type pipeline;
};

result<erased_pipeline> erased_pipeline::create(std::string_view provider, std::string_view parser, erased_sink sink,
                                                pipeline_options options, std::string_view reasoning_parser,
                                                std::shared_ptr<const tool_schemas> schemas,
                                                std::optional<bool> thinking_open)
{
    if (!known_parser_names(parser, reasoning_parser))
        return make_error_code(error::unknown_parser);
    const state::policy_request request{std::string(parser), std::string(reasoning_parser), std::move(schemas),
                                        thinking_open};
    auto made = state::make(provider, request, sink, options, std::make_index_sequence<provider_names.size()>{});
    if (!made)
        return make_error_code(error::unknown_provider);
    return erased_pipeline(std::move(made));
}

erased_pipeline::erased_pipeline(std::unique_ptr<state> s) noexcept : state_(std::move(s)) {}
erased_pipeline::erased_pipeline(erased_pipeline&&) noexcept = default;
erased_pipeline& erased_pipeline::operator=(erased_pipeline&&) noexcept = default;
erased_pipeline::~erased_pipeline() = default;

error_code erased_pipeline::write(std::string_view bytes)
{
    return std::visit([&](auto& p) { return p.write(bytes); }, state_->pipeline);
}

error_code erased_pipeline::finish()
{
    return std::visit([](auto& p) { return p.finish(); }, state_->pipeline);
}

stream_summary erased_pipeline::summary() const
{
    return std::visit([](const auto& p) { return p.summary(); }, state_->pipeline);
}

std::vector<std::string_view> erased_pipeline::formats()
{
    return std::visit(
        [](auto& p) {
            std::vector<std::string_view> out;
            for (std::size_t i = 0; i < p.choice_count(); ++i)
                out.push_back(p.choice(i).policy().format());
            return out;
        },
        state_->pipeline);
}

std::string_view erased_pipeline::provider_name() const noexcept
{
    return state_->is_text() ? text_provider_name : provider_names[state_->pipeline.index()];
}

framing erased_pipeline::wire_framing() const noexcept
{
    return state_->is_text() ? framing::text : provider_framings[state_->pipeline.index()];
}

} // namespace detail

} // namespace toolstream

#if defined(TOOLSTREAM_SEPARATE_RUNTIME)
template class ::toolstream::handler<::toolstream::runtime_policy, ::toolstream::recording_sink>;
#endif
