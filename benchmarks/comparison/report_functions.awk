# The functions of the report program (benchmarks/comparison/report.sh runs report_*.awk as one
# awk program: these functions, then report_peers.awk, report_toolstream.awk, report_targets.awk).
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
    print "| every text format (" nfmt "; xml, json_calls, sentinel and the model-native formats) at " label " | ≥ " commas(target) " MB/s each | " (worst == "" ? "not measured" : sprintf("%d of %d met; lowest %.0f (%s)", nmet, nmet + nmissed, worst, worst_name)) " | " status(worst != "" && nmissed == 0) " |"
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
