// toolset: described structs as tools. One declaration gives every provider's tool definitions,
// the schemas that type raw-text parameters, and the dispatch of complete calls to typed handlers.
//
//   auto tools = toolstream::toolset{
//       toolstream::tool<write_file_args>("write_file", "Write a file to the workspace"),
//       toolstream::tool<search_args>("search", "Search the web"),
//   };
//   tools.openai_chat();   tools.anthropic();   tools.gemini();
//   tools.dispatch(invocation, toolstream::overloaded{[](const write_file_args&) {…}, …});
#pragma once

#include <toolstream/parse/raw_parameters.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/tools/arguments.hpp>
#include <toolstream/tools/detail/gemini_schema.hpp>
#include <toolstream/tools/json_schema.hpp>

#include <boost/describe/enum.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/mp11/utility.hpp>

#include <concepts>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace toolstream {

/// One tool: a name, a description, and the described struct of its arguments.
template<described_struct Args>
struct tool {
    using arguments_type = Args;

    std::string name;
    std::string description;

    explicit tool(std::string tool_name, std::string tool_description = {})
        : name(std::move(tool_name)), description(std::move(tool_description))
    {
    }
};

/// The usual overload-set helper: `overloaded{[](const a&) {…}, [](const b&) {…}}`.
template<class... F>
struct overloaded : F... {
    using F::operator()...;
};
template<class... F>
overloaded(F...) -> overloaded<F...>;

/// What dispatch() did with an invocation. Handlers run only for `handled`.
enum class dispatch_status {
    handled,        ///< The arguments converted and the handler ran.
    unknown_tool,   ///< No tool of the set has the invocation's name.
    not_complete,   ///< The call is incomplete or its arguments are malformed (see the error).
    bad_arguments,  ///< The arguments do not convert to the tool's struct (see the error's path).
};
BOOST_DESCRIBE_ENUM(dispatch_status, handled, unknown_tool, not_complete, bad_arguments)

struct dispatch_outcome {
    dispatch_status status = dispatch_status::unknown_tool;
    argument_error error;   ///< Why not `handled`; empty when handled.

    explicit operator bool() const noexcept { return status == dispatch_status::handled; }
};

/// The outcome, plus the handler's return value when the handlers return one (see toolset).
template<class R = void>
struct dispatch_result : dispatch_outcome {
    std::optional<R> value;
};
template<>
struct dispatch_result<void> : dispatch_outcome {};

/// A handler set `H` takes the arguments `A` of a tool, with or without the invocation after them.
template<class H, class A>
concept handles_arguments = std::invocable<H&, A&&, const tool_invocation&> || std::invocable<H&, A&&>;

namespace detail {

template<class H, class A>
decltype(auto) call_handler(H& handlers, A&& arguments, const tool_invocation& invocation)
{
    if constexpr (std::invocable<H&, A&&, const tool_invocation&>)
        return std::invoke(handlers, std::forward<A>(arguments), invocation);
    else
        return std::invoke(handlers, std::forward<A>(arguments));
}

template<class H, class A>
using handler_result_t = decltype(call_handler(std::declval<H&>(), std::declval<A&&>(), std::declval<const tool_invocation&>()));

struct ignore_dispatch_result {
    template<class Result>
    void operator()(const tool_invocation&, const Result&) const noexcept
    {
    }
};

} // namespace detail

/// Options of the OpenAI definitions.
struct openai_options {
    /// Strict mode (`"strict":true` and the strict schema) for every tool whose schema allows
    /// it; a tool with a map member cannot be strict and keeps the plain schema, `strict` false.
    bool strict = false;
};

template<class Toolset, class Handlers, class OnResult>
class dispatching_sink;

/// A fixed set of tools, each a tool<Args>. Duplicate names: the first one wins.
template<described_struct... Args>
class toolset {
public:
    /// The handlers' common return type, or void (every handler returns void, or they disagree).
    template<class Handlers>
    using result_of = boost::mp11::mp_eval_or<void, std::common_type_t, detail::handler_result_t<Handlers, Args>...>;

    explicit toolset(tool<Args>... tools) : tools_(std::move(tools)...) {}

    static constexpr std::size_t size() noexcept { return sizeof...(Args); }

    bool contains(std::string_view name) const noexcept
    {
        bool found = false;
        for_each_tool([&](const auto& t) { found = found || t.name == name; });
        return found;
    }

    /// Chat Completions `tools`: `{"type":"function","function":{"name","description","parameters"[,"strict":true]}}`.
    boost::json::array openai_chat(const openai_options& options = {}) const
    {
        boost::json::array out;
        for_each_tool([&](const auto& t) {
            auto [parameters, strict] = openai_parameters(t, options);
            boost::json::object function{{"name", t.name}, {"description", t.description}, {"parameters", std::move(parameters)}};
            if (strict)
                function["strict"] = true;
            out.push_back(boost::json::object{{"type", "function"}, {"function", std::move(function)}});
        });
        return out;
    }

    /// Responses `tools`: `{"type":"function","name","description","parameters","strict"}`; the
    /// API defaults `strict` to true, so it is always written.
    boost::json::array openai_responses(const openai_options& options = {}) const
    {
        boost::json::array out;
        for_each_tool([&](const auto& t) {
            auto [parameters, strict] = openai_parameters(t, options);
            out.push_back(boost::json::object{{"type", "function"}, {"name", t.name}, {"description", t.description},
                                              {"parameters", std::move(parameters)}, {"strict", strict}});
        });
        return out;
    }

