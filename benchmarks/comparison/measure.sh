# Sourced by benchmarks/run_comparison.sh: everything that measures (run_all), writing
# benchmarks/results/. Uses the settings run_comparison.sh defines (root, build, results, streams,
# sizes, repetitions, ...) and its log().

# The provider dialects the stream generator writes (its usage line), which the pipelines read.
provider_kinds() {
    "$bin/toolstream-gen-stream" 2>&1 | sed -n 's/^kinds: //p' | tr ' ' '\n' | grep -vxE 'mixed|xml|json|sentinel'
}

# Everything that measures; the report below only reads benchmarks/results/.
run_all() {
    log "dependencies"
    "$root/scripts/install-deps.sh" libbenchmark-dev gnuplot-nox cmake g++ libboost-json1.81-dev jq valgrind
    if [[ $with_peers == 1 ]]; then
        if ! command -v node >/dev/null; then
            "$root/scripts/install-deps.sh" nodejs npm || true
        fi
        node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
        if [[ $node_major -lt 20 ]]; then
            with_peers=0
            peers_note="Peers not run: they need Node.js 20 or later (found: $(node --version 2>/dev/null || echo none))."
            echo "$peers_note" >&2
        fi
    else
        peers_note="Peers not run (--no-peers)."
    fi

    log "build (Release) in $build"
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTOOLSTREAM_BUILD_BENCHMARKS=ON \
          -DTOOLSTREAM_BUILD_TESTS=OFF -DTOOLSTREAM_BUILD_EXAMPLES=OFF -DTOOLSTREAM_BUILD_PROGRAMS=ON >/dev/null
    cmake --build "$build" --target toolstream_benchmarks toolstream-replay -j "$(nproc)"

    log "input streams in $streams"
    mkdir -p "$streams" "$profiles"
    gen() {   # kind size: the file our benchmarks and the peers read
        local file=$streams/$1-$2.sse
        [[ -s $file ]] || "$bin/toolstream-gen-stream" "$1" "$2" 4 "$file"
    }
    for size in "${sizes[@]}"; do
        for kind in $(provider_kinds); do gen "$kind" "$size"; done
    done
    for scale in 4 16 64 256; do gen mixed "$scale"; done
    for kind in xml json sentinel; do gen "$kind" 262144; gen "$kind" 1048576; done
    export TOOLSTREAM_BENCH_STREAMS=$streams

    log "our benchmarks ($repetitions repetitions, min time ${min_time} s)"
    for exe in "$bin"/toolstream_bench_*; do
        name=$(basename "$exe")
        echo "-- $name" >&2
        # Every registered format at four chunk sizes and two body sizes: 368 benchmarks, so fewer
        # and shorter repetitions keep this executable to minutes.
        reps=$repetitions exe_min_time=$min_time
        [[ $name == toolstream_bench_formats ]] && reps=3 exe_min_time=0.05
        # Repetitions of all benchmarks of an executable in random order: a burst of load on the
        # shared machine then hits every benchmark a little instead of one a lot.
        "$exe" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
               --benchmark_enable_random_interleaving=true \
               --benchmark_min_time="$exe_min_time" --benchmark_format=console \
               --benchmark_out_format=json --benchmark_out="$results/$name.json" >&2
    done
    # name, median wall s, median CPU s, input bytes; errors listed apart.
    jq -r '.benchmarks[] | select(.aggregate_name == "median")
           | (if .time_unit == "ms" then 1e-3 elif .time_unit == "us" then 1e-6 elif .time_unit == "ns" then 1e-9 else 1 end) as $u
           | [.run_name, (.real_time * $u), (.cpu_time * $u), (.input_bytes // 0)] | @tsv' \
        "$results"/toolstream_bench_*.json > "$results/ours.tsv"
    jq -r '.benchmarks[] | select(.error_occurred == true) | "\(.name): \(.error_message)"' \
        "$results"/toolstream_bench_*.json | sort -u > "$results/errors.txt"

    # The whole program a user runs, against the library alone on the same bytes: CPU seconds
    # (user + system, median of 5 runs) and peak RSS of toolstream-replay. bash's `time` gives CPU
    # to the millisecond; /usr/bin/time (used for the RSS) prints it to 10 ms, a third of the 256 KiB run.
    log "toolstream-replay as a process"
    : > "$results/replay.tsv"
    for size in 262144 1048576; do
        file=$streams/openai_chat-$size.sse
        replay=("$build/programs/replay/toolstream-replay" --provider openai_chat --emit summary "$file")
        /usr/bin/time -f '%M' -o "$results/replay.time" "${replay[@]}" >/dev/null
        rss=$(<"$results/replay.time")
        cpu_s=$(for run in 1 2 3 4 5; do
                    { TIMEFORMAT='%3U %3S'; time "${replay[@]}" >/dev/null; } 2>&1 | awk '{ print $1 + $2 }'
                done | sort -n | sed -n 3p)
        printf 'openai_chat\t%s\t%s\t%s\t%s\n' "$size" "$(stat -c %s "$file")" "$cpu_s" "$rss" >> "$results/replay.tsv"
    done
    cat "$results/replay.tsv" >&2

    log "allocations"
    "$bin/toolstream_alloc_per_mb" > "$results/alloc.jsonl"

    log "compile time"
    "$root/benchmarks/compile_time.sh" --json --runs "$compile_runs" > "$results/compile_time.json"
    cat "$results/compile_time.json" >&2

    # Instruction counts are immune to the machine's load: they show where the time goes.
    log "callgrind profiles"
    rm -rf "$profiles" "$profiles_before"
    "$root/benchmarks/profile_hot_paths.sh" "$bin" "$profiles"
    # The same profiles of an earlier build's executables (TOOLSTREAM_BEFORE_BIN), for before/after.
    if [[ -n ${TOOLSTREAM_BEFORE_BIN:-} ]]; then
        "$root/benchmarks/profile_hot_paths.sh" "$TOOLSTREAM_BEFORE_BIN" "$profiles_before"
        before_label=${TOOLSTREAM_BEFORE_LABEL:-$TOOLSTREAM_BEFORE_BIN}
    fi

    : > "$results/peers.jsonl"
    if [[ $with_peers == 1 ]]; then
        log "peers (sizes: $peer_sizes${peer_big_size:+ and $peer_big_size if fast}; timeout ${timeout_s} s)"
        STREAMS_DIR=$streams SIZES=$peer_sizes BIG_SIZE=$peer_big_size TIMEOUT_S=$timeout_s \
            "$root/benchmarks/run_peers.sh" || echo "run_peers.sh failed; the table shows what it wrote" >&2
    fi
    jq -r '[.peer, .dialect, .content_bytes,
            (if .median_s != null then "ok" elif .timed_out then "timeout" elif .error then "error"
             elif .skipped then "skipped" else "unknown" end),
            (.median_s // .timeout_s // ""), (.version // ""), (.load1 // ""),
            ((.error // .reason // "") | tostring | gsub("[\t\n]"; " ") | .[0:160]),
            (.median_cpu_s // "")] | @tsv' \
        "$results/peers.jsonl" > "$results/peers.tsv"
    load_end=$(cut -d' ' -f1-3 /proc/loadavg)
    declare -p started load_start load_end quick with_peers peers_note before_label > "$results/run.env"
}
