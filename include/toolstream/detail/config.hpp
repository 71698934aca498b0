// How the library's compiled-once functions are declared. By default every function is defined
// inline in its header: the library is header-only. With TOOLSTREAM_SEPARATE_COMPILATION defined
// in every TU of a program, the functions marked TOOLSTREAM_DECL (internals that are not
// templates and are off the per-byte path: the whole-value JSON parses, two of them Boost.JSON
// parser instantiations of their own, and the compact JSON writer) are only declared there, and
// one TU of the program defines them by including <toolstream/src.hpp>. CMake's
// toolstream::toolstream target does both.
#pragma once

#if defined(TOOLSTREAM_SEPARATE_COMPILATION)
#define TOOLSTREAM_DECL
#else
#define TOOLSTREAM_DECL inline
#endif
