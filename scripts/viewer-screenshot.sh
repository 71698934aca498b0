#!/usr/bin/env bash
# Regenerates docs/viewer.png: the browser test's paced replay, in Debian's headless chromium.
#   scripts/viewer-screenshot.sh [BUILD_DIR]      (default build/dev; needs node, npm, chromium)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/dev}
if [ ! -x "$build/programs/replay/toolstream-replay" ]; then
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" --target toolstream-replay -j "$(nproc)" >/dev/null
fi
cd "$root/tests/viewer"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
node browser_test.mjs --replay "$build/programs/replay/toolstream-replay" --screenshot "$root/docs/viewer.png" --skip-frames
