# Sourced by benchmarks/run_comparison.sh: docs/benchmarks.png from the report's plot data
# (plot_report). Uses the settings run_comparison.sh defines and plot_data from write_report.

# One line per series: toolstream's two pipelines solid, the peers dashed.
plot_report() {
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
}
