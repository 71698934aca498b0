// benchmarks/compile_time.sh's runtime TU: the umbrella header and a runtime_pipeline (provider
// and policy named at run time) writing OpenAI Chat Completions SSE to stdout.
// (stdout_bytes has external linkage: an explicit instantiation names it from another TU.)
#include <toolstream.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>

struct stdout_bytes {
    void operator()(std::string_view b) const { std::fwrite(b.data(), 1, b.size(), stdout); }
};

// compile_time.sh compiles this TU twice: as it is (header-only), and with
// TOOLSTREAM_SEPARATE_RUNTIME, as a program that instantiates its pipeline in another TU.
#if defined(TOOLSTREAM_SEPARATE_RUNTIME)
TOOLSTREAM_EXTERN_RUNTIME_PIPELINE(toolstream::openai_sse_writer<stdout_bytes>);
#endif

int main(int argc, char** argv)
{
    using sink = toolstream::openai_sse_writer<stdout_bytes>;
    auto made = toolstream::runtime_pipeline<sink>::create(argc > 1 ? argv[1] : "openai_chat",
                                                           argc > 2 ? argv[2] : "api_tool_call", sink{stdout_bytes{}});
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
