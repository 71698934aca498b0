// The TU to which runtime.cpp, compiled with TOOLSTREAM_SEPARATE_RUNTIME, leaves its pipeline: a
// program compiles it once, however many of its TUs use the pipeline.
#include "stdout_bytes.hpp"

#include <toolstream/runtime/runtime_pipeline.hpp>

TOOLSTREAM_INSTANTIATE_RUNTIME_PIPELINE(stdout_sse);
