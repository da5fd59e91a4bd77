#!/usr/bin/env bash
# The simulator's hazard and bounds findings, from a GPU: compute-sanitizer's
# memcheck (out-of-bounds and misaligned accesses), racecheck (shared-memory
# hazards) and synccheck (barriers in divergent code), one run each.
#
#   common/gpu/sanitize.sh RUN_LAB N        (make -C labs/NN sanitize N=...)
set -uo pipefail
run_lab=$1 n=$2
command -v compute-sanitizer >/dev/null || { echo "sanitize: compute-sanitizer is not on PATH" >&2; exit 1; }
status=0
for tool in memcheck racecheck synccheck; do
    echo "== compute-sanitizer --tool $tool"
    extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
    out=$(compute-sanitizer --tool "$tool" "${extra[@]}" --print-limit 10 "$run_lab" "$n" 1 1 2>&1)
    echo "$out" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard|Invalid|Barrier|Error|at .*matmul\.cu' | head -n 20
    echo "$out" | grep -qE 'SUMMARY: 0 (errors|hazards displayed \(0 errors)' || status=1
done
exit $status
