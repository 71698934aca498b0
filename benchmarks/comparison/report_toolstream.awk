# The report's sections on toolstream alone: pipelines, text policies, transport and baseline,
# allocations, compile time, callgrind profiles and every registered text format. Part of the
# report program of report.sh, after report_peers.awk.
END {
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
    print "the whole call (and, for a JSON call in text, one per 64 KiB block of its raw text), not allocations"
    print "per chunk. *Peak heap*: the most heap held at once while the"
    print "stream is read, above what was held before it. N is the call's arguments as JSON text, as the target"
    print "counts them; *body* is its decoded content (the mixed stream holds three calls). *no_retention*: the"
    print "application takes the body from the events and the library keeps none of it."
    print ""

    # ---- compile time
    c_cpu = json_num(compile_json, "usage_cpu_s"); c_wall = json_num(compile_json, "usage_wall_s"); c_floor = json_num(compile_json, "floor_cpu_s")
    c_x = json_num(compile_json, "usage_x_floor"); c_rx = json_num(compile_json, "runtime_x_floor"); c_rmb = json_num(compile_json, "runtime_rss_mb")
    print "## Compile time"
    print ""
    print "`benchmarks/compile_time.sh`, `g++ -std=c++20 -O2 -c`, median of " json_num(compile_json, "runs") " runs, each TU against the floor"
    print "compiled in the same run (a TU that only parses with Boost.JSON: a SAX handler and a DOM parse)."
    print "`usage` is `examples/usage.cpp` as a CMake user compiles it (the toolstream target's"
    print "`TOOLSTREAM_SEPARATE_COMPILATION`), `usage_header_only` the same TU with no macro, and `compiled`"
    print "the library's out-of-line part the target adds (`src/toolstream.cpp`), once per program."
    print "`runtime` is the umbrella plus a `runtime_pipeline` writing OpenAI SSE, as written;"
    print "`runtime_object` the run-time path's one TU (`src/runtime_pipeline.cpp`, CMake's `toolstream::runtime`),"
    print "compiled once per program; `replay`, `replay_serve` and `gateway` the programs' own TUs (each program"
    print "is its TUs, `compiled` and `runtime_object`)."
    print ""
    print "| TU | CPU s | × floor | compiler MB | preprocessed lines |"
    print "|---|---|---|---|---|"
    c_count = split("floor usage usage_header_only compiled runtime runtime_object replay replay_serve gateway", c_tus, " ")
    for (j = 1; j <= c_count; ++j)
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
}
