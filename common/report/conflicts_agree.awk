# Bank conflicts counted twice: by the simulator's check mode and by Nsight
# Compute on a GPU, both as shared-memory wavefronts beyond the fewest the
# addresses allow.  The two reports count at different sizes (the simulator
# at n <= 256, ncu at n = 1024), so each count is taken per multiply-add
# (over n^3): a full-tile kernel's conflicts grow as n^3, and the ratio is
# the same at every size both count.  Load counts.awk first (report_awk).
#
#   report_awk -f ... SIM_COUNTERS GPU_COUNTERS      (plot.sh; tests/conflicts_agree.sh)
#   mode=table: Markdown rows, one per kernel the GPU report counted.
#   mode=check: one line per disagreement; exit status 1 if there is one.
#   open="LABEL:SIDE ...": kernels whose stores (SIDE stores) or loads
#       (SIDE loads) are not compared (common/report/conflicts_open.tsv
#       says why), their other side only.
#
# Two counts agree when both are 0, or when they differ by at most
# `tolerance` of the larger (5 %: the counts are exact, so this only allows
# for a launch the two tools split differently).
function per_fma(c, n) { return c / (n * n * n) }
function agrees(a, b,    m) { m = a > b ? a : b; return m == 0 || (a > b ? a - b : b - a) <= tolerance * m }
BEGIN { if (tolerance == "") tolerance = 0.05 }
FNR == 1 { file++; next }
# The simulator: each kernel at the largest size it counted.
file == 1 {
    read_counts($3, v)
    if (!("bank_conflicts_ld" in v) || ($1 in sim_n && sim_n[$1] > $2 + 0)) next
    sim_n[$1] = $2 + 0; sim_ld[$1] = v["bank_conflicts_ld"]; sim_st[$1] = v["bank_conflicts_st"]
    next
}
file == 2 {
    read_counts($3, v)
    label = $1; n = $2 + 0
    if (!(label in sim_n)) { if (mode == "table") printf "| %s | — | %d | — | — | not counted by the simulator |\n", label, n; next }
    if (!("bank_conflicts_ld" in v)) { if (mode == "table") printf "| %s | %d | %d | %d/%d | — | ncu gave no count |\n", label, sim_n[label], n, sim_ld[label], sim_st[label]; next }
    stores_open = index(" " open " ", " " label ":stores ") > 0
    loads_open = index(" " open " ", " " label ":loads ") > 0
    ok = (loads_open || agrees(per_fma(sim_ld[label], sim_n[label]), per_fma(v["bank_conflicts_ld"], n))) &&
         (stores_open || agrees(per_fma(sim_st[label], sim_n[label]), per_fma(v["bank_conflicts_st"], n)))
    if (mode == "table")
        printf "| %s | %d | %d | %d/%d (%.3g/%.3g) | %d/%d (%.3g/%.3g) | %s |\n", label, sim_n[label], n,
            sim_ld[label], sim_st[label], 1000 * per_fma(sim_ld[label], sim_n[label]), 1000 * per_fma(sim_st[label], sim_n[label]),
            v["bank_conflicts_ld"], v["bank_conflicts_st"], 1000 * per_fma(v["bank_conflicts_ld"], n), 1000 * per_fma(v["bank_conflicts_st"], n),
            !ok ? "**disagree**" : stores_open ? "loads agree; stores open (conflicts_open.tsv)" : loads_open ? "stores agree; loads open (conflicts_open.tsv)" : "agree"
    else if (!ok) {
        printf "%s: the simulator counts %d/%d (ld/st) at n = %d, ncu %d/%d at n = %d: not the same per multiply-add\n",
            label, sim_ld[label], sim_st[label], sim_n[label], v["bank_conflicts_ld"], v["bank_conflicts_st"], n
        bad = 1
    }
}
END { if (mode == "check") exit bad }
