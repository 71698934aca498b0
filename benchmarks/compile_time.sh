#!/usr/bin/env bash
# Compile time and compiler memory of toolstream TUs, each against a floor compiled in the same run:
#   floor             benchmarks/compile/floor.cpp: only Boost.JSON, a SAX handler and a DOM parse
#   usage             examples/usage.cpp: the README example (openai_chat + api_tool_call + callback_sink),
#                     as a CMake user builds it (TOOLSTREAM_SEPARATE_COMPILATION, the toolstream target's)
#   usage_header_only the same TU with no macro: every function of the library inline
#   compiled          the library's compiled-once functions (src/toolstream.cpp, which the toolstream
#                     target adds to a program): once per program, not a per-TU cost
#   runtime           benchmarks/compile/runtime.cpp: the umbrella and a runtime_pipeline writing
#                     OpenAI SSE, as written, no macro of its own (its pipelines are in runtime_object)
#   runtime_object    the run-time path's one TU (src/runtime_pipeline.cpp, CMake's toolstream::runtime):
#                     every provider and policy, compiled once per program (not a per-TU cost)
#   replay, gateway   the programs' own TUs (programs/replay/replay.cpp, programs/gateway/gateway.cpp);
#                     each program is its TUs and runtime_object
#   replay_serve      replay's other TU: --serve, the live viewer's server (programs/viewer/replay_serve.cpp)
#
#   benchmarks/compile_time.sh [--json] [--runs N] [--opt -O2] [--tus "floor usage runtime"]
#
# Each TU compiles to an object file N times (default 3), in turns; the median CPU time
# (user+sys), wall time and peak compiler memory (max RSS) of each, and its CPU ratio to the floor.
# CPU time is the figure to read on a loaded machine: wall time includes waiting for a core.
# With --json, one JSON line (flat keys: <tu>_cpu_s, <tu>_x_floor, <tu>_rss_mb...; read by
# benchmarks/run_comparison.sh).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=3
opt=-O2
json=0
while [[ $# -gt 0 ]]; do
    case $1 in
        --json) json=1 ;;
        --runs) runs=$2; shift ;;
        --opt) opt=$2; shift ;;
        --tus) read -r -a tus <<< "$2"; shift ;;   # a subset, e.g. for a tree without the macros
        *) echo "usage: $0 [--json] [--runs N] [--opt -O2] [--tus \"floor usage ...\"]" >&2; exit 2 ;;
    esac
    shift
done

cxx=${CXX:-g++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

names=("${tus[@]:-floor usage usage_header_only compiled runtime runtime_object replay replay_serve gateway}")
[[ ${#names[@]} == 1 ]] && read -r -a names <<< "${names[0]}"
declare -A source extra
source[floor]=benchmarks/compile/floor.cpp
source[usage]=examples/usage.cpp
source[usage_header_only]=examples/usage.cpp
source[compiled]=src/toolstream.cpp
source[runtime]=benchmarks/compile/runtime.cpp
source[runtime_object]=src/runtime_pipeline.cpp
source[replay]=programs/replay/replay.cpp
source[replay_serve]=programs/viewer/replay_serve.cpp
source[gateway]=programs/gateway/gateway.cpp
# The programs include the live viewer's page, which their build embeds as a header.
cmake -DIN="$root/programs/viewer/viewer.html" -DSCRIPT="$root/programs/viewer/viewer.js" \
      -DOUT="$work/viewer_page.hpp" -P "$root/programs/viewer/embed.cmake"
# What linking toolstream::toolstream defines (CMakeLists.txt, TOOLSTREAM_SEPARATE_COMPILATION ON).
cmake_target="-DTOOLSTREAM_SEPARATE_COMPILATION"
extra[floor]=""
extra[usage]=$cmake_target
extra[usage_header_only]=""
extra[compiled]=$cmake_target
extra[runtime]=$cmake_target
extra[runtime_object]=$cmake_target
extra[replay]="$cmake_target -I$root/programs/viewer -I$work"
extra[replay_serve]="$cmake_target -I$root/programs/viewer -I$work"
extra[gateway]="$cmake_target -I$root/programs/viewer -I$work"

declare -A cpus walls rsss
for ((i = 0; i < runs; ++i)); do
    for n in "${names[@]}"; do
        # shellcheck disable=SC2086
        /usr/bin/time -f '%e %U %S %M' -o "$work/time" \
            "$cxx" -std=c++20 "$opt" -I"$root/include" ${extra[$n]} -c "$root/${source[$n]}" -o "$work/tu.o" 2>"$work/err" ||
            { cat "$work/err" >&2; echo "compile of $n failed" >&2; exit 1; }
        read -r wall user sys rss_kb < <(tail -n 1 "$work/time")
        walls[$n]+="$wall "
        cpus[$n]+="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }') "
        rsss[$n]+="$(awk -v k="$rss_kb" 'BEGIN { printf "%.0f", k / 1024 }') "
    done
done

median() { printf '%s\n' $1 | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
compiler=$("$cxx" --version | head -n 1)
load=$(cut -d' ' -f1 /proc/loadavg)
floor_cpu=$(median "${cpus[floor]}")

out="{\"compiler\":\"$compiler\",\"flags\":\"-std=c++20 $opt -c\",\"runs\":$runs,\"load1\":$load"
text="$compiler, -std=c++20 $opt -c, median of $runs runs (load average $load):"
for n in "${names[@]}"; do
    cpu=$(median "${cpus[$n]}")
    wall=$(median "${walls[$n]}")
    rss=$(median "${rsss[$n]}")
    ratio=$(awk -v c="$cpu" -v f="$floor_cpu" 'BEGIN { printf "%.2f", c / f }')
    # shellcheck disable=SC2086
    lines=$("$cxx" -std=c++20 -I"$root/include" ${extra[$n]} -E "$root/${source[$n]}" | wc -l)
    out+=",\"${n}_tu\":\"${source[$n]}${extra[$n]:+ ${extra[$n]}}\",\"${n}_cpu_s\":$cpu,\"${n}_wall_s\":$wall"
    out+=",\"${n}_x_floor\":$ratio,\"${n}_rss_mb\":$rss,\"${n}_preprocessed_lines\":$lines"
    out+=",\"${n}_cpus\":[$(tr ' ' '\n' <<< "${cpus[$n]}" | sed '/^$/d' | paste -sd,)]"
    text+=$'\n'"$(printf '  %-17s CPU %7.2f s  %5.2fx floor  %5d MB  wall %6.2f s  %7d lines' "$n" "$cpu" "$ratio" "$rss" "$wall" "$lines")"
done
out+="}"

if [[ $json == 1 ]]; then
    echo "$out"
else
    echo "$text"
fi
