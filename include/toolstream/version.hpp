// The version of toolstream: the single source. CMake's project(VERSION), the Conan recipe and the
// vcpkg manifests read it or are checked against it (scripts/check_packaging.py).
#pragma once

#define TOOLSTREAM_VERSION_MAJOR 0
#define TOOLSTREAM_VERSION_MINOR 1
#define TOOLSTREAM_VERSION_PATCH 0
#define TOOLSTREAM_VERSION_STRING "0.1.0"

/// One number for `#if` comparisons: major * 10000 + minor * 100 + patch ({fmt}'s FMT_VERSION scheme).
#define TOOLSTREAM_VERSION \
    (TOOLSTREAM_VERSION_MAJOR * 10000 + TOOLSTREAM_VERSION_MINOR * 100 + TOOLSTREAM_VERSION_PATCH)
