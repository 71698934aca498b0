#!/usr/bin/env bash
# Compile time of one translation unit holding one full pipeline: the README's usage example
# (examples/usage.cpp: openai_chat + api_tool_call + callback_sink), compiled to an object file.
# --tu picks another TU, e.g. examples/typed_tools.cpp (the same pipeline plus typed tools).
#
#   benchmarks/compile_time.sh [--json] [--runs N] [--opt -O2] [--tu examples/usage.cpp]
#
# Prints the median wall and CPU (user+sys) seconds of N runs (default 3) and the size of the
# preprocessed TU. CPU time is the figure to read on a loaded machine: wall time includes waiting
# for a core. With --json, one JSON line instead.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=3
opt=-O2
json=0
tu_name=examples/usage.cpp
while [[ $# -gt 0 ]]; do
    case $1 in
        --json) json=1 ;;
        --runs) runs=$2; shift ;;
        --opt) opt=$2; shift ;;
        --tu) tu_name=$2; shift ;;
        *) echo "usage: $0 [--json] [--runs N] [--opt -O2] [--tu examples/usage.cpp]" >&2; exit 2 ;;
    esac
    shift
done

cxx=${CXX:-g++}
tu=$root/$tu_name
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c++20 "$opt" -I"$root/include" -c "$tu")

walls=()
cpus=()
TIMEFORMAT='%R %U %S'
for ((i = 0; i < runs; ++i)); do
    # `time` reports on stderr after the compiler's own stderr, so its line is the last one.
    line=$( { time "$cxx" "${flags[@]}" -o "$work/tu.o" 2>"$work/err"; } 2>&1 ) ||
        { cat "$work/err" >&2; echo "compile failed" >&2; exit 1; }
    read -r wall user sys <<< "$(tail -n 1 <<< "$line")"
    walls+=("$wall")
    cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')")
done

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
wall_s=$(median "${walls[@]}")
cpu_s=$(median "${cpus[@]}")
lines=$("$cxx" -std=c++20 -I"$root/include" -I"$work/cfg/include" -E "$tu" | wc -l)
compiler=$("$cxx" --version | head -n 1)
load=$(cut -d' ' -f1 /proc/loadavg)

if [[ $json == 1 ]]; then
    printf '{"tu":"%s","compiler":"%s","flags":"-std=c++20 %s -c","runs":%d,"wall_s":%s,"cpu_s":%s,"walls":[%s],"cpus":[%s],"preprocessed_lines":%d,"load1":%s}\n' \
        "$tu_name" "$compiler" "$opt" "$runs" "$wall_s" "$cpu_s" "$(IFS=,; echo "${walls[*]}")" "$(IFS=,; echo "${cpus[*]}")" \
        "$lines" "$load"
else
    echo "$tu_name ($compiler, -std=c++20 $opt -c), median of $runs runs:"
    echo "  wall ${wall_s} s, CPU ${cpu_s} s; preprocessed: $lines lines; load average $load"
fi
