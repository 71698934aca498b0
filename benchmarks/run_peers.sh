#!/usr/bin/env bash
# Measures the JS/TS peers on the same generated streams our C++ benchmarks read and writes one
# JSON line per (peer, size) to benchmarks/results/peers.jsonl (format: benchmarks/peers/README.md).
#
#   benchmarks/run_peers.sh                  # every peer
#   PEERS="partial-json vercel-openai" benchmarks/run_peers.sh
#   SIZES="16384" BIG_SIZE= benchmarks/run_peers.sh   # only 16 KiB (an empty BIG_SIZE: no 1 MiB)
#   STREAMS_DIR=dir benchmarks/run_peers.sh            # read/keep <dialect>-<size>.sse there
#
# Each run is bounded: a peer that exceeds TIMEOUT_S (default 60) at one size is not run at the
# larger ones, and only peers fast at 256 KiB are run at 1 MiB.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
peers_dir=$root/benchmarks/peers
results=$root/benchmarks/results/peers.jsonl
timeout_s=${TIMEOUT_S:-60}
delta_chars=4
read -r -a sizes <<< "${SIZES:-16384 65536 262144}"
big_size=${BIG_SIZE-1048576}
# x4 content is ~x16 time for a quadratic peer, so a 256 KiB median under 4 s keeps 1 MiB
# near the timeout even in the worst case.
big_gate_s=4
# One run is enough once a run takes longer than this; faster peers get 3.
repeat=3
single_run_over_s=5

declare -A dialect_of=(
    [openai6-chat-stream]=openai_chat
    [openai7-chat-stream]=openai_chat
    [vercel-openai]=openai_chat
    [vercel-anthropic]=anthropic
    [anthropic-messages-stream]=anthropic
    [partial-json]=openai_chat
    [jsonrepair]=openai_chat
    [streamparser-json]=openai_chat
)
read -r -a peers <<< "${PEERS:-openai6-chat-stream openai7-chat-stream vercel-openai vercel-anthropic anthropic-messages-stream partial-json jsonrepair streamparser-json}"
for peer in "${peers[@]}"; do
    [[ -n ${dialect_of[$peer]:-} ]] || { echo "unknown peer: $peer" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
streams=${STREAMS_DIR:-$work}
mkdir -p "$streams"

g++ -std=c++20 -O2 "$root/benchmarks/gen_streams.cpp" -o "$work/gen"
if [[ ! -f $peers_dir/node_modules/.package-lock.json ]]; then
    (cd "$peers_dir" && npm ci --no-audit --no-fund)
fi

# Streams are generated on first use: the 1 MiB OpenAI one is ~88 MB.
stream_file() {
    local file=$streams/$1-$2.sse
    [[ -f $file ]] || "$work/gen" "$1" "$2" "$delta_chars" "$file"
    echo "$file"
}

skip_line() {
    printf '{"peer":"%s","dialect":"%s","content_bytes":%s,"skipped":true,"reason":"%s"}\n' "$1" "$2" "$3" "$4"
}

mkdir -p "$(dirname "$results")"
: > "$results"
for peer in "${peers[@]}"; do
    dialect=${dialect_of[$peer]}
    skip_reason=
    median=
    for size in "${sizes[@]}" ${big_size:+"$big_size"}; do
        if [[ -z $skip_reason && $size == "$big_size" ]] &&
           ! awk -v m="${median:-x}" -v g="$big_gate_s" 'BEGIN { exit !(m != "x" && m + 0 <= g) }'; then
            skip_reason="not fast at 256 KiB (median ${median:-none} s, gate ${big_gate_s} s)"
        fi
        if [[ -n $skip_reason ]]; then
            echo "skipping $peer at $size bytes: $skip_reason" >&2
            skip_line "$peer" "$dialect" "$size" "$skip_reason" | tee -a "$results"
            continue
        fi
        echo "running $peer at $size bytes" >&2
        line=$(node "$peers_dir/run_peers.mjs" --input "$(stream_file "$dialect" "$size")" --dialect "$dialect" \
                    --peer "$peer" --repeat "$repeat" --single-run-over-s "$single_run_over_s" \
                    --timeout-s "$timeout_s" --content-bytes "$size") || true
        if [[ -z $line ]]; then
            line=$(printf '{"peer":"%s","dialect":"%s","content_bytes":%s,"error":"runner produced no result"}' \
                          "$peer" "$dialect" "$size")
        fi
        echo "$line" | tee -a "$results"
        median=$(sed -n 's/.*"median_s":\([0-9.eE+-]*\).*/\1/p' <<< "$line")
        if [[ $line == *'"timed_out":true'* ]]; then
            skip_reason="exceeded ${timeout_s} s at $size bytes"
        fi
    done
done
echo "wrote $results" >&2
