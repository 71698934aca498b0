// Consumer of an installed toolstream: Conan's test_package (CMakeDeps) and the ctest
// find_package_consumer (plain find_package) both build it. One OpenAI Chat stream, fed in 7-byte
// pieces, must give the write_file call whole; the header version must be the package's.
#include "consumer_checks.hpp"

#include <toolstream.hpp>
#include <toolstream/version.hpp>

#include <cstdio>
#include <string>
#include <string_view>

namespace {

constexpr std::string_view stream =
    R"(data: {"choices":[{"index":0,"delta":{"content":"Writing it."}}]})" "\n\n"
    R"(data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function",)"
    R"("function":{"name":"write_file","arguments":"{\"path\":\"a.txt\",\"con"}}]}}]})" "\n\n"
    R"(data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":)"
    R"("tent\":\"hi\\n\"}"}}]}}]})" "\n\n"
    R"(data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})" "\n\n"
    "data: [DONE]\n\n";

int fail(const char* what) { return consumer::fail("test_package", what); }

} // namespace

int main()
{
#ifdef TOOLSTREAM_EXPECTED_VERSION
    if (std::string_view(TOOLSTREAM_VERSION_STRING) != TOOLSTREAM_EXPECTED_VERSION)
        return fail("toolstream/version.hpp disagrees with the package version");
#endif
    toolstream::pipeline<toolstream::openai_chat> pipe;
    if (const char* error = consumer::feed_in_pieces(pipe, stream))
        return fail(error);

    const auto& calls = pipe.sink().invocations;
    if (calls.size() != 1 || !calls[0].is_complete() || calls[0].name != "write_file")
        return fail("expected one complete write_file call");
    if (calls[0].arguments.at("path") != "a.txt" || calls[0].arguments.at("content") != "hi\n")
        return fail("wrong write_file arguments");

    std::string body;
    for (const auto& e : pipe.sink().events)
        if (e.type == toolstream::segment_event_type::SEGMENT_CONTENT && e.segment_id == "call_1")
            body += e.delta;
    if (body != "hi\n")
        return fail("the streamed file body differs");

    std::printf("toolstream %s: test_package ok\n", TOOLSTREAM_VERSION_STRING);
    return 0;
}
