// Choosing the provider and the parser policy at run time, by name. The pipelines behind the names
// (every provider and every policy) are compiled once per program, in the translation unit that
// includes <toolstream/runtime/runtime_pipeline_src.hpp>, whatever sinks the program uses.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/error.hpp>
#include <toolstream/parse/raw_parameters.hpp>
#include <toolstream/pipeline/pipeline_options.hpp>
#include <toolstream/runtime/detail/erased_sink.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/stream_summary.hpp>
#include <toolstream/transport/wire_event.hpp>

#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream {

/// The provider name runtime_pipeline::create() takes for plain model text (text_pipeline).
inline constexpr std::string_view text_provider_name = "text";

/// The format `auto` would choose reading `text`, when it reads a complete call there (else
/// empty): a call that another policy left in its text. auto_detect::format_in, compiled with the
/// run-time path rather than in each TU that asks.
std::string_view format_of_calls_in(std::string_view text);

namespace detail {

/// The run-time path, compiled once: a std::variant of pipeline<P, runtime_policy, erased_sink>
/// over the registered providers and plain text, each driving a runtime_policy (a std::variant of
/// the registered policies). Its members are defined in runtime_pipeline_src.hpp, not here, so
/// that no translation unit but that one compiles a policy for it.
class erased_pipeline {
public:
    /// See runtime_pipeline::create().
    static result<erased_pipeline> create(std::string_view provider, std::string_view parser, erased_sink sink,
                                          pipeline_options options, std::string_view reasoning_parser,
                                          std::shared_ptr<const tool_schemas> schemas,
                                          std::optional<bool> thinking_open);

    erased_pipeline(erased_pipeline&&) noexcept;
    erased_pipeline& operator=(erased_pipeline&&) noexcept;
    ~erased_pipeline();

    error_code write(std::string_view bytes);
    error_code finish();
    stream_summary summary() const;
    std::vector<std::string_view> formats();
    std::string_view provider_name() const noexcept;
    framing wire_framing() const noexcept;

private:
    struct state;
    explicit erased_pipeline(std::unique_ptr<state> s) noexcept;

    std::unique_ptr<state> state_;
};

} // namespace detail

/// A pipeline whose provider and policy are named at run time, delivering to `Sink`. What it runs
/// is one of the compile-time pipelines (pipeline<P, runtime_policy, …>, text_pipeline), chosen
/// by name; the choice adds one dispatch per write(), and the sink is reached through one call
/// through a table per event. Link the run-time path once: CMake's toolstream::runtime target,
/// or `#include <toolstream/runtime/runtime_pipeline_src.hpp>` in one .cpp of the program.
template<event_sink Sink = recording_sink>
class runtime_pipeline {
public:
    /// A registered provider and policy by name (registry.hpp), or "text" (text_provider_name)
    /// for plain model text through the policy (text_pipeline); error::unknown_provider or
    /// error::unknown_parser for names nobody has.
    /// `reasoning_parser` names a reasoning parser in front of the policy (empty: none);
    /// `schemas` go to the policy's options, `thinking_open` to the reasoning parser (make_policy).
    static result<std::unique_ptr<runtime_pipeline>> create(std::string_view provider, std::string_view parser,
                                                            Sink sink = {}, pipeline_options options = {},
                                                            std::string_view reasoning_parser = {},
                                                            std::shared_ptr<const tool_schemas> schemas = nullptr,
                                                            std::optional<bool> thinking_open = {})
    {
        // Made first, so that the erased sink refers to the sink's place for good.
        std::unique_ptr<runtime_pipeline> made(new runtime_pipeline(std::move(sink)));
        auto running = detail::erased_pipeline::create(provider, parser, detail::erased_sink(made->sink_),
                                                       std::move(options), reasoning_parser, std::move(schemas),
                                                       thinking_open);
        if (!running)
            return running.error();
        made->running_.emplace(std::move(*running));
        return made;
    }

    runtime_pipeline(const runtime_pipeline&) = delete;
    runtime_pipeline& operator=(const runtime_pipeline&) = delete;

    error_code write(std::string_view bytes) { return running_->write(bytes); }
    error_code finish() { return running_->finish(); }
    stream_summary summary() const { return running_->summary(); }
    Sink& sink() noexcept { return sink_; }
    /// The format each choice's text was read in (runtime_policy::format()), by choice index.
    std::vector<std::string_view> formats() { return running_->formats(); }
    std::string_view provider_name() const noexcept { return running_->provider_name(); }
    /// framing::text for plain text.
    framing wire_framing() const noexcept { return running_->wire_framing(); }

private:
    explicit runtime_pipeline(Sink sink) : sink_(std::move(sink)) {}

    Sink sink_;
    std::optional<detail::erased_pipeline> running_;
};

} // namespace toolstream
