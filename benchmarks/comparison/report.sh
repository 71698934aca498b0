# Sourced by benchmarks/run_comparison.sh: BENCHMARKS.md from benchmarks/results/ (write_report),
# with the callgrind profiles summarised first (summarize_profiles). The report itself is one awk
# program, benchmarks/comparison/report_*.awk. Uses the settings run_comparison.sh defines.

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

# Each profile's instruction share per component (.groups) and heaviest functions (.top), beside it.
summarize_profiles() {
    for p in "$profiles"/*.txt "$profiles_before"/*.txt; do
        [[ -f $p ]] || continue
        profile_groups "$p" | sort -t$'\t' -k2,2nr > "${p%.txt}.groups"
        profile_top "$p" 8 > "${p%.txt}.top"
    done
}

# Writes BENCHMARKS.md; the hand-run sections of the report it replaces are kept.
write_report() {
    # The whole report is computed by one awk program (report_*.awk) from the TSV files.
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
        -f "$comparison/report_functions.awk" -f "$comparison/report_peers.awk" \
        -f "$comparison/report_toolstream.awk" -f "$comparison/report_targets.awk" \
        "$results/ours.tsv" "$results/peers.tsv" > "$report.new"
    # The hand-run sections (from "## Hand runs" on) of the report being replaced are kept.
    if [[ -f $report ]]; then
        awk '/^## Hand runs/ { keep = 1 } keep' "$report" >> "$report.new"
    fi
    mv "$report.new" "$report"
}
