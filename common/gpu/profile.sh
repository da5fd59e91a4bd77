#!/usr/bin/env bash
# The simulator's check report, measured on a GPU by Nsight Compute:
# global loads and stores (per thread and per warp-wide request), 32-byte
# sectors per request, shared loads and stores, and bank conflicts, for the
# first kernel a run launches.
#
#   common/gpu/profile.sh RUN_LAB N [MACHINE_OUT]   (make -C labs/NN profile N=...)
#
# MACHINE_OUT, if given, gets one line of key=value pairs named as in the
# simulator's SIM_CHECK_OUT lines, so the two can be compared.
set -euo pipefail
run_lab=$1 n=$2 machine=${3:-}
command -v ncu >/dev/null || { echo "profile: ncu (Nsight Compute) is not on PATH" >&2; exit 1; }
metrics=(
    smsp__sass_thread_inst_executed_op_global_ld.sum
    smsp__sass_thread_inst_executed_op_global_st.sum
    smsp__sass_thread_inst_executed_op_shared_ld.sum
    smsp__sass_thread_inst_executed_op_shared_st.sum
    l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
    l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
    l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
    l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
    launch__thread_count
)
csv=$(mktemp)
trap 'rm -f "$csv"' EXIT
# Thread-level instruction counts come from instrumented SASS; if this ncu
# cannot give them, the request, sector and conflict counters still can.
if ! ncu --launch-count 1 --metrics "$(IFS=,; echo "${metrics[*]}")" --csv --print-units base \
        "$run_lab" "$n" 1 1 > "$csv" 2> "$csv.err"; then
    ncu --launch-count 1 --metrics "$(IFS=,; echo "${metrics[*]:4}")" --csv --print-units base \
        "$run_lab" "$n" 1 1 > "$csv" 2>> "$csv.err" || { cat "$csv.err" >&2; rm -f "$csv.err"; exit 1; }
fi
rm -f "$csv.err"
# ncu's CSV: one row per metric; the last two fields are the unit and value.
awk -F'","' -v machine="$machine" '
    /^"ID"/ { next }
    NF > 5 { gsub(/"/, "", $NF); gsub(/,/, "", $NF); name = $(NF - 2); v[name] = $NF; kernel = $5 }
    END {
        t = v["launch__thread_count"]
        ld = v["smsp__sass_thread_inst_executed_op_global_ld.sum"]; st = v["smsp__sass_thread_inst_executed_op_global_st.sum"]
        lr = v["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]; ls = v["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
        sr = v["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"]; ss = v["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]
        cl = v["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]; cs = v["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]
        printf "[ncu] kernel %s, %d threads\n", kernel, t
        printf "[ncu]   global loads:  %d (%.2f per thread)\n", ld, t ? ld / t : 0
        printf "[ncu]   global stores: %d (%.2f per thread)\n", st, t ? st / t : 0
        printf "[ncu]   coalescing: %.2f sectors of 32 bytes per warp-wide load request, %.2f per store request\n", lr ? ls / lr : 0, sr ? ss / sr : 0
        printf "[ncu]   shared loads: %d, shared stores: %d\n", v["smsp__sass_thread_inst_executed_op_shared_ld.sum"], v["smsp__sass_thread_inst_executed_op_shared_st.sum"]
        printf "[ncu]   bank conflicts: %d extra wavefronts on loads, %d on stores\n", cl, cs
        if (machine != "")
            printf "threads=%d global_loads=%d global_stores=%d load_requests=%d load_sectors=%d store_requests=%d store_sectors=%d shared_loads=%d shared_stores=%d bank_conflicts_ld=%d bank_conflicts_st=%d\n",
                t, ld, st, lr, ls, sr, ss, v["smsp__sass_thread_inst_executed_op_shared_ld.sum"], v["smsp__sass_thread_inst_executed_op_shared_st.sum"], cl, cs > machine
    }' "$csv"
