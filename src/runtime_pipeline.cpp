// The prebuilt runtime object: compile this file once into a program whose other TUs define
// TOOLSTREAM_SEPARATE_RUNTIME (README "Keeping compile times small").
#include <toolstream/runtime/runtime_pipeline_src.hpp>
