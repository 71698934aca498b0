#!/usr/bin/env bash
# Callgrind profiles of the hot paths: one iteration of each benchmark's timed loop
# (bench_support.hpp's profiled_region switches collection on around it).
#
#   benchmarks/profile_hot_paths.sh <dir of benchmark executables> <output dir>
#
# run_comparison.sh calls it for this build, and for the executables of an earlier build when
# TOOLSTREAM_BEFORE_BIN names their directory, so that one run reports both. Instruction counts do
# not depend on the machine's load. A benchmark the executables do not have leaves no profile.
# Needs TOOLSTREAM_BENCH_STREAMS (the input streams) in the environment.
set -euo pipefail

bin=$1
out_dir=$2
mkdir -p "$out_dir"

profile() {   # label executable filter
    local out=$out_dir/$1
    [[ -x $bin/$2 ]] || return 0
    if ! "$bin/$2" --benchmark_list_tests=true --benchmark_filter="^$3\$" 2>/dev/null | grep -q .; then
        return 0
    fi
    valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out.callgrind" "$bin/$2" \
             --benchmark_filter="^$3\$" --benchmark_min_time=0 >/dev/null 2>"$out.log"
    callgrind_annotate --inclusive=no --auto=no --threshold=100 "$out.callgrind" > "$out.txt" 2>/dev/null
    echo "$1	$3" >> "$out_dir/index.tsv"
}

: > "$out_dir/index.tsv"
for p in openai_chat anthropic openai_responses mistral ollama gemini_partial; do
    profile "$p" toolstream_bench_pipelines "pipeline/$p/content:65536/write:16384"
done
# Gemini sends the call as one event: its working set grows with N, so t(4N)/t(N) may exceed
# 4 through the caches alone; the instruction counts at both sizes tell which.
profile gemini_256k toolstream_bench_pipelines 'pipeline/gemini/content:262144/write:16384'
profile gemini_1m toolstream_bench_pipelines 'pipeline/gemini/content:1048576/write:16384'
profile native_fragment_16 toolstream_bench_policies 'native/api_tool_call/fragment:16'
profile native_fragment_4096 toolstream_bench_policies 'native/api_tool_call/fragment:4096'
for p in xml json sentinel passthrough; do
    profile "${p}_chunk16" toolstream_bench_policies "policy/$p/chunk:16"
done
# Model-native formats: JSON in markers (hermes), XML-like parameters (qwen3_coder), harmony.
for f in hermes qwen3_coder harmony; do
    for c in 1 16 4096; do
        profile "format_${f}_chunk$c" toolstream_bench_formats "format/$f/size:65536/chunk:$c"
    done
done
# `auto` after its decision beside the format it chose: what auto adds per feed.
for c in 1 4 16 4096; do
    for f in qwen3_coder auto; do
        profile "after_decision_${f}_chunk$c" toolstream_bench_auto "after_decision/$f/size:1048576/chunk:$c"
    done
done
