// Consumer of an installed toolstream's run-time path (toolstream::runtime: the provider and the
// parser chosen by name, compiled from the installed source). The ctest find_package_consumer
// builds and runs it; Conan's CMakeDeps has no such target, so Conan's test_package skips it.
#include "consumer_checks.hpp"

#include <toolstream/runtime/runtime_pipeline.hpp>
#include <toolstream/sinks.hpp>

#include <cstdio>
#include <string_view>

namespace {

constexpr std::string_view stream =
    R"(data: {"choices":[{"index":0,"delta":{"content":"<tool_call>{\"name\": \"get_weather\", )"
    R"(\"arguments\": {\"city\": \"Paris\"}}</tool_call>"}}]})" "\n\n"
    R"(data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})" "\n\n"
    "data: [DONE]\n\n";

int fail(const char* what) { return consumer::fail("test_package_runtime", what); }

} // namespace

int main()
{
    auto made = toolstream::runtime_pipeline<>::create("openai_chat", "hermes");
    if (!made)
        return fail("create() failed for openai_chat and hermes");
    auto& pipe = **made;
    if (const char* error = consumer::feed_in_pieces(pipe, stream))
        return fail(error);

    const auto& calls = pipe.sink().invocations;
    if (calls.size() != 1 || !calls[0].is_complete() || calls[0].name != "get_weather"
        || calls[0].arguments.at("city") != "Paris")
        return fail("expected one complete get_weather call for Paris");
    if (!toolstream::runtime_pipeline<>::create("openai_chat", "no_such_parser").has_error())
        return fail("an unknown parser was accepted");

    std::printf("toolstream runtime: test_package_runtime ok\n");
    return 0;
}
