#!/usr/bin/env bash
# Builds and runs the demo: a bundled write_file stream whose file appears as it streams.
#   scripts/demo.sh [--pace MS] [--json]
#   scripts/demo.sh --web [--pace MS] [--listen ADDR]   the same stream in the live viewer page
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" cmake make g++ libboost-json1.81-dev
build="$root/build/demo"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTOOLSTREAM_BUILD_TESTS=OFF >/dev/null
if [ "${1:-}" = "--web" ]; then
    shift
    cmake --build "$build" --target toolstream-replay -j "$(nproc)" >/dev/null
    echo "open the address below in a browser; the replay starts when the page connects (Ctrl-C to stop)"
    exec "$build/programs/replay/toolstream-replay" --serve --pace 15 "$@" --provider openai_chat \
        "$root/examples/data/write_file_demo.sse"
fi
cmake --build "$build" --target toolstream-demo -j "$(nproc)" >/dev/null
exec "$build/examples/toolstream-demo" "$@"
