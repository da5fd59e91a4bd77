# ncu's CSV of `make tune-stalls` as one TSV line per kernel: its shape (as
# tune_shapes names it, or cublas-fp32), the share of cycles a scheduler
# issued an instruction, and for each stall reason the cycles a warp spent
# stalled on it per instruction issued (ncu's warp-state metrics). Warps
# per scheduler times cycles per issue is what keeps issue slots busy: with
# two warps a scheduler, every 0.1 of stall per issue costs about 5 % of
# the slots.
#
#   awk -v n=4096 -f stalls_table.awk stalls.csv
BEGIN {
    FS = "\",\""
    split("selected not_selected dispatch_stall short_scoreboard long_scoreboard wait no_instruction barrier " \
          "mio_throttle math_pipe_throttle lg_throttle branch_resolving membar drain sleeping tex_throttle imc_miss misc",
          reasons, " ")
    nreasons = 0
    for (r in reasons) nreasons++
}
# ncu quotes every field: "ID","Process ID",...,"Metric Value".
/^"[0-9]/ {
    line = $0
    sub(/^"/, "", line)
    sub(/"$/, "", line)
    split(line, f, "\",\"")
    id = f[1] + 0
    if (!(id in shape)) { shape[id] = shape_of(f[5]); order[++kernels] = id }
    metric = f[13]
    value = f[15]
    gsub(/,/, "", value)
    if (metric ~ /^smsp__issue_active/) issue[id] = value
    else if (metric ~ /^smsp__average_warps_issue_stalled_/) {
        sub(/^smsp__average_warps_issue_stalled_/, "", metric)
        sub(/_per_issue_active\.ratio$/, "", metric)
        stall[id, metric] = value
    }
}
function shape_of(kernel,    a) {
    if (kernel !~ /matmul_warptile_kernel</) return kernel ~ /gemm/ ? "cublas-fp32" : kernel
    sub(/^[^<]*</, "", kernel)
    sub(/>.*$/, "", kernel)
    split(kernel, a, /, */)
    return a[1] "x" a[2] "x" a[3] " warp " a[4] "x" a[5] " x" a[6] " thread " a[7] "x" a[8] " stages " a[9]
}
END {
    printf "shape\tn\tissue_active_pct"
    for (r = 1; r <= nreasons; r++) printf "\t%s", reasons[r]
    printf "\n"
    for (k = 1; k <= kernels; k++) {
        id = order[k]
        printf "%s\t%s\t%.1f", shape[id], n, issue[id]
        for (r = 1; r <= nreasons; r++) printf "\t%.2f", stall[id, reasons[r]]
        printf "\n"
    }
}
