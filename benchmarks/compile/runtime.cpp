// benchmarks/compile_time.sh's runtime TU: the umbrella header and a runtime_pipeline (provider
// and policy named at run time) writing OpenAI Chat Completions SSE to stdout, as a program's
// natural TU is written. Its pipelines are compiled once per program, in runtime_object.cpp.
#include "stdout_bytes.hpp"

#include <toolstream.hpp>

#include <iostream>
#include <string>

int main(int argc, char** argv)
{
    auto made = toolstream::runtime_pipeline<stdout_sse>::create(argc > 1 ? argv[1] : "openai_chat",
                                                                 argc > 2 ? argv[2] : "api_tool_call",
                                                                 stdout_sse{stdout_bytes{}});
    if (!made) {
        std::cerr << made.error().message() << "\n";
        return 2;
    }
    auto& stream = **made;
    for (std::string line; std::getline(std::cin, line);)
        if (auto ec = stream.write(line + "\n"))
            std::cerr << ec.message() << "\n";
    (void)stream.finish();
    stream.sink().done();
}