    /// Messages `tools`: `{"name","description","input_schema"}`.
    boost::json::array anthropic() const
    {
        boost::json::array out;
        for_each_tool([&](const auto& t) {
            using A = typename std::remove_cvref_t<decltype(t)>::arguments_type;
            out.push_back(boost::json::object{{"name", t.name}, {"description", t.description}, {"input_schema", json_schema<A>()}});
        });
        return out;
    }

    /// One Gemini `tools` entry: `{"functionDeclarations":[{"name","description","parameters"}]}`.
    /// A tool without members has no `parameters`; one that Gemini's OpenAPI subset cannot
    /// express (a map member, or an object without members) gets `parametersJsonSchema`.
    boost::json::object gemini() const
    {
        boost::json::array declarations;
        for_each_tool([&](const auto& t) {
            using A = typename std::remove_cvref_t<decltype(t)>::arguments_type;
            boost::json::object declaration{{"name", t.name}, {"description", t.description}};
            boost::json::object schema = json_schema<A>();
            // Without members `parameters` stays unset, as Gemini's docs ask.
            if (!schema.at("properties").get_object().empty()) {
                if (detail::gemini_expressible(schema))
                    declaration["parameters"] = detail::to_gemini_schema(schema);
                else
                    declaration["parametersJsonSchema"] = std::move(schema);
            }
            declarations.push_back(std::move(declaration));
        });
        return boost::json::object{{"functionDeclarations", std::move(declarations)}};
    }

    /// The parameters schema of every tool, for the key/value text formats.
    tool_schemas schemas() const
    {
        tool_schemas out;
        for_each_tool([&](const auto& t) {
            using A = typename std::remove_cvref_t<decltype(t)>::arguments_type;
            out.add(t.name, json_schema<A>());
        });
        return out;
    }

    /// Runs the handler for the invocation's tool with its converted arguments, or says why not
    /// (unknown name, incomplete call, arguments that do not convert) without running any.
    /// `handlers` must take every tool's struct (handles_arguments); the result's `value` holds
    /// what the handler returned when result_of<Handlers> is not void.
    template<class Handlers>
    dispatch_result<result_of<std::remove_reference_t<Handlers>>> dispatch(const tool_invocation& invocation,
                                                                          Handlers&& handlers) const
    {
        using H = std::remove_reference_t<Handlers>;
        static_assert((handles_arguments<H, Args> && ...),
                      "toolstream::toolset::dispatch: the handlers need an overload for every tool's arguments type");
        dispatch_result<result_of<H>> result;
        result.error.message = "unknown tool: " + invocation.name;
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (void)((std::get<I>(tools_).name == invocation.name && (run(std::get<I>(tools_), invocation, handlers, result), true)) || ...);
        }(std::index_sequence_for<Args...>{});
        return result;
    }

    /// A sink (invocation_sink) that dispatches each invocation the moment the handler delivers
    /// it, i.e. right after the END of its call, and passes `(invocation, result)` to `on_result`.
    /// It refers to this toolset, which must outlive it.
    template<class Handlers, class OnResult = detail::ignore_dispatch_result>
    dispatching_sink<toolset, Handlers, OnResult> sink(Handlers handlers, OnResult on_result = {}) const
    {
        return {*this, std::move(handlers), std::move(on_result)};
    }

private:
    template<class F>
    void for_each_tool(F&& f) const
    {
        std::apply([&](const auto&... t) { (f(t), ...); }, tools_);
    }

    template<class A>
    static std::pair<boost::json::object, bool> openai_parameters(const tool<A>&, const openai_options& options)
    {
        if (options.strict) {
            boost::json::object strict = json_schema<A>({.strict = true});
            if (strict_capable(strict))
                return {std::move(strict), true};
        }
        return {json_schema<A>(), false};
    }

    template<class A, class H, class R>
    static void run(const tool<A>&, const tool_invocation& invocation, H& handlers, dispatch_result<R>& result)
    {
        auto arguments = arguments_as<A>(invocation);
        if (!arguments) {
            result.status = invocation.is_complete() ? dispatch_status::bad_arguments : dispatch_status::not_complete;
            result.error = std::move(arguments.error());
            return;
        }
        result.status = dispatch_status::handled;
        result.error = {};
        if constexpr (std::is_void_v<R>)
            detail::call_handler(handlers, std::move(*arguments), invocation);
        else
            result.value.emplace(detail::call_handler(handlers, std::move(*arguments), invocation));
    }

    std::tuple<tool<Args>...> tools_;
};

/// Dispatches every invocation it receives through a toolset (see toolset::sink()).
template<class Toolset, class Handlers, class OnResult>
class dispatching_sink {
public:
    dispatching_sink(const Toolset& tools, Handlers handlers, OnResult on_result)
        : tools_(&tools), handlers_(std::move(handlers)), on_result_(std::move(on_result))
    {
    }

    void operator()(const tool_invocation& invocation)
    {
        const auto result = tools_->dispatch(invocation, handlers_);
        std::invoke(on_result_, invocation, result);
    }

    Handlers& handlers() noexcept { return handlers_; }
    OnResult& on_result() noexcept { return on_result_; }

private:
    const Toolset* tools_;
    Handlers handlers_;
    OnResult on_result_;
};

} // namespace toolstream
