#!/usr/bin/env bash
# Builds everything with the dev preset (Debug, ASan+UBSan, -Werror) and Clang 16 and runs the whole
# suite through ctest. Clang, because it compiles the instrumented tests in less than half GCC 12's
# time; scripts/check-catch2-v3.sh builds and runs the suite with GCC 12 as well. Recorded provider
# streams are read from TOOLSTREAM_FIXTURES_DIR (default ../shared/fixtures); TOOLSTREAM_BUILD_DIR
# overrides the build directory (default build/test-clang16), CXX the compiler.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" cmake make clang-16 libclang-rt-16-dev llvm-16 lld libboost-json1.81-dev catch2
cxx=${CXX:-clang++-16}
# A sanitizer's report names functions and lines only through llvm-symbolizer (llvm-16).
export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-16/bin/llvm-symbolizer}
build="${TOOLSTREAM_BUILD_DIR:-$root/build/test-clang16}"
fixtures="${TOOLSTREAM_FIXTURES_DIR:-}"
if [ -z "$fixtures" ] && [ -d "$root/../shared/fixtures" ]; then
    fixtures=$(cd "$root/../shared/fixtures" && pwd)
fi
cd "$root"
# Line tables (-g1) are all the sanitizers' reports need, and build a fifth faster than -g. LLVM's
# linker links the instrumented test executable in 2.5 s instead of ld's 19.
cmake --preset dev -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DTOOLSTREAM_FIXTURES_DIR="$fixtures" -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
      -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld >/dev/null
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
