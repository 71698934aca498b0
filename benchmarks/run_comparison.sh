#!/usr/bin/env bash
# toolstream against the parsers people use today, on the same bytes, in one run.
#
#   benchmarks/run_comparison.sh            # full run (about 30-60 min on a 2-core machine)
#   benchmarks/run_comparison.sh --quick    # peers at 16 KiB only, fewer repetitions
#   benchmarks/run_comparison.sh --no-peers # our side only (the peer table stays empty)
#   benchmarks/run_comparison.sh --report-only  # rewrite the report from benchmarks/results/
#
# From a clean clone: installs the Debian packages it needs, builds the benchmarks (Release,
# build-bench/), generates the input streams once (benchmarks/results/streams/, shared by our
# benchmarks and the peers), runs our Google Benchmarks (JSON), the allocation counter, the
# compile-time script, callgrind profiles of the hot paths and the Node peers
# (benchmarks/run_peers.sh: each peer stops at the larger sizes once a run exceeded 60 s), then
# prints the comparison table and writes BENCHMARKS.md and docs/benchmarks.png.
#
# Times: our medians over repetitions (Google Benchmark), the peers' medians over up to 3 runs.
# Ratios peer/toolstream compare wall times measured in this run; throughput targets use our
# CPU time, which on a shared machine is the closer measure of one core's speed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
quick=0
with_peers=1
report_only=0
for arg in "$@"; do
    case $arg in
        --quick) quick=1 ;;
        --no-peers) with_peers=0 ;;
        --report-only) report_only=1 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "unknown option: $arg (try --help)" >&2; exit 2 ;;
    esac
done

build=${BUILD_DIR:-$root/build-bench}
results=$root/benchmarks/results
streams=$results/streams
profiles=$results/profiles
profiles_before=$results/profiles-before
before_label=
report=$root/BENCHMARKS.md
plot_png=$root/docs/benchmarks.png
sizes=(16384 65536 262144 1048576)
timeout_s=60
if [[ $quick == 1 ]]; then
    repetitions=3 min_time=0.02 compile_runs=1
    peer_sizes=16384 peer_big_size=
else
    repetitions=5 min_time=0.2 compile_runs=3
    peer_sizes="16384 65536 262144" peer_big_size=1048576
fi

log() { printf '\n== %s\n' "$*" >&2; }

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
    # (user + system) and peak RSS of toolstream-replay, median of 3 runs.
    log "toolstream-replay as a process"
    : > "$results/replay.tsv"
    for size in 262144 1048576; do
        file=$streams/openai_chat-$size.sse
        for run in 1 2 3; do
            /usr/bin/time -f '%U %S %M' -o "$results/replay.time" \
                "$build/programs/replay/toolstream-replay" --provider openai_chat --emit summary "$file" >/dev/null
            read -r user sys rss < "$results/replay.time"
            echo "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $rss"
        done | sort -n | sed -n 2p | { read -r cpu_s rss; printf 'openai_chat\t%s\t%s\t%s\t%s\n' "$size" "$(stat -c %s "$file")" "$cpu_s" "$rss"; } >> "$results/replay.tsv"
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

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u '+%Y-%m-%d %H:%M UTC')
bin=$build/benchmarks
peers_note=
if [[ $report_only == 1 ]]; then
    [[ -s $results/run.env ]] || { echo "no results in $results: run without --report-only first" >&2; exit 1; }
    source "$results/run.env"
else
    run_all
fi

# ---------------------------------------------------------------------------------------------
log "report"

