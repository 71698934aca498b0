#!/usr/bin/env bash
# Builds and runs the demo: a bundled write_file stream whose file appears as it streams.
#   scripts/demo.sh [--pace MS] [--json]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" cmake make g++ libboost-json1.81-dev
build="$root/build/demo"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTOOLSTREAM_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target toolstream-demo -j "$(nproc)" >/dev/null
exec "$build/examples/toolstream-demo" "$@"
