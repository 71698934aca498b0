// The run-time path's one translation unit: every registered provider and policy compiled once,
// for all the runtime_pipelines of the program that compiles this file (CMake's toolstream::runtime
// adds it to each target that links it). See README "Keeping compile times small".
#include <toolstream/runtime/runtime_pipeline_src.hpp>