# Instruction share per component of one callgrind profile: "group<TAB>Ir" lines, then "total<TAB>Ir".
profile_groups() {
    awk '
        /^ *[0-9,]+ +\(/ && !/PROGRAM TOTALS/ {
            ir = $1; gsub(",", "", ir); line = $0
            if (line ~ /libboost_json\.so/) g = "Boost.JSON library: DOM parse and field lookup"
            else if (line ~ /boost\/json\//) g = "Boost.JSON basic_parser (header code: events, arguments)"
            else if (line ~ /libc\.so/ && line ~ /memchr/) g = "libc memchr (line ends, markers)"
            else if (line ~ /libc\.so/ && line ~ /mem(cpy|move)/) g = "libc memcpy (copies)"
            else if (line ~ /libc\.so/ && line ~ /(malloc|free)/) g = "libc malloc/free"
            else if (line ~ /libc\.so/) g = "libc other (memcmp, strlen...)"
            else if (line ~ /(transport\/|line_splitter)/) g = "SSE framing"
            else if (line ~ /(providers\/|openai_chat_stream|openai_tool_calls|chunk_builder|payload_parser|json_fields|compact_json|gemini_partial_args|toolstream\/types\.hpp)/) g = "chunk conversion (toolstream)"
            else if (line ~ /(native_call_assembler|file_arguments_decoder|api_tool_call)/) g = "native call assembly (toolstream)"
            else if (line ~ /(policies\/|engine\/|formats\/|marker_scanner|xml_|json_call|sentinel_header)/) g = "text policy scanning (toolstream)"
            else if (line ~ /(handler\.hpp|segment_emitter|invocation_adapter|sinks\.hpp|pipeline\.hpp|bench_support)/) g = "handler, writer, adapter, sink (toolstream)"
            else if (line ~ /\/c\+\+\/[0-9]+\//) g = "inlined std::string / std::vector code"
            else g = "other"
            sum[g] += ir; total += ir
        }
        END { for (g in sum) printf "%s\t%d\n", g, sum[g]; printf "total\t%d\n", total }' "$1"
}

# The heaviest functions of a profile: "Ir<TAB>share<TAB>function" (template arguments elided).
profile_top() {
    awk -v n="$2" '
        /PROGRAM TOTALS/ { t = $1; gsub(",", "", t) }
        /^ *[0-9,]+ +\(/ && !/PROGRAM TOTALS/ && shown < n {
            ir = $1; gsub(",", "", ir)
            f = $0; sub(/^ *[0-9,]+ +\([ 0-9.]+%\) +/, "", f); sub(/ \[[^]]*\]$/, "", f)
            sub(/^[^:]*:/, "", f)                    # the source file
            while (f ~ /<[^<>]*>/) gsub(/<[^<>]*>/, "", f)
            while (f ~ /\([^()]*\)/) gsub(/\([^()]*\)/, "", f)
            sub(/ \[clone[^]]*\]/, "", f); sub(/^.* /, "", f)
            if (f == "" || f ~ /^0x/) f = "(" ($0 ~ /libboost_json/ ? "libboost_json" : "library") " internals without a symbol: the parser)"
            printf "%d\t%.1f\t%s\n", ir, 100 * ir / t, f; ++shown
        }' "$1"
}

for p in "$profiles"/*.txt "$profiles_before"/*.txt; do
    [[ -f $p ]] || continue
    profile_groups "$p" | sort -t$'\t' -k2,2nr > "${p%.txt}.groups"
    profile_top "$p" 8 > "${p%.txt}.top"
done

# The whole report is computed by one awk program from the TSV files.
machine_model=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
machine_mhz=$(grep -m1 '^cpu MHz' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
machine_cache=$(grep -m1 '^cache size' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
mem_total=$(free -m | awk '/^Mem:/ { print $2 }')
mem_avail=$(free -m | awk '/^Mem:/ { print $7 }')
boost_version=$(sed -n 's/^#define BOOST_LIB_VERSION "\(.*\)"/\1/p' /usr/include/boost/version.hpp | tr _ .)
gbench_version=$(dpkg-query -W -f='${Version}' libbenchmark-dev 2>/dev/null || echo unknown)
node_version=$(node --version 2>/dev/null || echo none)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain -- include benchmarks 2>/dev/null | grep -q . && echo " (with uncommitted changes in include/ or benchmarks/)" || true)
stream_lines=$(for size in "${sizes[@]}"; do
    for kind in openai_chat anthropic; do
        f=$streams/$kind-$size.sse
        printf '%s\t%s\t%s\t%s\t%s\n' "$kind" "$size" "$(stat -c %s "$f")" \
            "$(grep -c '^data: ' "$f")" "$(sha256sum "$f" | cut -c1-16)"
    done
done)

mkdir -p "$(dirname "$plot_png")"
plot_data=$results/plot
rm -rf "$plot_data"; mkdir -p "$plot_data"

awk -F'\t' \
    -v quick="$quick" -v with_peers="$with_peers" -v peers_note="$peers_note" \
    -v started="$started" -v load_start="$load_start" -v load_end="$load_end" \
    -v model="$machine_model" -v mhz="$machine_mhz" -v cache="$machine_cache" -v cores="$(nproc)" \
    -v mem_total="$mem_total" -v mem_avail="$mem_avail" -v kernel="$(uname -sr)" \
    -v cxx="$(g++ --version | head -n1)" -v boost="$boost_version" -v gbench="$gbench_version" \
    -v node="$node_version" -v commit="$commit$dirty" -v reps="$repetitions" -v min_time="$min_time" \
    -v timeout_s="$timeout_s" -v stream_lines="$stream_lines" -v plot_data="$plot_data" \
    -v profiles="$profiles" -v profiles_before="$profiles_before" -v before_label="$before_label" -v results="$results" \
    -v compile_json="$(cat "$results/compile_time.json")" \
    -f - "$results/ours.tsv" "$results/peers.tsv" > "$report.new" <<'AWK'
function fmt_s(s) {   # seconds, human scale
    if (s == "") return "–"
    if (s < 1e-3) return sprintf("%.1f µs", s * 1e6)
    if (s < 1) return sprintf("%.2f ms", s * 1e3)
    return sprintf("%.2f s", s)
}
function fmt_rate(bytes, s) { return s > 0 ? sprintf("%.0f", bytes / s / 1e6) : "–" }
function commas(n,    s) {   # 1234567 -> 1,234,567 (mawk has no %'d)
    s = sprintf("%d", n)
    while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
    return s
}
function fmt_x(r) { return r >= 100 ? commas(r) "×" : sprintf("%.1f×", r) }
function size_label(b) { return b >= 1048576 ? (b / 1048576) " MiB" : (b / 1024) " KiB" }
# Least-squares slope of log t against log N over the points of series k.
function exponent(k,    i, n, sx, sy, sxx, sxy, x, y) {
    n = 0; sx = sy = sxx = sxy = 0
    for (i = 1; i <= nsizes; ++i) if ((k, sizes[i]) in t) {
        x = log(sizes[i]); y = log(t[k, sizes[i]])
        ++n; sx += x; sy += y; sxx += x * x; sxy += x * y
    }
    if (n < 2) return ""
    return sprintf("%.2f", (n * sxy - sx * sy) / (n * sxx - sx * sx))
}
function json_num(s, key,    m) {   # a number field of a one-line JSON object
    if (match(s, "\"" key "\":[-0-9.eE+]+")) { m = substr(s, RSTART, RLENGTH); sub(/^[^:]*:/, "", m); return m + 0 }
    return ""
}
function read_groups(name, file,    line, f, n) {
    n = 0; gtotal[name] = 0
    while ((getline line < file) > 0) {
        split(line, f, "\t")
        if (f[1] == "total") gtotal[name] = f[2]
        else { ++n; gname[name, n] = f[1]; gir[name, n] = f[2] }
    }
    close(file); gcount[name] = n
}
function group_share(name, pattern,    i, s) {
    s = 0
    for (i = 1; i <= gcount[name]; ++i) if (gname[name, i] ~ pattern) s += gir[name, i]
    return gtotal[name] > 0 ? 100 * s / gtotal[name] : 0
}
function top_groups(name, n,    i, out) {
    out = ""
    for (i = 1; i <= gcount[name] && i <= n; ++i)
        out = out (i > 1 ? "; " : "") sprintf("%.0f%% %s", 100 * gir[name, i] / gtotal[name], gname[name, i])
    return out
}
function status(ok) { return ok ? "**met**" : "**missed**" }
function rate(name) { return (name in cpu) && cpu[name] > 0 ? bytes[name] / cpu[name] / 1e6 : 0 }
# One target row over every registered format at one chunk size (their 1 MiB bodies).
function fmt_target(chunk, target, label,    j, r, nmet, worst, worst_name, missed, nmissed) {
    nmet = 0; worst = ""; missed = ""; nmissed = 0
    for (j = 1; j <= nfmt; ++j) {
        r = frate[fmts[j], chunk]
        if (r == "") continue
        if (r >= target) ++nmet
        else { ++nmissed; missed = missed (nmissed > 1 ? ", " : "") fmts[j] " " sprintf("%.0f", r) }
        if (worst == "" || r < worst) { worst = r; worst_name = fmts[j] }
    }
    fmt_missed[chunk] = missed
    print "| every text format (" nfmt "; xml, json, sentinel and the model-native formats) at " label " | ≥ " commas(target) " MB/s each | " (worst == "" ? "not measured" : sprintf("%d of %d met; lowest %.0f (%s)", nmet, nmet + nmissed, worst, worst_name)) " | " status(worst != "" && nmissed == 0) " |"
}
function load_range(    a, b, lo, hi) {
    a = substr(load_start, 1, index(load_start, " ") - 1) + 0; b = substr(load_end, 1, index(load_end, " ") - 1) + 0
    lo = a < b ? a : b; hi = a < b ? b : a
    if (load_min != "" && load_min + 0 < lo) lo = load_min + 0
    if (load_max != "" && load_max + 0 > hi) hi = load_max + 0
    return sprintf("%.1f–%.1f", lo, hi)
}
# Points of series k; exponents from two points only are flagged.
function npoints(k,    i, n) { n = 0; for (i = 1; i <= nsizes; ++i) if ((k, sizes[i]) in t) ++n; return n }
function exponent_cell(k,    e) { e = exponent(k); return e == "" ? "–" : e (npoints(k) == 2 ? " (2 sizes)" : "") }

FNR == NR {   # ours.tsv: name, wall s, cpu s, input bytes
    wall[$1] = $2; cpu[$1] = $3; bytes[$1] = $4; next
}
{   # peers.tsv: peer, dialect, size, status, seconds, version, load1, note, CPU seconds
    if (!($1 in peer_seen)) { peer_seen[$1] = 1; peers[++npeers] = $1; peer_dialect[$1] = $2; peer_version[$1] = $6 }
    pstatus[$1, $3] = $4; pnote[$1, $3] = $8
    if ($4 == "ok") { t[$1, $3] = $5; if ($9 != "") pcpu[$1, $3] = $9 }
    if ($4 == "timeout") ptimeout[$1, $3] = $5
    if ($7 != "") { if (load_min == "" || $7 < load_min) load_min = $7; if ($7 > load_max) load_max = $7 }
}

END {
    nsizes = split("16384 65536 262144 1048576", sizes, " ")
    # Pipelines in this order first (the peers compare against the first two), then any other.
    nknown = split("openai_chat anthropic openai_responses mistral ollama gemini gemini_partial", known, " ")
    npipes = 0
    for (i = 1; i <= nknown; ++i) if (("pipeline/" known[i] "/content:262144/write:16384") in cpu) { pipes[++npipes] = known[i]; listed[known[i]] = 1 }
    for (name in cpu) if (name ~ /^pipeline\/[a-z_0-9]+\/content:262144\/write:16384$/) {
        split(name, f, "/"); if (!(f[2] in listed)) { pipes[++npipes] = f[2]; listed[f[2]] = 1 }
    }
    for (i = 1; i <= nsizes; ++i) for (j = 1; j <= npipes; ++j) {
        k = "pipeline/" pipes[j] "/content:" sizes[i] "/write:16384"
        if (k in wall) { t["toolstream/" pipes[j], sizes[i]] = wall[k]; tc["toolstream/" pipes[j], sizes[i]] = cpu[k] }
    }
    mixed_scales = "4 16 64 256"
    replay_file = results "/replay.tsv"
    while ((getline line < replay_file) > 0) {
        split(line, f, "\t"); replay_cpu[f[2]] = f[4]; replay_rss[f[2]] = f[5]
        replay_rate[f[2]] = f[4] > 0 ? f[3] / f[4] / 1e6 : 0
    }
    close(replay_file)

    print "# Benchmarks"
    print ""
    print "Generated by `benchmarks/run_comparison.sh" (quick ? " --quick" : "") "` on " started " up to \"Hand runs\": rerun the script"
    print "for those sections. The hand-run sections after it are kept by the script; each names its run."
    print "Every figure below comes from that one run on the machine described here; the machine is"
    print "shared, so compare ratios measured in the same run rather than absolute times across runs."
    print ""
    print "## Machine"
    print ""
    print "| | |"
    print "|---|---|"
    print "| CPU | " model " (" cores " logical cores online, " mhz " MHz, cache " cache ") |"
    print "| memory | " mem_total " MiB, " mem_avail " MiB available at the end |"
    print "| load average (1/5/15 min) | " load_start " at the start, " load_end " at the end" (load_max != "" ? "; 1-min load during the peer runs " load_min "–" load_max : "") " |"
    print "| system | " kernel "; " cxx "; Boost " boost "; Google Benchmark " gbench " (Debian package, built as debug: the harness, not our code); Node.js " node " |"
    print "| toolstream | commit " commit ", benchmarks built `-O3 -DNDEBUG` |"
    print "| method | ours: median of " reps " randomly interleaved repetitions (Google Benchmark, min time " min_time " s each); peers: median of up to 3 runs, one run once a run takes over 5 s, killed after " timeout_s " s |"
    print ""
    print "With " cores " cores shared with other work (1-minute load averages of " load_range() " during this run), a benchmark"
    print "gets a core only part of the time: wall times include the waiting, CPU times do not. Ratios against"
    print "the peers and our throughput figures therefore use CPU times; times in the tables and the plot are wall"
    print "times. Each executable's repetitions run in random order, so load bursts spread over its benchmarks."
    print ""

    print "## Inputs"
    print ""
    print "One `write_file` call whose content (deterministic pseudo source code: tabs, quotes, backslashes,"
    print "2- to 4-byte UTF-8, half of the non-ASCII \\u-escaped) arrives in 4-character argument deltas, one"
    print "SSE event each (`benchmarks/stream_generators.hpp`). Our benchmarks and the peers read the same"
    print "files (`benchmarks/results/streams/`); the first 16 hex digits of their SHA-256:"
    print ""
    print "| dialect | content | stream bytes | SSE events | sha256 |"
    print "|---|---|---|---|---|"
    n = split(stream_lines, sl, "\n")
    for (i = 1; i <= n; ++i) { split(sl[i], f, "\t"); printf "| %s | %s | %s | %s | `%s` |\n", f[1], size_label(f[2]), commas(f[3]), commas(f[4]), f[5] }
    print ""

    # ---- comparison with the peers
    print "## toolstream against the peers"
    print ""
    if (!with_peers) { print peers_note; print "" }
    print "Median wall time to parse the whole stream to the final tool call. In brackets the ratio peer / toolstream"
    print "at that size of **CPU times** (the peer's whole Node process, V8's helper threads included, against our"
    print "benchmark's): the peers run minutes after ours, under a different load, and CPU time does not grow while"
    print "the machine gives a run no core. Same bytes, same dialect: OpenAI Chat peers against our `openai_chat`"
    print "pipeline, Anthropic peers against our `anthropic` pipeline. Where a peer was killed, the bound uses wall"
    print "times. *Exponent*: the slope of log t against log N (wall times) over the sizes measured; 1 is linear, 2"
    print "quadratic."
    print ""
    hdr = "| | input |"; sep = "|---|---|"
    for (i = 1; i <= nsizes; ++i) { hdr = hdr " " size_label(sizes[i]) " |"; sep = sep "---|" }
    print hdr " exponent |"; print sep "---|"
    for (j = 1; j <= 2; ++j) {
        k = "toolstream/" pipes[j]; row = "| **toolstream** `" pipes[j] "` pipeline | " pipes[j] " |"
        for (i = 1; i <= nsizes; ++i) row = row " " (((k, sizes[i]) in t) ? fmt_s(t[k, sizes[i]]) " (CPU " fmt_s(tc[k, sizes[i]]) ")" : "–") " |"
        print row " " exponent_cell(k) " |"
    }
    for (p = 1; p <= npeers; ++p) {
        name = peers[p]; d = peer_dialect[name]; ours = "toolstream/" d
        row = "| " name " " peer_version[name] " | " d " |"
        for (i = 1; i <= nsizes; ++i) {
            s = sizes[i]; st = pstatus[name, s]; cell = "–"
            if (st == "ok") {
                cell = fmt_s(t[name, s])
                if (((name, s) in pcpu) && ((ours, s) in tc)) { r = pcpu[name, s] / tc[ours, s]; ratio[name, s] = r; cell = cell " (" fmt_x(r) ")" }
                else if ((ours, s) in t) { r = t[name, s] / t[ours, s]; ratio[name, s] = r; cell = cell " (" fmt_x(r) " wall)" }
            } else if (st == "timeout") {
                cell = "> " ptimeout[name, s] " s"
                if ((ours, s) in t) { r = ptimeout[name, s] / t[ours, s]; ratio_lb[name, s] = r; cell = cell " (> " fmt_x(r) " wall)" }
            } else if (st == "error") cell = "error"
            else if (st == "skipped") cell = "skipped"
            row = row " " cell " |"
        }
        print row " " exponent_cell(name) " |"
    }
    print ""
    notes = 0
    for (p = 1; p <= npeers; ++p) for (i = 1; i <= nsizes; ++i) {
        name = peers[p]; s = sizes[i]
        if (pstatus[name, s] == "error" || pstatus[name, s] == "skipped" || pstatus[name, s] == "timeout") {
            if (!notes++) print "Not measured:"
            why = pstatus[name, s] == "timeout" ? "killed after " ptimeout[name, s] " s, so the larger sizes were skipped" : pnote[name, s]
            print "- " name " at " size_label(s) ": " pstatus[name, s] (why != "" ? " (" why ")" : "")
        }
    }
    if (notes) print ""
    print "![time against content size, log-log](docs/benchmarks.png)"
    print ""

    # ---- plot data
    for (j = 1; j <= 2; ++j) series[++nseries] = "toolstream/" pipes[j]
    for (p = 1; p <= npeers; ++p) series[++nseries] = peers[p]
    for (q = 1; q <= nseries; ++q) {
        file = plot_data "/" sprintf("%02d", q) ".dat"; any = 0
        label = series[q]; sub(/^toolstream\//, "toolstream ", label)
        for (i = 1; i <= nsizes; ++i) if ((series[q], sizes[i]) in t) { printf "%d %.9g\n", sizes[i] / 1024, t[series[q], sizes[i]] > file; any = 1 }
        for (i = 1; i <= nsizes; ++i) if ((series[q], sizes[i]) in ptimeout) { label = label " (>" timeout_s " s at " size_label(sizes[i]) ")"; break }
        for (i = 1; i <= nsizes; ++i) if (pstatus[series[q], sizes[i]] == "error") { label = label " (error at " size_label(sizes[i]) ")"; break }
        if (any) { close(file); print label > (plot_data "/" sprintf("%02d", q) ".label"); close(plot_data "/" sprintf("%02d", q) ".label") }
    }

    # ---- our pipelines
    print "## toolstream: pipelines end to end"
    print ""
    print "Raw SSE bytes written in 16 KiB pieces through transport → provider converter → `api_tool_call`"
    print "→ handler → callback sink that consumes every event; each run is checked (decoded content bytes,"
    print "complete invocations). Throughput in MB/s (10^6 bytes of raw stream per CPU second); the scaling"
    print "columns are ratios of CPU times, t(4N)/t(N)."
    print ""
    print "| pipeline | MB/s at 16 KiB | 64 KiB | 256 KiB | 1 MiB | t(256K)/t(64K) | t(1M)/t(256K) | exponent | wall/CPU |"
    print "|---|---|---|---|---|---|---|---|---|"
    worst_scaling = 0
    for (j = 1; j <= npipes; ++j) {
        k = "toolstream/" pipes[j]; row = "| " pipes[j] " |"
        for (i = 1; i <= nsizes; ++i) {
            name = "pipeline/" pipes[j] "/content:" sizes[i] "/write:16384"
            row = row " " ((name in cpu) ? fmt_rate(bytes[name], cpu[name]) : "–") " |"
        }
        for (i = 2; i <= 3; ++i) {
            a = "pipeline/" pipes[j] "/content:" sizes[i] "/write:16384"; b = "pipeline/" pipes[j] "/content:" sizes[i + 1] "/write:16384"
            if ((a in cpu) && (b in cpu)) { r = cpu[b] / cpu[a]; row = row sprintf(" %.2f |", r); if (r > worst_scaling) { worst_scaling = r; worst_pipe = pipes[j] } }
            else row = row " – |"
        }
        for (i = 1; i <= nsizes; ++i) { name = "pipeline/" pipes[j] "/content:" sizes[i] "/write:16384"; if (name in cpu) tcpu[k, sizes[i]] = cpu[name] }
        row = row " " cpu_exponent(k, "16384 65536 262144 1048576") " |"
        name = "pipeline/" pipes[j] "/content:262144/write:16384"
        row = row ((name in cpu) && cpu[name] > 0 ? sprintf(" %.2f |", wall[name] / cpu[name]) : " – |")
        print row
    }
    # The mixed stream is sized by scale (x4 per step).
    row = "| mixed (scale 4/16/64/256) |"; n = split(mixed_scales, ms, " ")
    for (i = 1; i <= n; ++i) {
        name = "pipeline/mixed/scale:" ms[i] "/write:16384"
        row = row " " ((name in cpu) ? fmt_rate(bytes[name], cpu[name]) : "–") " |"
        if (name in cpu) tcpu["toolstream/mixed", ms[i]] = cpu[name]
    }
    for (i = 2; i <= 3; ++i) {
        a = "pipeline/mixed/scale:" ms[i] "/write:16384"; b = "pipeline/mixed/scale:" ms[i + 1] "/write:16384"
        if ((a in cpu) && (b in cpu)) { r = cpu[b] / cpu[a]; row = row sprintf(" %.2f |", r); if (r > worst_scaling) { worst_scaling = r; worst_pipe = "mixed" } }
        else row = row " – |"
    }
    name = "pipeline/mixed/scale:64/write:16384"
    print row " " cpu_exponent("toolstream/mixed", mixed_scales) " |" ((name in cpu) && cpu[name] > 0 ? sprintf(" %.2f |", wall[name] / cpu[name]) : " – |")
    print ""
    print "Write size (OpenAI Chat, 256 KiB content): smaller writes split more events across writes."
    print ""
    print "| write size | MB/s |"
    print "|---|---|"
    for (w = 1; w <= 3; ++w) {
        ws = w == 1 ? 64 : w == 2 ? 1024 : 16384
        name = "pipeline/openai_chat/content:262144/write:" ws
        if (name in cpu) print "| " ws " B | " fmt_rate(bytes[name], cpu[name]) " |"
    }
    print ""

    # ---- policies
    print "## toolstream: text policies fed directly"
    print ""
    print "`handler<Policy, counting sink>::feed()` over model text holding a 256 KiB `write_file` call (the"
    print "xml text also a generic `read_file` call), cut into chunks of the given size. passthrough is the"
    print "floor: handler and writer alone. `api_tool_call (native)` assembles the same call from argument"
    print "fragments of the given size (no transport, no event JSON). MB/s per CPU second."
    print ""
    print "| policy | 1 B | 4 B | 16 B | 64 B | 4096 B |"
    print "|---|---|---|---|---|---|"
    npol = split("passthrough xml json sentinel", pols, " ")
    nch = split("1 4 16 64 4096", chunks, " ")
    for (j = 1; j <= npol; ++j) {
        row = "| " pols[j] " |"
        for (i = 1; i <= nch; ++i) { name = "policy/" pols[j] "/chunk:" chunks[i]; row = row " " ((name in cpu) ? fmt_rate(bytes[name], cpu[name]) : "–") " |" }
        print row
    }
    row = "| api_tool_call (native) |"
    for (i = 1; i <= nch; ++i) { name = "native/api_tool_call/fragment:" chunks[i]; row = row " " ((name in cpu) ? fmt_rate(bytes[name], cpu[name]) : "–") " |" }
    print row
    print ""

    # ---- transport and baseline
    print "## Transport and baseline"
    print ""
    print "On the OpenAI Chat stream: `memcpy`/`memchr`, touching each byte once; `transport/sse`, the SSE decoder alone."
    print "Measured beside the pipelines (same executable, interleaved):"
    print "`sse+json_dom`, the decoder plus a Boost.JSON DOM of each event's data (what every converter starts with, nothing"
    print "read from it); `sse+json_sax`, the decoder plus `boost::json::basic_parser` with a handler that keeps nothing."
    print "MB/s per CPU second."
    print ""
    print "| benchmark | MB/s |"
    print "|---|---|"
    for (name in cpu) if (name ~ /^(transport|baseline)\//) order[name] = name
    n = asort_keys(order, sorted)
    for (i = 1; i <= n; ++i) print "| `" sorted[i] "` | " fmt_rate(bytes[sorted[i]], cpu[sorted[i]]) " |"
    print ""

    # ---- allocations
    print "## Allocations"
    print ""
    print "Counted by a replaced global `operator new` (`benchmarks/alloc_per_mb.cpp`) over a 1 MiB `write_file`"
    print "call (mixed: scale 256). A chunk is a provider event for the pipelines, a `feed()` of 16 bytes for the"
    print "policies. *Steady state*: the writes that start in the middle half of the input."
    print ""
    print "| scenario | input bytes | allocations | per MB | steady-state chunks | steady-state allocations | per chunk | peak heap | peak / N | peak / body |"
    print "|---|---|---|---|---|---|---|---|---|---|"
    alloc_file = results "/alloc.jsonl"; worst_alloc = 0; alloc_rows = 0
    while ((getline line < alloc_file) > 0) {
        match(line, /"scenario":"[^"]*"/); sc = substr(line, RSTART + 12, RLENGTH - 13)
        pc = line ~ /"steady_allocations_per_chunk":null/ ? "–" : sprintf("%.6f", json_num(line, "steady_allocations_per_chunk"))
        peak = json_num(line, "peak_heap_bytes"); content = json_num(line, "content_bytes"); args = json_num(line, "argument_bytes")
        printf "| %s | %s | %d | %.2f | %s | %d | %s | %s | %s | %s |\n", sc, commas(json_num(line, "input_bytes")), json_num(line, "allocations"), json_num(line, "allocations_per_mb"), commas(json_num(line, "steady_chunks")), json_num(line, "steady_allocations"), pc, commas(peak), (args > 0 ? sprintf("%.2f×", peak / args) : "–"), (content > 0 ? sprintf("%.2f×", peak / content) : "–")
        # One call per stream (not the mixed one), its body kept: the peak-heap target.
        if (args > 0 && sc !~ /mixed|no_retention/ && peak / args > peak_worst) { peak_worst = peak / args; peak_worst_sc = sc; peak_worst_body = peak / content }
        if (sc ~ /no_retention/) { if (content <= 1048576) nr_small = peak; else nr_large = peak }
        if (pc != "–" && pc + 0 > worst_alloc) { worst_alloc = pc + 0; worst_alloc_sc = sc }
        if (json_num(line, "steady_allocations") > max_steady) max_steady = json_num(line, "steady_allocations")
        ++alloc_rows
    }
    close(alloc_file)
    print ""
    print "The few allocations left in the steady state are the growth steps of the buffers that must hold"
    print "the whole call, not allocations per chunk. *Peak heap*: the most heap held at once while the"
    print "stream is read, above what was held before it. N is the call's arguments as JSON text, as the target"
    print "counts them; *body* is its decoded content (the mixed stream holds three calls). *no_retention*: the"
    print "application takes the body from the events and the library keeps none of it."
    print ""

    # ---- compile time
    c_cpu = json_num(compile_json, "usage_cpu_s"); c_wall = json_num(compile_json, "usage_wall_s"); c_floor = json_num(compile_json, "floor_cpu_s")
    c_x = json_num(compile_json, "usage_x_floor"); c_rx = json_num(compile_json, "runtime_separate_x_floor"); c_rmb = json_num(compile_json, "runtime_separate_rss_mb")
    print "## Compile time"
    print ""
    print "`benchmarks/compile_time.sh`, `g++ -std=c++20 -O2 -c`, median of " json_num(compile_json, "runs") " runs, each TU against the floor"
    print "compiled in the same run (a TU that only parses with Boost.JSON: a SAX handler and a DOM parse)."
    print "`runtime` is the umbrella plus a `runtime_pipeline` writing OpenAI SSE, header-only; `runtime_separate`"
    print "the same TU with the pipeline instantiated once elsewhere (`runtime_object`, README \"Keeping compile times small\")."
    print ""
    print "| TU | CPU s | × floor | compiler MB | preprocessed lines |"
    print "|---|---|---|---|---|"
    split("floor usage runtime runtime_separate runtime_object", c_tus, " ")
    for (j = 1; j <= 5; ++j)
        print "| " c_tus[j] " | " json_num(compile_json, c_tus[j] "_cpu_s") " | " json_num(compile_json, c_tus[j] "_x_floor") " | " json_num(compile_json, c_tus[j] "_rss_mb") " | " commas(json_num(compile_json, c_tus[j] "_preprocessed_lines")) " |"
    print ""

    # ---- profiles
    print "## Where the time goes (callgrind)"
    print ""
    print "Instructions executed in one iteration of the benchmark loop (`valgrind --tool=callgrind`,"
    print "collection switched on around the timed loop only; `benchmarks/profile_hot_paths.sh`). Instruction"
    print "counts do not depend on the load, unlike times on this machine; shares are of the whole iteration."
    if (before_label != "") print "*Before*: the same benchmarks built from " before_label ", profiled in this run."
    print ""
    print "| profile | input bytes | instructions per byte" (before_label != "" ? ": before → after |" : " |") " instructions by component |"
    print "|---|---|---|---|"
    index_file = profiles "/index.tsv"
    while ((getline line < index_file) > 0) {
        split(line, f, "\t"); pname = f[1]; bench = f[2]
        read_groups(pname, profiles "/" pname ".groups")
        read_groups("before:" pname, profiles_before "/" pname ".groups")
        if (gtotal[pname] == 0 || !(bench in bytes)) continue
        irb[pname] = gtotal[pname] / bytes[bench]
        cell = sprintf("%.1f", irb[pname])
        if (before_label != "") {
            b = gtotal["before:" pname] / bytes[bench]
            cell = gtotal["before:" pname] > 0 ? sprintf("%.1f → %.1f (%.1f× fewer)", b, irb[pname], b / irb[pname]) : "– → " cell
        }
        printf "| `%s` | %s | %s | %s |\n", bench, commas(bytes[bench]), cell, top_groups(pname, 4)
    }
    close(index_file)
    print ""
    print "Heaviest functions (exclusive instructions) of the OpenAI Chat pipeline profile:"
    print ""
    print "| share | function |"
    print "|---|---|"
    file = profiles "/openai_chat.top"
    while ((getline line < file) > 0) { split(line, f, "\t"); print "| " f[2] "% | `" f[3] "` |" }
    close(file)
    print ""

    # ---- every text format
    print "## toolstream: every registered text format"
    print ""
    print "`handler<Format, counting sink>::feed()` over each format's sample (`tests/support/format_samples.hpp`: prose"
    print "and one `write_file` call with a body of 1 MiB), cut into chunks of 1, 4, 16 and 4096 bytes"
    print "(`bench_formats.cpp`; a format added to the registry is timed here with no edit). MB/s per CPU second;"
    print "*linear*: t(1 MiB)/t(64 KiB) at 16-byte chunks (16 is linear)."
    print ""
    print "| format | 1 B | 4 B | 16 B | 4096 B | linear |"
    print "|---|---|---|---|---|---|"
    for (name in cpu) if (name ~ /^format\/[^\/]+\/size:1048576\/chunk:16$/) { split(name, f, "/"); fmt_set[f[2]] = f[2] }
    nfmt = asort_keys(fmt_set, fmts)
    fmt_chunks = "1 4 16 4096"; nfc = split(fmt_chunks, fcs, " ")
    for (j = 1; j <= nfmt; ++j) {
        row = "| " fmts[j] " |"
        for (i = 1; i <= nfc; ++i) {
            name = "format/" fmts[j] "/size:1048576/chunk:" fcs[i]
            r = (name in cpu) ? bytes[name] / cpu[name] / 1e6 : ""
            frate[fmts[j], fcs[i]] = r
            row = row " " (r == "" ? "–" : sprintf("%.0f", r)) " |"
        }
        a = "format/" fmts[j] "/size:65536/chunk:16"; b = "format/" fmts[j] "/size:1048576/chunk:16"
        print row " " (((a in cpu) && (b in cpu)) ? sprintf("%.1f", cpu[b] / cpu[a]) : "–") " |"
    }
    print ""

    # ---- targets
    print "## Targets"
    print ""
    print "Every figure in this table comes from this run. MB/s are per CPU second."
    print ""
    print "| what | target | measured | status |"
    print "|---|---|---|---|"
    floor_name = "baseline/sse+json_sax/openai_chat/content:262144"; floor = rate(floor_name)
    oa = rate("pipeline/openai_chat/content:262144/write:16384")
    print "| openai_chat pipeline, raw SSE (256 KiB call) | ≥ 1,000 MB/s and ≥ 70% of the SSE + SAX floor | " sprintf("%.0f MB/s; floor %.0f MB/s: %.0f%%", oa, floor, floor > 0 ? 100 * oa / floor : 0) " | " status(oa >= 1000 && floor > 0 && oa >= 0.7 * floor) " |"
    cells = ""; ok = 1; n = split("anthropic openai_responses mistral ollama", pv, " ")
    for (i = 1; i <= n; ++i) {
        r = rate("pipeline/" pv[i] "/content:262144/write:16384")
        cells = cells (i > 1 ? ", " : "") pv[i] " " (r > 0 ? sprintf("%.0f", r) : "not measured")
        if (r < 900) ok = 0
    }
    print "| anthropic, openai_responses, mistral, ollama pipelines | ≥ 900 MB/s each | " cells " | " status(ok) " |"
    gmin = 0; gworst = 0
    for (i = 1; i <= nsizes; ++i) { r = rate("pipeline/gemini/content:" sizes[i] "/write:16384"); if (r > 0 && (gmin == 0 || r < gmin)) gmin = r }
    for (i = 1; i < nsizes; ++i) {
        a = "pipeline/gemini/content:" sizes[i] "/write:16384"; b = "pipeline/gemini/content:" sizes[i + 1] "/write:16384"
        if ((a in cpu) && (b in cpu) && cpu[b] / cpu[a] > gworst) gworst = cpu[b] / cpu[a]
    }
    print "| gemini pipeline | ≥ 600 MB/s, t(4N)/t(N) ≤ 4.4 at every size | " sprintf("lowest %.0f MB/s, worst t(4N)/t(N) %.2f", gmin, gworst) " | " status(gmin >= 600 && gworst > 0 && gworst <= 4.4) " |"
    rp = replay_rate[1048576]; lib = rate("pipeline/openai_chat/content:1048576/write:16384")
    print "| `toolstream-replay --provider openai_chat --emit summary`, whole process, vs the library alone (1 MiB call, 88 MB stream) | ≥ 80% | " (rp > 0 && lib > 0 ? sprintf("%.0f vs %.0f MB/s: %.0f%%; peak RSS %.0f MiB", rp, lib, 100 * rp / lib, replay_rss[1048576] / 1024) : "not measured") " | " status(rp > 0 && lib > 0 && rp >= 0.8 * lib) " |"
    r = rate("native/api_tool_call/fragment:16")
    print "| api_tool_call at 16-byte fragments | ≥ 500 MB/s | " sprintf("%.0f MB/s", r) " | " status(r >= 500) " |"
    fmt_target(16, 500, "16-byte chunks"); fmt_target(1, 100, "1-byte chunks"); fmt_target(4096, 2000, "4 KiB chunks")
    sp_min = ""
    for (i = 1; i <= nsizes; ++i) if (("streamparser-json", sizes[i]) in ratio) { r = ratio["streamparser-json", sizes[i]]; if (sp_min == "" || r < sp_min) { sp_min = r; sp_at = sizes[i] } }
    print "| vs `@streamparser/json`, per argument byte (same stream) | ≥ 10× | " (sp_min == "" ? "not measured" : "lowest " fmt_x(sp_min) " (at " size_label(sp_at) ")") " | " (sp_min == "" ? "–" : status(sp_min >= 10)) " |"
    # vLLM: measured outside this repository (Python); our side measured here.
    q4 = cpu["format/qwen3_coder/size:1048576/chunk:4"]; q16 = cpu["format/qwen3_coder/size:1048576/chunk:16"]
    print "| vs vLLM's streaming parser engine (`StreamingParserEngine.feed`, qwen3_coder, 1 MiB `write_file`; 1.10 s CPU at 4-character deltas, 0.43 s at 16, measured elsewhere on 2026-11-25) | ≥ 100× at both | " (q4 > 0 && q16 > 0 ? sprintf("%s at 4 (%s), %s at 16 (%s)", fmt_x(1.10 / q4), fmt_s(q4), fmt_x(0.43 / q16), fmt_s(q16)) : "not measured") " | " status(q4 > 0 && q16 > 0 && 1.10 / q4 >= 100 && 0.43 / q16 >= 100) " |"
    q64 = cpu["format/qwen3_coder/size:65536/chunk:4"]
    print "| vs vLLM's Qwen3 parser as served (engine + quadratic `parse_delta`: 155 s for 64 KiB at 4-character deltas, 745 s for 256 KiB at 16, measured elsewhere) | cite | " (q64 > 0 ? sprintf("ours %s for 64 KiB at 4 bytes: %s; 256 KiB at 16 bytes ≈ %s (a quarter of 1 MiB): %s", fmt_s(q64), fmt_x(155 / q64), fmt_s(q16 / 4), fmt_x(745 / (q16 / 4))) : "not measured") " | cited |"
    vc = pcpu["vercel-openai", 262144]; on = pcpu["openai6-chat-stream", 262144]; rc = replay_cpu[262144]
    print "| vs the Vercel AI SDK `streamText` (openai provider), 256 KiB `write_file`, whole processes (`toolstream-replay`) | ≥ 300× | " (vc > 0 && rc > 0 ? sprintf("%s (%s vs %s CPU)", fmt_x(vc / rc), fmt_s(vc), fmt_s(rc)) : "not measured (" (rc > 0 ? "vercel-openai: " (pstatus["vercel-openai", 262144] != "" ? pstatus["vercel-openai", 262144] : "not run") : "replay not run") ")") (on > 0 && rc > 0 ? sprintf("; openai-node 6: %s", fmt_x(on / rc)) : ("openai6-chat-stream", 262144) in ptimeout && rc > 0 ? sprintf("; openai-node 6: > %s (wall, killed at %s s)", fmt_x(ptimeout["openai6-chat-stream", 262144] / rc), timeout_s) : "") " | " status(vc > 0 && rc > 0 && vc / rc >= 300) " |"
    print "| peak heap for one call with N bytes of arguments (counting allocator, `alloc_per_mb`) | ≤ 3× N | " (peak_worst > 0 ? sprintf("worst %.2f× N (%s; %.2f× its decoded body)", peak_worst, peak_worst_sc, peak_worst_body) : "not measured") " | " status(peak_worst > 0 && peak_worst <= 3) " |"
    print "| a file body the application writes to disk as it streams (`keep_file_bodies = false`, openai_chat) | O(1) heap per call | " (nr_small > 0 ? sprintf("peak %s bytes at 1 MiB, %s at 4 MiB", commas(nr_small), commas(nr_large)) : "not measured") " | " status(nr_small > 0 && nr_large - nr_small < 65536) " |"
    print "| compile: `examples/usage.cpp` at -O2 vs a TU that only parses with Boost.JSON | ≤ 3× | " (c_x != "" ? sprintf("%s s vs %s s: %s×", c_cpu, c_floor, c_x) : "not measured") " | " status(c_x != "" && c_x <= 3) " |"
    c_hx = json_num(compile_json, "runtime_x_floor"); c_hmb = json_num(compile_json, "runtime_rss_mb")
    print "| compile: a `runtime_pipeline` TU with the OpenAI SSE writer at -O2 | ≤ 6× and ≤ 400 MB | " (c_rx != "" ? sprintf("instantiated once elsewhere (README recipe): %s×, %s MB; header-only: %s×, %s MB", c_rx, c_rmb, c_hx, c_hmb) : "not measured") " | " status(c_rx != "" && c_rx <= 6 && c_rmb <= 400) " (with the recipe) |"
    print "| steady-state allocations per chunk | none | at most " max_steady " in a steady state of 25,000–150,000 chunks (worst " sprintf("%.6f", worst_alloc) " per chunk, " worst_alloc_sc ") | " status(alloc_rows > 0 && worst_alloc < 0.001) " |"
    print ""

    print "## Reproducing"
    print ""
    print "```sh"
    print "benchmarks/run_comparison.sh                # this report: builds, runs ours and the peers, writes BENCHMARKS.md"
    print "benchmarks/run_comparison.sh --quick        # peers at 16 KiB only, 3 short repetitions: for iterating"
    print "benchmarks/run_comparison.sh --report-only  # rewrite the report from benchmarks/results/"
    print "benchmarks/smoke.sh                         # CI: every benchmark once, minimal time"
    print "benchmarks/compile_time.sh                  # compile time: floor, usage and runtime_pipeline TUs"
    print "TOOLSTREAM_BENCH_STREAMS=benchmarks/results/streams \\"
    print "    build-bench/benchmarks/toolstream_bench_pipelines --benchmark_filter=openai_chat"
    print "```"
    print ""
    print "Raw results of this run: `benchmarks/results/` (Google Benchmark JSON, `peers.jsonl`, `alloc.jsonl`,"
    print "`compile_time.json`, callgrind profiles); not committed."
}
# The same slope for our CPU times (tcpu), over the points `xs` (a space-separated list).
function cpu_exponent(k, xs,    i, n, m, sx, sy, sxx, sxy, x, y, pts) {
    n = 0; sx = sy = sxx = sxy = 0; m = split(xs, pts, " ")
    for (i = 1; i <= m; ++i) if ((k, pts[i]) in tcpu) {
        x = log(pts[i]); y = log(tcpu[k, pts[i]])
        ++n; sx += x; sy += y; sxx += x * x; sxy += x * y
    }
    if (n < 2) return "–"
    return sprintf("%.2f", (n * sxy - sx * sy) / (n * sxx - sx * sx))
}
function asort_keys(a, out,    k, n, i, j, tmp) {   # sorted keys of a (mawk has no asort)
    n = 0
    for (k in a) out[++n] = k
    for (i = 2; i <= n; ++i) { tmp = out[i]; for (j = i - 1; j >= 1 && out[j] > tmp; --j) out[j + 1] = out[j]; out[j + 1] = tmp }
    return n
}
AWK
# The hand-run sections (from "## Hand runs" on) of the report being replaced are kept.
if [[ -f $report ]]; then
    awk '/^## Hand runs/ { keep = 1 } keep' "$report" >> "$report.new"
fi
mv "$report.new" "$report"

# ---------------------------------------------------------------------------------------------
# One line per series: toolstream's two pipelines solid, the peers dashed.
plot_cmds=()
ours_colors=('#000000' '#1f5fbf')
peer_colors=('#d62728' '#ff7f0e' '#bcbd22' '#8c564b' '#e377c2' '#7f7f7f' '#9467bd' '#17becf' '#2ca02c')
n_ours=0 n_peers=0
for dat in "$plot_data"/*.dat; do
    label=$(cat "${dat%.dat}.label")
    if [[ $label == toolstream* ]]; then
        style="linespoints lw 2.5 pt 7 lc rgb '${ours_colors[n_ours++ % ${#ours_colors[@]}]}'"
    else
        style="linespoints lw 1.5 dt 2 pt 5 lc rgb '${peer_colors[n_peers++ % ${#peer_colors[@]}]}'"
    fi
    plot_cmds+=("'$dat' using 1:2 with $style title '${label//\'/}'")
done
gnuplot <<GNUPLOT
set terminal pngcairo size 1100,600 font ",10" noenhanced
set output "$plot_png"
set logscale xy
set xlabel "write_file content (KiB), 4-character argument deltas"
set ylabel "wall time to the final tool call (s)"
set title "toolstream vs. peers on the same SSE bytes (log-log)"
set key outside right top
set grid
set xrange [12:1400]
set xtics (16, 64, 256, 1024)
set format y "%g"
plot $(IFS=,; echo "${plot_cmds[*]}")
GNUPLOT

# ---------------------------------------------------------------------------------------------
if [[ -s $results/errors.txt ]]; then
    echo "benchmarks that failed their output check:" >&2
    cat "$results/errors.txt" >&2
fi
# The comparison and targets tables, on the terminal.
awk '/^## toolstream against the peers/,/^!\[/' "$report" | grep '^|'
echo
awk '/^## Targets/,/^### /' "$report" | grep '^|'
echo
echo "wrote $report and $plot_png (load average at the end: $load_end)"
[[ ! -s $results/errors.txt ]]
