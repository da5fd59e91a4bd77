#!/usr/bin/env bash
# Each memory level's traffic for one kernel launch, measured by Nsight
# Compute, for the report's roofline (common/report/plot.sh): the bytes DRAM
# moved (read and written), the bytes the L2 served or took (lts__t_bytes:
# every request from the SMs, hits and misses alike), and the wavefronts
# the shared-memory pipe spent (one moves up to 128 bytes; a bank conflict
# costs more of them, so they measure the pipe's work, not the bytes asked).
# Plain counters, no replay of the machine code: quick even at n = 4096.
#
#   common/gpu/level_traffic.sh LABEL N PROGRAM ARGS...
#
# Prints "LABEL<TAB>N<TAB>dram_bytes<TAB>l2_bytes<TAB>shared_wavefronts" for
# the program's first kernel launch.
set -euo pipefail
. "$(dirname "$0")/../c_numbers.sh"   # C's numbers, whatever the locale
label=$1 n=$2
shift 2
command -v ncu >/dev/null || { echo "level_traffic: ncu (Nsight Compute) is not on PATH" >&2; exit 1; }
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
csv=$(ncu --clock-control none --launch-count 1 --metrics "$metrics" --csv --print-units base "$@" 2>&1) ||
    { echo "$csv" >&2; exit 1; }
# ncu's CSV: one row per metric; the last two fields are the unit and value.
echo "$csv" | awk -F'","' -v label="$label" -v n="$n" '
    /^"ID"/ || NF <= 5 { next }
    { gsub(/"/, "", $NF); gsub(/,/, "", $NF); v[$(NF - 2)] = $NF }
    END {
        if (!("lts__t_bytes.sum" in v)) { print "level_traffic: ncu measured nothing" > "/dev/stderr"; exit 1 }
        printf "%s\t%s\t%.0f\t%.0f\t%.0f\n", label, n, v["dram__bytes_read.sum"] + v["dram__bytes_write.sum"],
            v["lts__t_bytes.sum"], v["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"]
    }'
