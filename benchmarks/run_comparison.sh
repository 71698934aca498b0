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
          -DTOOLSTREAM_BUILD_TESTS=OFF -DTOOLSTREAM_BUILD_EXAMPLES=OFF >/dev/null
    cmake --build "$build" --target toolstream_benchmarks -j "$(nproc)"

    log "input streams in $streams"
    mkdir -p "$streams" "$profiles"
    gen() {   # kind size: the file our benchmarks and the peers read
        local file=$streams/$1-$2.sse
        [[ -s $file ]] || "$bin/toolstream-gen-stream" "$1" "$2" 4 "$file"
    }
    for size in "${sizes[@]}"; do
        for kind in openai_chat anthropic gemini gemini_partial; do gen "$kind" "$size"; done
    done
    for scale in 4 16 64 256; do gen mixed "$scale"; done
    for kind in xml json sentinel; do gen "$kind" 262144; gen "$kind" 1048576; done
    export TOOLSTREAM_BENCH_STREAMS=$streams

    log "our benchmarks ($repetitions repetitions, min time ${min_time} s)"
    for exe in "$bin"/toolstream_bench_*; do
        name=$(basename "$exe")
        echo "-- $name" >&2
        # Repetitions of all benchmarks of an executable in random order: a burst of load on the
        # shared machine then hits every benchmark a little instead of one a lot.
        "$exe" --benchmark_repetitions="$repetitions" --benchmark_report_aggregates_only=true \
               --benchmark_enable_random_interleaving=true \
               --benchmark_min_time="$min_time" --benchmark_format=console \
               --benchmark_out_format=json --benchmark_out="$results/$name.json" >&2
    done
    # name, median wall s, median CPU s, input bytes; errors listed apart.
    jq -r '.benchmarks[] | select(.aggregate_name == "median")
           | (if .time_unit == "ms" then 1e-3 elif .time_unit == "us" then 1e-6 elif .time_unit == "ns" then 1e-9 else 1 end) as $u
           | [.run_name, (.real_time * $u), (.cpu_time * $u), (.input_bytes // 0)] | @tsv' \
        "$results"/toolstream_bench_*.json > "$results/ours.tsv"
    jq -r '.benchmarks[] | select(.error_occurred == true) | "\(.name): \(.error_message)"' \
        "$results"/toolstream_bench_*.json | sort -u > "$results/errors.txt"

    log "allocations"
    "$bin/toolstream_alloc_per_mb" > "$results/alloc.jsonl"

    log "compile time"
    "$root/benchmarks/compile_time.sh" --json --runs "$compile_runs" > "$results/compile_time.json"
    cat "$results/compile_time.json" >&2

    # Instruction counts are immune to the machine's load: they show where the time goes.
    log "callgrind profiles"
    profile() {   # label executable filter
        local out=$profiles/$1
        # Only the timed loop is collected (bench_support.hpp's profiled_region): one iteration.
        valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out.callgrind" "$bin/$2" \
                 --benchmark_filter="^$3\$" --benchmark_min_time=0 >/dev/null 2>"$out.log"
        callgrind_annotate --inclusive=no --auto=no --threshold=100 "$out.callgrind" > "$out.txt" 2>/dev/null
    }
    profile openai_chat toolstream_bench_pipelines 'pipeline/openai_chat/content:65536/write:16384'
    profile anthropic toolstream_bench_pipelines 'pipeline/anthropic/content:65536/write:16384'
    # Gemini sends the call as one event: its working set grows with N, so t(4N)/t(N) may exceed
    # 4 through the caches alone; the instruction counts at both sizes tell which.
    profile gemini_256k toolstream_bench_pipelines 'pipeline/gemini/content:262144/write:16384'
    profile gemini_1m toolstream_bench_pipelines 'pipeline/gemini/content:1048576/write:16384'
    profile native_fragment_4096 toolstream_bench_policies 'native/api_tool_call/fragment:4096'
    for p in xml json sentinel passthrough; do
        profile "${p}_chunk16" toolstream_bench_policies "policy/$p/chunk:16"
    done

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
    declare -p started load_start load_end quick with_peers peers_note > "$results/run.env"
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
            else if (line ~ /boost\/json\//) g = "Boost.JSON basic_parser: argument decoding"
            else if (line ~ /libc\.so/ && line ~ /memchr/) g = "libc memchr (line ends, markers)"
            else if (line ~ /libc\.so/ && line ~ /mem(cpy|move)/) g = "libc memcpy (copies)"
            else if (line ~ /libc\.so/ && line ~ /(malloc|free)/) g = "libc malloc/free"
            else if (line ~ /libc\.so/) g = "libc other (memcmp, strlen...)"
            else if (line ~ /(transport\/|line_splitter)/) g = "SSE framing"
            else if (line ~ /(providers\/|openai_chat_stream|openai_tool_calls|chunk_builder|payload_parser|json_fields|compact_json|gemini_partial_args|toolstream\/types\.hpp)/) g = "chunk conversion (toolstream)"
            else if (line ~ /(native_call_assembler|file_arguments_decoder|api_tool_call)/) g = "native call assembly (toolstream)"
            else if (line ~ /(policies\/|marker_scanner|xml_|json_call|sentinel_header)/) g = "text policy scanning (toolstream)"
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

for p in "$profiles"/*.txt; do
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
    -v profiles="$profiles" -v results="$results" \
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
    npipes = split("openai_chat anthropic gemini gemini_partial", pipes, " ")
    for (i = 1; i <= nsizes; ++i) for (j = 1; j <= npipes; ++j) {
        k = "pipeline/" pipes[j] "/content:" sizes[i] "/write:16384"
        if (k in wall) { t["toolstream/" pipes[j], sizes[i]] = wall[k]; tc["toolstream/" pipes[j], sizes[i]] = cpu[k] }
    }
    mixed_scales = "4 16 64 256"

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
    print "read from it); `sse+json_sax`, the decoder plus `boost::json::basic_parser` with a handler that keeps nothing;"
    print "`sse+sax_converter_prototype+api_tool_call`, a tree-less converter prototype for this stream's shapes feeding the"
    print "real `api_tool_call` handler. MB/s per CPU second."
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
    print "| scenario | input bytes | allocations | per MB | steady-state chunks | steady-state allocations | per chunk |"
    print "|---|---|---|---|---|---|---|"
    alloc_file = results "/alloc.jsonl"; worst_alloc = 0; alloc_rows = 0
    while ((getline line < alloc_file) > 0) {
        match(line, /"scenario":"[^"]*"/); sc = substr(line, RSTART + 12, RLENGTH - 13)
        pc = line ~ /"steady_allocations_per_chunk":null/ ? "–" : sprintf("%.6f", json_num(line, "steady_allocations_per_chunk"))
        printf "| %s | %s | %d | %.2f | %s | %d | %s |\n", sc, commas(json_num(line, "input_bytes")), json_num(line, "allocations"), json_num(line, "allocations_per_mb"), commas(json_num(line, "steady_chunks")), json_num(line, "steady_allocations"), pc
        if (pc != "–" && pc + 0 > worst_alloc) { worst_alloc = pc + 0; worst_alloc_sc = sc }
        if (json_num(line, "steady_allocations") > max_steady) max_steady = json_num(line, "steady_allocations")
        ++alloc_rows
    }
    close(alloc_file)
    print ""
    print "The few allocations left in the steady state are capacity doublings of the buffers that must hold"
    print "the whole call (its decoded content and raw arguments, which the invocation carries), not"
    print "allocations per chunk. The mixed stream's total is the three calls' arguments parsed into"
    print "`boost::json` trees once each, at their END."
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
    print "collection switched on around the timed loop only). Instruction counts do not depend on the"
    print "load, unlike times on this machine; shares are of the whole iteration."
    print ""
    print "| profile | input bytes | instructions per byte | instructions by component |"
    print "|---|---|---|---|"
    np = split("openai_chat:pipeline/openai_chat/content:65536/write:16384 anthropic:pipeline/anthropic/content:65536/write:16384 gemini_256k:pipeline/gemini/content:262144/write:16384 gemini_1m:pipeline/gemini/content:1048576/write:16384 native_fragment_4096:native/api_tool_call/fragment:4096 xml_chunk16:policy/xml/chunk:16 json_chunk16:policy/json/chunk:16 sentinel_chunk16:policy/sentinel/chunk:16 passthrough_chunk16:policy/passthrough/chunk:16", plist, " ")
    for (i = 1; i <= np; ++i) {
        split(plist[i], pp, ":"); pname = pp[1]; bench = substr(plist[i], length(pname) + 2)
        read_groups(pname, profiles "/" pname ".groups")
        if (gtotal[pname] == 0 || !(bench in bytes)) continue
        irb[pname] = gtotal[pname] / bytes[bench]
        printf "| `%s` | %s | %.1f | %s |\n", bench, commas(bytes[bench]), irb[pname], top_groups(pname, 5)
    }
    print ""
    print "Heaviest functions (exclusive instructions) of the OpenAI Chat pipeline profile:"
    print ""
    print "| share | function |"
    print "|---|---|"
    file = profiles "/openai_chat.top"
    while ((getline line < file) > 0) { split(line, f, "\t"); print "| " f[2] "% | `" f[3] "` |" }
    close(file)
    print ""

    # ---- targets
    print "## Targets"
    print ""
    print "| target | measured | status |"
    print "|---|---|---|"
    # Linear scaling
    lin_ok = worst_scaling > 0 && worst_scaling <= 4.4
    print "| Linear: t(4N)/t(N) ≤ 4.4 for every pipeline, 64 KiB → 1 MiB | worst " sprintf("%.2f", worst_scaling) " (" worst_pipe "), CPU time | " status(lin_ok) " |"
    # 1000x against SDKs at 256 KiB
    nsdk = split("openai6-chat-stream openai7-chat-stream vercel-openai vercel-anthropic anthropic-messages-stream", sdks, " ")
    sdk_cells = ""; sdk_ok = with_peers; sdk_missing = ""
    for (i = 1; i <= nsdk; ++i) {
        name = sdks[i]; s = 262144
        if ((name, s) in ratio) { r = ratio[name, s]; c = fmt_x(r) }
        else if ((name, s) in ratio_lb) {
            r = ratio_lb[name, s]; c = "> " fmt_x(r) " (wall, " timeout_s " s cap)"
            e = exponent(name)
            if (e != "" && ((name, s / 4) in t)) {   # the trend of the sizes it finished, carried one step on
                x = t[name, s / 4] * exp(e * log(4))
                c = c sprintf(", ~%s extrapolated (wall: %.0f s at exponent %s)", fmt_x(x / t["toolstream/" peer_dialect[name], s]), x, e)
                if (x / t["toolstream/" peer_dialect[name], s] >= 1000) r = 1000
            }
        }
        else { r = ""; c = pstatus[name, s] != "" ? pstatus[name, s] : "not run" }
        sdk_cells = sdk_cells (i > 1 ? ", " : "") name " " c
        if (r != "" && r < 1000) { sdk_ok = 0; sdk_missing = sdk_missing " " name }
    }
    print "| ≥ 1000× faster than openai-node, Vercel AI SDK, Anthropic SDK at 256 KiB | " sdk_cells " | " (with_peers && quick ? "not measured (--quick)" : status(sdk_ok)) " |"
    # 10x per argument byte against @streamparser/json
    sp_min = ""
    for (i = 1; i <= nsizes; ++i) if (("streamparser-json", sizes[i]) in ratio) { r = ratio["streamparser-json", sizes[i]]; if (sp_min == "" || r < sp_min) { sp_min = r; sp_at = sizes[i] } }
    print "| ≥ 10× faster per argument byte than @streamparser/json (same stream), streaming decoded content | " (sp_min == "" ? "not measured" : "lowest " fmt_x(sp_min) " (at " size_label(sp_at) ")") " | " (sp_min == "" ? "–" : status(sp_min >= 10)) " |"
    # 1 GB/s OpenAI Chat
    name = "pipeline/openai_chat/content:262144/write:16384"; oa = (name in cpu) ? bytes[name] / cpu[name] / 1e6 : 0
    print "| ≥ 1 GB/s raw SSE end to end, one core, OpenAI Chat | " sprintf("%.0f MB/s", oa) " (256 KiB content, 22 MB stream) | " status(oa >= 1000) " |"
    # 500 MB/s policies at 16 B
    pol_cells = ""; pol_ok = 1
    for (j = 2; j <= npol; ++j) {
        name = "policy/" pols[j] "/chunk:16"; r = (name in cpu) ? bytes[name] / cpu[name] / 1e6 : 0; prate[pols[j]] = r
        pol_cells = pol_cells (j > 2 ? ", " : "") pols[j] " " sprintf("%.0f", r)
        if (r < 500) pol_ok = 0
    }
    print "| ≥ 500 MB/s for xml/json/sentinel at 16-byte chunks | " pol_cells " MB/s | " status(pol_ok) " |"
    print "| Zero steady-state allocations per chunk | at most " max_steady " allocations in a steady state of 25,000–150,000 chunks (worst " sprintf("%.6f", worst_alloc) " per chunk, " worst_alloc_sc ") | " status(alloc_rows > 0 && worst_alloc < 0.001) " |"
    print "| One-pipeline TU (`examples/usage.cpp`) at -O2 ≤ 3× the floor | " c_cpu " s CPU, " c_x "× the floor (" c_floor " s) | " status(c_x != "" && c_x <= 3) " |"
    print "| `runtime_pipeline` TU at -O2 ≤ 6× the floor and ≤ 400 MB (pipeline instantiated once elsewhere) | " c_rx "×, " c_rmb " MB | " status(c_rx != "" && c_rx <= 6 && c_rmb <= 400) " |"
    print ""

    # ---- why targets are missed
    print "### Where a target is missed, and why"
    print ""
    any_missed = 0
    if (oa > 0 && oa < 1000 && ("openai_chat" in irb)) {
        any_missed = 1
        dom = group_share("openai_chat", "^Boost.JSON library")
        printf "- **1 GB/s (OpenAI Chat): %.0f MB/s.** The pipeline executes %.0f instructions per stream byte, %.0f%% of them in the\n", oa, irb["openai_chat"], dom
        printf "  Boost.JSON library: a DOM built for every event (about 300 bytes of JSON carrying 4 bytes of arguments), then\n"
        printf "  fields looked up in it (`find_in_object` also serves the duplicate-key check of every object built).\n"
        dom_name = "baseline/sse+json_dom/openai_chat/content:262144"; sax_name = "baseline/sse+json_sax/openai_chat/content:262144"
        if ((dom_name in cpu) && (sax_name in cpu)) {
            printf "  Measured directly (*Transport and baseline*): the SSE decoder plus a Boost.JSON DOM of each event, nothing\n"
            printf "  converted, runs at %s MB/s, the ceiling of the present design. The SSE decoder plus\n", fmt_rate(bytes[dom_name], cpu[dom_name])
            printf "  `boost::json::basic_parser` with a handler that keeps nothing runs at %s MB/s: the floor of any converter on\n", fmt_rate(bytes[sax_name], cpu[sax_name])
            printf "  Boost.JSON that builds no tree.\n"
        }
        printf "  SSE framing is %.1f%% of the instructions. Reaching 1 GB/s needs a converter that extracts the few fields it\n", group_share("openai_chat", "^SSE")
        printf "  uses while parsing (a SAX handler on `boost::json::basic_parser` following the chunk's paths, or a dedicated\n"
        printf "  scanner for the usual chunk shape with the DOM as fallback), and an argument decoder cheaper than Boost's\n"
        printf "  per-byte `parse_escaped` for escaped strings (%.0f%% here, most of the native assembly at large fragments).\n", group_share("openai_chat", "^Boost.JSON basic_parser")
        proto = "baseline/sse+sax_converter_prototype+api_tool_call/openai_chat/content:262144"
        if ((proto in cpu) && cpu[proto] > 0) {
            printf "  A prototype of the first half (`bench_pipelines.cpp`: a basic_parser handler that fills the chunk for this\n"
            printf "  stream's shapes, then the real `api_tool_call` handler) runs at %s MB/s end to end, %.1f× the pipeline, so the\n", fmt_rate(bytes[proto], cpu[proto]), (bytes[proto] / cpu[proto]) / (oa * 1e6)
            printf "  tree-less converter is worth building; 1 GB/s also needs the argument decoding and per-event overhead cut.\n"
        }
    }
    if (sp_min != "" && sp_min < 10) {
        any_missed = 1
        printf "- **10× against @streamparser/json: lowest %s.** That peer is linear too: V8's native `JSON.parse` of each\n", fmt_x(sp_min)
        printf "  event, then an incremental parser over the 4-byte argument deltas. Per event we do the same work (a JSON\n"
        printf "  parse of the whole event, then incremental argument decoding), so the ratio is the ratio of the per-event\n"
        printf "  JSON parse costs, Boost.JSON's DOM against V8's: "
        for (i = 1; i <= nsizes; ++i) if (("streamparser-json", sizes[i]) in ratio) printf "%s at %s; ", fmt_x(ratio["streamparser-json", sizes[i]]), size_label(sizes[i])
        printf "the same converter change as above (no tree per event) is what would widen it.\n"
    }
    if (!pol_ok) {
        any_missed = 1
        printf "- **500 MB/s at 16-byte chunks:**"
        for (j = 2; j <= npol; ++j) {
            pn = pols[j] "_chunk16"; if (prate[pols[j]] >= 500 || !(pn in irb)) continue
            printf " %s %.0f MB/s, %.0f instructions per byte (%.0f per 16-byte feed): %s.", pols[j], prate[pols[j]], irb[pn], 16 * irb[pn], top_groups(pn, 3)
        }
        if ("passthrough_chunk16" in irb) printf " For scale, passthrough (handler, writer and sink only) costs %.0f instructions per feed.", 16 * irb["passthrough_chunk16"]
        printf " At 16 bytes per call the fixed cost of each feed (marker search set-up, held-byte buffer, one CONTENT event) dominates; the json policy also re-parses the finished call into a `boost::json` tree for its END (`arguments`), a linear cost per call.\n"
    }
    if (with_peers && !quick && !sdk_ok) {
        any_missed = 1
        printf "- **1000× against the SDKs at 256 KiB:**"
        for (i = 1; i <= nsdk; ++i) {
            name = sdks[i]; s = 262144
            if (!((name, s) in ratio) || ratio[name, s] >= 1000) continue
            pt = ((name, s) in pcpu) ? pcpu[name, s] : t[name, s]
            need = bytes["pipeline/" peer_dialect[name] "/content:262144/write:16384"] / (pt / 1000) / 1e9
            printf " %s takes %s of CPU (exponent %s): 1000× would need toolstream to parse its %s stream at %.1f GB/s.", name, fmt_s(pt), exponent(name), peer_dialect[name], need
        }
        printf " These peers grow about linearly here (the Anthropic SDK parses the tool input once, at the end; the Vercel SDK's cost per delta is mostly per-event overhead at these sizes), so they are a constant factor slower and the ratio is bounded by our per-event JSON work, not by an algorithmic difference. Against the quadratic peers (openai-node 6, partial-json, jsonrepair) the ratio grows with N; openai-node 7 throttles its re-parsing and refuses streams of more than 65,536 argument fragments, which a 256 KiB call in 4-character deltas exceeds.\n"
    }
    if (!lin_ok && worst_scaling > 0) {
        any_missed = 1
        printf "- **Linear scaling:** worst t(4N)/t(N) %.2f (%s); the exponent column shows the trend over all four sizes.", worst_scaling, worst_pipe
        if (worst_pipe == "gemini" && gtotal["gemini_256k"] > 0 && gtotal["gemini_1m"] > 0)
            printf " The instructions executed grow %.2f× from 256 KiB to 1 MiB (callgrind), so the work is linear; the time is not because Gemini sends the whole call as one event, and every buffer holding it grows with N: at 1 MiB the 1.2 MB event, its DOM string, its arguments re-serialized for the decoder and the decoded content are each larger than this CPU's cache of %s (per core, /proc/cpuinfo), at 256 KiB each is 0.3 MB.", gtotal["gemini_1m"] / gtotal["gemini_256k"], cache
        printf " On a shared machine one slow stretch can also move a single ratio.\n"
    }
    if (!any_missed) print "None."
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
