#!/usr/bin/env bash
# Builds everything with the dev preset (Debug, ASan+UBSan, -Werror) and runs the whole suite
# through ctest. Recorded provider streams are read from TOOLSTREAM_FIXTURES_DIR (default
# ../shared/fixtures); TOOLSTREAM_BUILD_DIR overrides the build directory (default build/test).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" cmake make g++ libboost-json1.81-dev catch2
build="${TOOLSTREAM_BUILD_DIR:-$root/build/test}"
fixtures="${TOOLSTREAM_FIXTURES_DIR:-}"
if [ -z "$fixtures" ] && [ -d "$root/../shared/fixtures" ]; then
    fixtures=$(cd "$root/../shared/fixtures" && pwd)
fi
cd "$root"
# Line tables (-g1) are all the sanitizers' reports need, and build a fifth faster than -g.
cmake --preset dev -B "$build" -DTOOLSTREAM_FIXTURES_DIR="$fixtures" -DCMAKE_CXX_FLAGS_DEBUG=-g1 >/dev/null
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
