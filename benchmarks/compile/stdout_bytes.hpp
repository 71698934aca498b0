// The byte output of compile_time.sh's runtime TUs: named in a header, as a program's own sink
// type is, so that runtime.cpp and runtime_object.cpp name the same runtime_pipeline.
#pragma once

#include <toolstream/writers/openai_sse.hpp>

#include <cstdio>
#include <string_view>

struct stdout_bytes {
    void operator()(std::string_view b) const { std::fwrite(b.data(), 1, b.size(), stdout); }
};
using stdout_sse = toolstream::openai_sse_writer<stdout_bytes>;
