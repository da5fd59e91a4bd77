#!/usr/bin/env bash
# The kit end to end on a real GPU: the solutions score full marks, the
# skeletons 0, a hanging and an exiting submission lose their points
# without stopping the grader, products made on the host score nothing,
# kernels the simulator judges by a GPU's limits are judged alike here, the
# simulator's tensor cores answer as this GPU's, and a large run prints
# GFLOP/s.
#
#   grader/tests/on_gpu.sh [LOG_DIR]     (needs nvcc, a GPU, and Check or CHECK_PREFIX)
#   ONLY="hang fault agreement" grader/tests/on_gpu.sh   # only the parts named, to re-run
#       some: a check's name as its "ok"/"FAIL" line prints it, fault,
#       barrier-after-return, agreement (the tensor cores) or run-4096
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/grader/lib.sh"   # score, points_table
full01=$(score max "$(points_table 01-naive)")
logs=${1:-$root/build/test-gpu}
mkdir -p "$logs"
cd "$root"
failures=0
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$logs/gpu.txt"
nvcc --version | tail -n 2 | tee -a "$logs/gpu.txt"

# wanted NAME: whether this run does the part NAME (all of them without ONLY).
wanted() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }

# check NAME EXPECTED_SCORE [PHRASE] -- make grade arguments...
check() {
    local name=$1 want=$2 phrase=$3
    shift 3
    wanted "$name" || return 0
    # V=1: every test's line, since the phrase may be in any of them (a
    # summary shows only a stage's first failure, often at n=1).
    make --no-print-directory grade BACKEND=gpu V=1 GRADE_OUT="$logs/$name" "$@" > "$logs/$name.log" 2>&1
    local got
    got=$(sed -n 's/^Score: //p' "$logs/$name.log")
    # "full" means x/x, "zero" 0/x.
    local ok=no
    case "$want" in
        full) [ -n "$got" ] && [ "${got%/*}" = "${got#*/}" ] && ok=yes
            # Without clang there is no check mode: only structural tests may fail, and say why.
            if [ $ok = no ] && ! command -v clang++ >/dev/null &&
                ! grep -E '  FAIL ' "$logs/$name.log" | grep -qv 'clang++ is missing'; then
                ok=yes; got="$got (structural tests need clang++, missing here)"
            fi ;;
        zero) [ "${got%/*}" = 0 ] && ok=yes ;;
        *) [ "$got" = "$want" ] && ok=yes ;;
    esac
    if [ $ok = yes ] && { [ -z "$phrase" ] || grep -qF -- "$phrase" "$logs/$name.log"; }; then
        echo "ok   $name: Score: $got"
    else
        echo "FAIL $name: Score: ${got:-none}, expected $want ${phrase:+saying \"$phrase\"}"
        failures=$((failures + 1))
    fi
    grep -E '^(==|  [0-9]+-[a-z]|Score)' "$logs/$name.log"
}

bad=grader/tests/bad-kernels
check solutions full "" SUBMISSION=solutions
check skeletons zero "still has TODO 1" SUBMISSION=labs
check hang "0/$full01" "no result after" SUBMISSION=$bad/hang LAB=01-naive GRADE_TIMEOUT_SCALE=0.2
check exit-early "0/$full01" "before it returned every result" SUBMISSION=$bad/exit-early LAB=01-naive
# Products made on the host, seen by the GPU build's own ledger
# (grader/gpu_ledger.cpp) at the size each test runs.
check host-compute "0/$full01" "n=1000: matmul itself copied 8000000 bytes" SUBMISSION=$bad/host-compute LAB=01-naive
check host-compute-above-100 "16/$full01" "n=1000: matmul itself copied 8000000 bytes" \
    SUBMISSION=$bad/host-compute-above-100 LAB=01-naive
check host-compute-pinned "0/$full01" "kernel launches with host memory in reach" SUBMISSION=$bad/host-compute-pinned \
    LAB=01-naive
check host-compute-managed "0/$full01" "kernel launches with host memory in reach" \
    SUBMISSION=$bad/host-compute-managed LAB=01-naive
check host-compute-symbols "0/$full01" "n=1000: matmul itself copied 8000000 bytes" \
    SUBMISSION=$bad/host-compute-symbols LAB=01-naive
# A and B carried out by a kernel's printf, the product uploaded: the
# upload counts (below n = 5 the product fits in a matmul's own 64 bytes).
check host-compute-printf "3/$full01" "n=1000: matmul itself copied 4000000 bytes from the host to the device" \
    SUBMISSION=$bad/host-compute-printf LAB=01-naive
check rebuilds-inputs-on-host "0/$full01" "elements wrong; first at" SUBMISSION=$bad/rebuilds-inputs-on-host \
    LAB=01-naive GRADE_SEED=4242
# Right on the GPU, uncoalesced all the same: every size test passes here
# too, and the coalescing test (the simulator's sector counts, as on any
# backend) is lost.
kernel01=$(score kernel_max "$(points_table 01-naive)")
check uncoalesced-rows-on-x "$((kernel01 - 2))/$full01" "the global loads are not coalesced" \
    SUBMISSION=$bad/uncoalesced-rows-on-x LAB=01-naive
