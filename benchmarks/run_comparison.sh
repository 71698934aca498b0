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

# The parts, sourced from benchmarks/comparison/: measure.sh (run_all: everything that measures,
# into benchmarks/results/), report.sh (summarize_profiles and write_report: BENCHMARKS.md, by the
# awk program report_*.awk) and plot.sh (plot_report: docs/benchmarks.png).
comparison=$root/benchmarks/comparison
source "$comparison/measure.sh"
source "$comparison/report.sh"
source "$comparison/plot.sh"

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

summarize_profiles
write_report
plot_report

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
