#!/usr/bin/env bash
# Builds everything in Debug with ASan+UBSan and runs the whole suite through ctest.
# Recorded provider streams are read from TOOLSTREAM_FIXTURES_DIR (default ../shared/fixtures).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" cmake make g++ libboost-json1.81-dev catch2
build="${TOOLSTREAM_BUILD_DIR:-$root/build/test}"
fixtures="${TOOLSTREAM_FIXTURES_DIR:-}"
if [ -z "$fixtures" ] && [ -d "$root/../shared/fixtures" ]; then
    fixtures=$(cd "$root/../shared/fixtures" && pwd)
fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DTOOLSTREAM_SANITIZE=ON \
      -DTOOLSTREAM_FIXTURES_DIR="$fixtures" >/dev/null
cmake --build "$build" -j "$(nproc)"
cd "$build"
ctest --output-on-failure -j "$(nproc)"
