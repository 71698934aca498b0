// The library's compiled-once functions (detail/config.hpp), for a program whose every TU defines
// TOOLSTREAM_SEPARATE_COMPILATION: CMake's toolstream::toolstream target defines the macro and adds
// this file to each program that links it. Without CMake, include <toolstream/src.hpp> in one .cpp.
#include <toolstream/src.hpp>
