// The prebuilt runtime object: include this file in ONE .cpp of a program (never in a header),
// and define TOOLSTREAM_SEPARATE_RUNTIME in every TU of it. That .cpp then holds
// runtime_pipeline<recording_sink> and handler<runtime_policy, recording_sink>, all 47 policies
// and 6 providers compiled once; the other TUs only declare them (runtime_pipeline.hpp), as
// Boost.JSON's src.hpp does for its library. For a sink of your own, see
// TOOLSTREAM_INSTANTIATE_RUNTIME_PIPELINE (docs/compile_time.md).
#pragma once

#include <toolstream/handler/handler.hpp>
#include <toolstream/runtime/runtime_pipeline.hpp>
#include <toolstream/runtime/runtime_policy.hpp>
#include <toolstream/sinks.hpp>

TOOLSTREAM_INSTANTIATE_RUNTIME_PIPELINE(::toolstream::recording_sink);
template class ::toolstream::handler<::toolstream::runtime_policy, ::toolstream::recording_sink>;
