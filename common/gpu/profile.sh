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
. "$(dirname "$0")/../c_numbers.sh"   # C's numbers (1.5, not 1,5), whatever the locale
run_lab=$1 n=$2 machine=${3:-}
command -v ncu >/dev/null || { echo "profile: ncu (Nsight Compute) is not on PATH" >&2; exit 1; }
# The first four count per thread, like the simulator: Nsight Compute gets
# them by patching the kernel's machine code.
metrics=(
    sass__inst_executed_global_loads
    sass__inst_executed_global_stores
    sass__inst_executed_shared_loads
    sass__inst_executed_shared_stores
    l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
    l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
    l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
    l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
    launch__thread_count
)
# The report also wants DRAM traffic, for its table (each level's traffic
# for the roofline is common/gpu/level_traffic.sh's, at the largest size).
[ -n "${PROFILE_DRAM:-}" ] && metrics+=(dram__bytes_read.sum dram__bytes_write.sum)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
csv=$work/metrics.csv
# Thread-level instruction counts come from instrumented SASS; if this ncu
# cannot give them, the request and sector counters still can.
if ! ncu --clock-control none --launch-count 1 --metrics "$(IFS=,; echo "${metrics[*]}")" --csv --print-units base \
        "$run_lab" "$n" 1 1 > "$csv" 2> "$work/run.log"; then
    ncu --clock-control none --launch-count 1 --metrics "$(IFS=,; echo "${metrics[*]:4}")" --csv --print-units base \
        "$run_lab" "$n" 1 1 > "$csv" 2>> "$work/run.log" || { cat "$work/run.log" >&2; exit 1; }
fi
# Bank conflicts as the simulator counts them: wavefronts beyond the fewest
# the addresses allow, per shared-memory instruction. The SourceCounters
# section has both numbers for every instruction of the machine code, in a
# second pass of its own (l1tex__data_bank_conflicts_* counts something
# else: on an H200 it finds tens of thousands in stage 04, whose addresses
# need no extra wavefront).
: > "$work/source.csv"
ncu --clock-control none --launch-count 1 --section SourceCounters -o "$work/profile" "$run_lab" "$n" 1 1 \
        >> "$work/run.log" 2>&1 &&
    ncu --import "$work/profile.ncu-rep" --csv --print-units base --page source --print-source sass \
        > "$work/source.csv" 2>> "$work/run.log" || true
# PROFILE_KEEP=FILE keeps a copy of ncu's per-instruction table (to read it, or debug the sums).
[ -n "${PROFILE_KEEP:-}" ] && cp "$work/source.csv" "$PROFILE_KEEP"
# Per instruction: its wavefronts and its ideal, summed over loads and over
# stores (cp.async's LDGSTS is a copy into shared memory, counted as a store).
excess=$(awk -F'","' '
    function opcode(text) { sub(/^[ \t"]*/, "", text); sub(/^@!?U?P[0-9T]+ +/, "", text); split(text, w, /[ .]/); return w[1] }
    !header && /Wavefronts Shared/ {
        for (i = 1; i <= NF; i++) {
            f = $i; gsub(/"/, "", f)
            if (f == "Source") src = i
            else if (f ~ /Wavefronts Shared Ideal/) ideal = i
            else if (f ~ /Wavefronts Shared Excessive/) over = i
            else if (f ~ /Wavefronts Shared$/) all = i
        }
        header = 1; next
    }
    header && src {
        op = opcode($src)
        if (over) x = $over; else if (all && ideal) x = $all - $ideal; else next
        gsub(/[",]/, "", x)
        if (op ~ /^LDS/) ld += x
        else if (op ~ /^(STS|LDGSTS)/) st += x
    }
    # A kernel with no shared-memory instruction has none beyond the ideal.
    END { if (header && src) printf "%d %d\n", ld, st; else print "n/a n/a" }' "$work/source.csv")
# ncu's CSV: one row per metric; the last two fields are the unit and value.
awk -F'","' -v machine="$machine" -v excess="$excess" '
    function val(k) { return (k in v) ? v[k] : "n/a" }
    function per(a, b) { return (a == "n/a" || b == "n/a" || b + 0 == 0) ? "n/a" : sprintf("%.2f", a / b) }
    /^"ID"/ { next }
    NF > 5 { gsub(/"/, "", $NF); gsub(/,/, "", $NF); v[$(NF - 2)] = $NF; kernel = $5 }
    END {
        t = val("launch__thread_count")
        ld = val("sass__inst_executed_global_loads"); st = val("sass__inst_executed_global_stores")
        sl = val("sass__inst_executed_shared_loads"); ss_ = val("sass__inst_executed_shared_stores")
        lr = val("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"); ls = val("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
        sr = val("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"); ss = val("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")
        split(excess, x, " "); cl = x[1]; cs = x[2]
        dr = val("dram__bytes_read.sum"); dw = val("dram__bytes_write.sum")
        printf "[ncu] kernel %s, %s threads\n", kernel, t
        printf "[ncu]   global loads:  %s (%s per thread)\n", ld, per(ld, t)
        printf "[ncu]   global stores: %s (%s per thread)\n", st, per(st, t)
        printf "[ncu]   coalescing: %s sectors of 32 bytes per warp-wide load request, %s per store request\n", per(ls, lr), per(ss, sr)
        printf "[ncu]   shared loads: %s, shared stores: %s\n", sl, ss_
        printf "[ncu]   bank conflicts: %s wavefronts beyond the ideal on loads, %s on stores\n", cl, cs
        if (machine != "") {
            line = ""
            n = split("threads global_loads global_stores load_requests load_sectors store_requests store_sectors shared_loads shared_stores bank_conflicts_ld bank_conflicts_st dram_read_bytes dram_write_bytes", keys, " ")
            split(t " " ld " " st " " lr " " ls " " sr " " ss " " sl " " ss_ " " cl " " cs " " dr " " dw, vals, " ")
            for (i = 1; i <= n; i++) if (vals[i] != "n/a") line = line (line == "" ? "" : " ") keys[i] "=" vals[i]
            print line > machine
        }
    }' "$csv"
