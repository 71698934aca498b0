#!/usr/bin/env bash
# Smoke test of the benchmark suite, for CI: builds the benchmarks (Release, own build directory)
# and runs every benchmark executable once for a minimal time, so that they cannot rot. Each
# benchmark checks its output; a failed check, a crash or a build error fails the script.
#
#   benchmarks/smoke.sh            # BUILD_DIR defaults to build-bench-smoke
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench-smoke}

# No debug information, and -O1: nothing here is timed or profiled, and -g adds two fifths to the
# build, -O3 instead of -O1 nearly doubles it.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTOOLSTREAM_BUILD_BENCHMARKS=ON \
      -DTOOLSTREAM_WARNINGS_AS_ERRORS=ON -DTOOLSTREAM_BUILD_TESTS=OFF -DTOOLSTREAM_BUILD_EXAMPLES=OFF \
      -DTOOLSTREAM_BENCHMARK_DEBUG_INFO=OFF -DTOOLSTREAM_BENCHMARK_OPTIMIZATION=-O1 >/dev/null
cmake --build "$build" --target toolstream_benchmarks -j "$(nproc)"

status=0
shopt -s nullglob
benches=("$build"/benchmarks/toolstream_bench_*)
[[ ${#benches[@]} -gt 0 ]] || { echo "smoke: no benchmark executables in $build/benchmarks" >&2; exit 1; }
for exe in "${benches[@]}"; do
    echo "== $(basename "$exe")"
    # A check that fails marks its benchmark with error_occurred; the JSON shows it.
    if ! out=$("$exe" --benchmark_min_time=0.01 --benchmark_format=json 2>"$build/smoke.err"); then
        cat "$build/smoke.err" >&2
        echo "smoke: $(basename "$exe") exited with an error" >&2
        status=1
        continue
    fi
    failed=$(grep -c '"error_occurred": true' <<< "$out" || true)
    ran=$(grep -c '"run_name"' <<< "$out" || true)
    if [[ $failed != 0 || $ran == 0 ]]; then
        grep -A1 '"error_occurred": true' <<< "$out" >&2 || true
        echo "smoke: $(basename "$exe"): $failed of $ran benchmarks failed" >&2
        status=1
    else
        echo "   $ran benchmarks ran"
    fi
done

echo "== toolstream_alloc_per_mb"
if ! "$build/benchmarks/toolstream_alloc_per_mb" >/dev/null 2>"$build/smoke.err"; then
    cat "$build/smoke.err" >&2
    echo "smoke: toolstream_alloc_per_mb failed" >&2
    status=1
fi
[[ $status == 0 ]] && echo "smoke: all benchmark executables ran"
exit $status
