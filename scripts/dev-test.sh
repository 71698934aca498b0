#!/usr/bin/env bash
# Quick inner loop for one area: compiles the given test files alone with Catch2's main and runs them.
#   scripts/dev-test.sh tests/transport/test_sse.cpp [more files] [-- catch2 args]
# Set SAN=1 for ASan+UBSan. The full suite still goes through CMake/ctest.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
files=(); args=()
while [ $# -gt 0 ]; do
    if [ "$1" = "--" ]; then shift; args=("$@"); break; fi
    files+=("$1"); shift
done
out=$(mktemp -d)/t
flags=(-std=c++20 -O1 -g -Wall -Wextra -Wpedantic -Werror -I"$here/include" -I"$here/tests"
       -DTOOLSTREAM_TEST_DATA_DIR="\"$here/tests/data\"")
[ "${SAN:-0}" = 1 ] && flags+=(-fsanitize=address,undefined -fno-sanitize-recover=all)
g++ "${flags[@]}" "${files[@]}" -o "$out" /usr/lib/libCatch2WithMain.a -lboost_json
TOOLSTREAM_FIXTURES_DIR="${TOOLSTREAM_FIXTURES_DIR:-$(cd "$here/.." && pwd)/shared/fixtures}" "$out" "${args[@]}"