# Stage 09 made by FP32 multiply-adds beside mma_sync calls that add up to
# n^3: right here too, and both tensor-core tests lost (the probe runs the
# simulator's check build, as every structural test does on any backend).
kernel09=$(score kernel_max "$(points_table 09-tensor-cores)")
check fp32-beside-counted-mma "$((kernel09 - 4))/$(score max "$(points_table 09-tensor-cores)")" "C did not double" \
    SUBMISSION=$bad/fp32-beside-counted-mma LAB=09-tensor-cores
# What the simulator judges from nvcc's report, or from its own stand-ins
# for a GPU's local memory and heap, the GPU judges itself: both must agree
# (grader/tests/bad_kernels.sh and grade_stages.sh on the simulator).
full07=$(score max "$(points_table 07-register-tiling)")
check static-plus-dynamic-shared "0/$full07" "invalid argument" SUBMISSION=$bad/static-plus-dynamic-shared \
    LAB=07-register-tiling
# Right kernels, with their stage's right answers beside them: full marks.
for kernel in static-plus-dynamic-shared/07-register-tiling row-in-local-memory/01-naive \
        device-heap-scratch/01-naive occupancy-api/01-naive block-scoped-atomics/01-naive \
        eight-byte-banks/06-bank-conflicts asks-device-properties/08-warp-tiling opt-in-or-fall-back/08-warp-tiling; do
    stage=${kernel#*/} sub="$logs/submission-${kernel%/*}"
    rm -rf "$sub" && mkdir -p "$sub" && cp -R "grader/tests/right-kernels/$kernel" "$sub/" &&
        cp "solutions/$stage/answers.txt" "$sub/$stage/"
    check "right-${kernel%/*}" full "" SUBMISSION="$sub" LAB="$stage"
done
# This GPU made to look like one that offers a block 48 KiB of shared
# memory (grader/gpu_device_offer.cpp): stage 08's launcher that asks the
# device nothing (the mutant asks-nothing) loses that test's points alone,
# its opt-in refused as the small GPU would refuse it.
full08=$(score max "$(points_table 08-warp-tiling)")
sub="$logs/submission-asks-nothing"
rm -rf "$sub" && mkdir -p "$sub/08-warp-tiling" && cp solutions/08-warp-tiling/answers.txt "$sub/08-warp-tiling/" &&
    patch -s -p1 -o "$sub/08-warp-tiling/matmul.cu" solutions/08-warp-tiling/matmul.cu \
        < grader/mutants/08-warp-tiling/asks-nothing.patch
check asks-nothing "$((full08 - 2))/$full08" "on a GPU that offers a block 49152 bytes" SUBMISSION="$sub" LAB=08-warp-tiling
# And like a GeForce RTX 30 or 40 (99 KiB): stage 09's launcher takes
# BK = 16 there, and a k loop written for 32 (the mutant k-loop-for-32)
# loses that test alone.
full09=$(score max "$(points_table 09-tensor-cores)")
sub="$logs/submission-k-loop-for-32"
rm -rf "$sub" && mkdir -p "$sub/09-tensor-cores" && cp solutions/09-tensor-cores/answers.txt "$sub/09-tensor-cores/" &&
    patch -s -p1 -o "$sub/09-tensor-cores/matmul.cu" solutions/09-tensor-cores/matmul.cu \
        < grader/mutants/09-tensor-cores/k-loop-for-32.patch
check k-loop-for-32 "$((full09 - 2))/$full09" "on a GPU that offers a block 101376 bytes" SUBMISSION="$sub" LAB=09-tensor-cores
# What the GPU itself makes of two mistakes the simulator reports exactly:
# recorded, not asserted (a small overrun need not fault on a GPU).
for name in fault barrier-after-return; do
    wanted "$name" || continue
    make --no-print-directory grade BACKEND=gpu GRADE_OUT="$logs/$name" SUBMISSION=$bad/$name LAB=01-naive \
        > "$logs/$name.log" 2>&1
    echo "$name on this GPU:"; grep -E '^Score|FAIL' "$logs/$name.log" | head -n 12
done

# The simulator's model of a tensor core (fragment layout, TF32 rounding,
# products) beside this GPU's own answers.
if ! wanted agreement; then
    :
elif nvcc -O2 -arch=sm_80 -I common/sim -o "$logs/tensor_core_agreement" common/sim/agreement/tensor_cores.cu \
        > "$logs/tensor_core_agreement.log" 2>&1 &&
        "$logs/tensor_core_agreement" >> "$logs/tensor_core_agreement.log" 2>&1; then
    sed 's/^/     /' "$logs/tensor_core_agreement.log"
    echo "ok   the simulator's tensor cores agree with this GPU"
else
    sed 's/^/     /' "$logs/tensor_core_agreement.log"
    echo "FAIL the simulator's tensor cores differ from this GPU ($logs/tensor_core_agreement.log)"
    failures=$((failures + 1))
fi

if wanted run-4096; then
    make --no-print-directory -C solutions/01-naive run BACKEND=gpu N=4096 2>&1 | tee "$logs/run-4096.txt"
    make --no-print-directory -C labs/01-naive run BACKEND=gpu N=abc 2>&1 | tail -n 2
fi
[ $failures -eq 0 ]
