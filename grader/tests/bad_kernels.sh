#!/usr/bin/env bash
# The grader against submissions that go wrong in every way we know of
# (see bad-kernels/README.md): each must lose exactly the points it should,
# say why, and leave the grader running normally.
#
#   grader/tests/bad_kernels.sh       (run by `make test`; needs build/grader/grade_suite)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cases="$root/grader/tests/bad-kernels"
out="$root/build/test-grading/bad-kernels"
failures=0
. "$root/grader/lib.sh"   # score, points_table
. "$root/grader/tests/case_pool.sh"   # pool_case, pool_settle: the cases a few at once
# Stage 01's points, and those of its kernel alone: these submissions have
# no answers.txt, so the quiz's points are lost whatever the kernel.
full01=$(score max "$(points_table 01-naive)")
kernel_points() { score kernel_max "$(points_table "$1")"; }
kernel01=$(kernel_points 01-naive)

# expect CASE SCORE PHRASE [LAB]: grading CASE's stage LAB (01-naive unless
# said) ends normally with SCORE, and its output contains PHRASE (or one of
# its alternatives, separated by "||").  Beside other cases (case_pool.sh).
expect() { pool_case "$1" expect_now "$@"; }
expect_now() {
    local name=$1 score=$2 phrase=$3 lab=${4:-01-naive} log="$out/$1.log"
    mkdir -p "$out/$name"
    # Short time limits: the hanging kernel costs seconds, not minutes.  A
    # case whose point is a long run on the host (no kernel, so no progress
    # that stretches the limit) sets CASE_TIMEOUT_SCALE=1: at 0.2 its n=1000
    # run (1 s alone) was stopped on a busy two-core machine.
    SUBMISSION="${FROM:-$cases}/$name" LAB=$lab GRADE_OUT="$out/$name" GRADE_TIMEOUT_SCALE=${CASE_TIMEOUT_SCALE:-0.2} V=1 \
        "$root/grader/grade.sh" > "$log" 2>&1
    local status=$?
    if [ $status -ne 0 ]; then
        echo "FAIL $name: the grader exited with status $status"; failures=$((failures + 1)); return
    fi
    if ! grep -qx "Score: $score" "$log"; then
        echo "FAIL $name: expected Score: $score, got: $(grep '^Score' "$log")"; failures=$((failures + 1)); return
    fi
    if ! grep -qF -- "${phrase//||/$'\n'}" "$log"; then
        echo "FAIL $name: the output does not say \"$phrase\" (see $log); its failed tests say:"
        grep -E '^ +.* FAIL ' "$log" | cut -c1-240 | sed 's/^/       /'
        failures=$((failures + 1)); return
    fi
    if ! grep -q "\"score\": ${score%/*}," "$out/$name/results.json"; then
        echo "FAIL $name: results.json does not hold score ${score%/*}"; failures=$((failures + 1)); return
    fi
    # Nothing the submission started outlives its grading.
    if pgrep -f "$out/$name/" > /dev/null; then
        echo "FAIL $name: still running after its grading: $(pgrep -af "$out/$name/" | head -n 1)"
        pkill -KILL -f "$out/$name/"; failures=$((failures + 1)); return
    fi
    echo "ok   $name: Score: $score, says \"$phrase\""
}

# A build's temporaries stay in the grader's scratch, whatever becomes of
# the build: nvcc leaves an empty file behind when a build with -keep fails,
# and its files when it is stopped at a limit.  Such a grading runs with
# TMPDIR set to an empty folder, which must stay empty.
machine_tmp() { rm -rf "$out/machine-tmp" && mkdir -p "$out/machine-tmp" && echo "$out/machine-tmp"; }
nothing_left_in_machine_tmp() {
    local left
    left=$(ls -A "$out/machine-tmp")
    [ -z "$left" ] && return
    echo "FAIL $1: its grading left files in TMPDIR: $(echo "$left" | head -n 3 | paste -sd' ' -)"
    failures=$((failures + 1))
}

# Without an edge guard only whole blocks are right: n = 16 and 64, and the
# coalescing test at n = 128 (its loads are the solution's), 4 points.
expect fault 4/$full01 "illegal memory access"
expect hang 0/$full01 "no result after"
expect hang-in-forked-child 0/$full01 "no result after"
expect exit-early 0/$full01 "before it returned every result"
# Copies of the program in a session of their own: the kernel keeps its
# points, and expect() finds none of them left running.
expect escapes-its-group $kernel01/$full01 "n=1000, 1 random input: correct"
# g++'s message, or nvcc's when the simulator's build asks nvcc first.
TMPDIR=$(machine_tmp) expect no-compile 0/$full01 "expected ';'||expected a \";\""
pool_settle
nothing_left_in_machine_tmp no-compile
expect barrier-after-return 4/$full01 "have already returned"
expect prints-score 0/$full01 "C is all NaN"
expect missing-file 0/$full01 "no 01-naive/matmul.cu in the submission"
expect misnamed-file 0/$full01 "the folder has MatMul.cu: the file graded must be named matmul.cu"
expect misnamed-function 0/$full01 "01-naive/matmul.cu defines no function void matmul(const float *A, const float *B, float *C, int n), which the kit's harness calls"
# Right answers computed on the host: no test counts them, neither the
# size tests (the run's own ledger of copies) nor the structural ones.
expect host-compute 0/$full01 "C must be computed by your kernel on the device"
expect host-compute-copy-kernel 0/$full01 "n=100: matmul itself copied 80000 bytes from the device to the host"
# Honest where a check build looks (n <= 100), the host's product above:
# the run's own ledger sees it at the size it runs (on a GPU too,
# grader/gpu_ledger.cpp): the tests of n > 100 score nothing.
CASE_TIMEOUT_SCALE=1 expect host-compute-above-100 16/$full01 "n=1000: matmul itself copied 8000000 bytes from the device to the host"
# The same in a later stage, whose structural tests (loads per element,
# barriers, bounds) a copy kernel would pass on its own.
full04=$(score max "$(points_table 04-tiled)")
CASE_TIMEOUT_SCALE=1 expect host-compute-04 0/$full04 "n=1000: matmul itself copied 8000000 bytes from the device to the host" 04-tiled
# A GPU keeps no ledger of copies: there each size test asks the check
# build of the same matmul.cu (at n <= 100).  GRADE_LEDGER_FROM_CHECK=1
# takes that way here: the cheat still scores 0, a right kernel all its
# kernel points.
GRADE_LEDGER_FROM_CHECK=1 expect host-compute-copy-kernel 0/$full01 \
    "(counted by the simulator, which ran the same matmul.cu at n=100)"
# The same product carried without cudaMemcpy: by kernels through pinned
# host memory or __managed__ arrays, or through __device__ arrays and the
# symbol copies.  On the run's own ledger and on the check build's.
expect host-compute-pinned 0/$full01 "matmul made 9 kernel launches with host memory in reach"
GRADE_LEDGER_FROM_CHECK=1 expect host-compute-pinned 0/$full01 "matmul made 3 kernel launches with host memory in reach"
expect host-compute-managed 0/$full01 "matmul made 6 kernel launches with host memory in reach"
CASE_TIMEOUT_SCALE=1 expect host-compute-symbols 0/$full01 "n=1000: matmul itself copied 8000000 bytes from the device to the host"
GRADE_LEDGER_FROM_CHECK=1 expect host-compute-symbols 0/$full01 \
    "(counted by the simulator, which ran the same matmul.cu at n=100)"
# A and B carried out by a kernel's printf into a file the host reads back,
# the product uploaded to a buffer a kernel copies into C: nothing leaves by
# a copy, but the upload counts.  Below n = 5 the whole product fits in the
# 64 bytes a call a matmul may copy in of its own: those three tests' points
# stay.
CASE_TIMEOUT_SCALE=1 expect host-compute-printf 3/$full01 "n=1000: matmul itself copied 4000000 bytes from the host to the device"
GRADE_LEDGER_FROM_CHECK=1 expect host-compute-printf 3/$full01 \
    "(counted by the simulator, which ran the same matmul.cu at n=100)"
# The inputs rebuilt on the host from the test's seed, nothing copied off
# the device: the seed is neither in lab_exec's arguments nor in its
# environment by the time matmul runs, whatever the instructor's seed.
expect rebuilds-inputs-on-host 0/$full01 "elements wrong; first at"
GRADE_SEED=4242 expect rebuilds-inputs-on-host 0/$full01 "elements wrong; first at"
# Host memory hidden inside a structure escapes the ledger, so the size
# tests count this one (the README says so); check mode counts every access
# to host memory, and no structural test credits it.
size01=$(awk -F'\t' '!/^#/ && $1 ~ /^n=/ { m += $2 } END { print m + 0 }' "$(points_table 01-naive)")
expect host-compute-hidden-pointer "$size01/$full01" "the kernels made 30000 accesses to host memory"
right="$root/grader/tests/right-kernels/grid-stride-1d"
right_ledger_from_check() {
    mkdir -p "$out/right-ledger-from-check"
    if GRADE_LEDGER_FROM_CHECK=1 SUBMISSION="$right" LAB=01-naive GRADE_OUT="$out/right-ledger-from-check" \
            "$root/grader/grade.sh" > "$out/right-ledger-from-check.log" 2>&1 &&
            grep -qx "Score: $kernel01/$full01" "$out/right-ledger-from-check.log"; then
        echo "ok   right kernel, copies asked of the check build: Score: $kernel01/$full01"
    else
        echo "FAIL right kernel, copies asked of the check build: not $kernel01/$full01 (see $out/right-ledger-from-check.log)"
        failures=$((failures + 1))
    fi
}
pool_case right-ledger-from-check right_ledger_from_check
# Right answers from a B it transposed in place and left so: every size
# test but n=1 (a 1x1 B is its own transpose) fails on the changed input;
# the structural test (a kernel computed C) still passes.
expect modifies-input 6/$full01 "matmul changed its input B"
# The naive kernel reading A and B through atomics (atomicAdd(p, 0.0f)) or
# device-side memcpy, neither a load instruction in the kernel's own code:
# its loads are counted all the same, and the loads rule fails.  Stage 04's
# kernel points less the two loads tests (3 each), the tests at n=100 (6:
# the kernel there is the naive one, below), and for the atomics also the
# one-store test (2): an atomic is a store too.
kernel04=$(kernel_points 04-tiled)
expect loads-through-atomics $((kernel04 - 14))/$full04 "256.00 floats loaded from global memory per element of C" 04-tiled
expect loads-through-memcpy $((kernel04 - 12))/$full04 "256.00 floats loaded from global memory per element of C" 04-tiled
# Tiled only where TILE divides n, the naive kernel elsewhere: right at
# every size, and the loads tests (n=128) pass; the tests at n=100, where
# tiles are partial, ask that the kernel tile there too.
expect naive-where-tile-does-not-divide $((kernel04 - 6))/$full04 "the kernel read no shared memory and loaded 200.0 floats from global memory per element of C" 04-tiled
# Stage 07's kernel only where its 128 x 128 block tile divides n, stage
# 04's everywhere else: right at every size, and the rules at n = 256 hold;
# at n = 255, where no tile divides n, they are measured again and fail.
kernel07=$(kernel_points 07-register-tiling)
expect register-tiled-where-128-divides $((kernel07 - 4))/$(score max "$(points_table 07-register-tiling)") "n=255: 2.024 shared words read per multiply-add" 07-register-tiling
# Stage 09's product made by a tiled FP32 kernel, beside mma_sync calls on
# zero fragments that add up to n^3 multiply-adds: right at every size, and
# the count alone would pass; C does not double when mma_sync's products
# are doubled (the probe), so both tensor-core tests (2 each) fail.
kernel09=$(kernel_points 09-tensor-cores)
full09=$(score max "$(points_table 09-tensor-cores)")
expect fp32-beside-counted-mma $((kernel09 - 4))/$full09 "with every product mma_sync adds doubled (the grader's probe), C did not double" 09-tensor-cores
# Stage 09's solution dropping every fragment C's edge cuts: every size test
# (14 points: each size has a partial fragment or, at 264, block; n=264 on
# the 99 KiB device too) fails, and
# the structural tests keep theirs, the probe too: the elements left wrong
# are as many with mma_sync's products doubled as without.  Made from the
# solution by its patch, so that it cannot drift from it.
made="$out/made"
rm -rf "$made/partial-fragments-dropped" && mkdir -p "$made/partial-fragments-dropped/09-tensor-cores" &&
    patch --quiet --fuzz=0 -r - -o "$made/partial-fragments-dropped/09-tensor-cores/matmul.cu" \
        "$root/solutions/09-tensor-cores/matmul.cu" < "$cases/partial-fragments-dropped/09-tensor-cores.patch" ||
    { echo "FAIL partial-fragments-dropped: its patch no longer applies to solutions/09-tensor-cores/matmul.cu"; failures=$((failures + 1)); }
FROM=$made expect partial-fragments-dropped $((kernel09 - 14))/$full09 "(784 of 10000 elements of C wrong here: the correctness tests grade those); C doubled with mma_sync's products doubled" 09-tensor-cores
# An edge-only mistake costs the tests that reach the edge, not the
# structure: blocks rounded down (04: rows) or to the nearest (05: columns)
# leave a partial strip of C unwritten.  Every size a tile does not divide
# loses its points; every structural test keeps its own, though 4 % of C is
# wrong at n = 100 where they look.  (A kernel that computes nothing earns
# no structure point: the skeletons score 0, grade_stages.sh.)
expect edge-rows-floor 16/$full04 "(400 of 10000 elements of C wrong here: the correctness tests grade those)" 04-tiled
full05=$(score max "$(points_table 05-padding)")
expect edge-columns-rounded 13/$full05 "padded: 2048 shared words used, with a gap after each row (32 gaps) (400 of 10000 elements of C wrong here" 05-padding
# Split-k adding into C from two blocks with no atomic: right on the
# simulator, which runs the blocks one after another, so every size test
# passes; the race between blocks costs the structural points.  Which pair
# of blocks is named first depends on which ran first (several OS threads
# run them), so the phrase names the lines, not the blocks.
expect racy-split-k $((kernel01 - 7))/$full01 "at matmul.cu:25, which block ("
# The same with atomicAdd_block: atomic among one block's threads only, so
# between blocks a race all the same, and the finding says the scope is why.
expect block-scoped-split-k $((kernel01 - 7))/$full01 "with an atomic of block scope (atomic..._block)"
# Right answers from uncoalesced loads: x along the rows of C (A read down a
# column by the lanes), or a warp per element of C whose lanes split k (B
# read down a column), by shuffles or by cooperative groups.  Every size test
# passes; the coalescing test is lost, and says what to change.
expect uncoalesced-rows-on-x $((kernel01 - 2))/$full01 "16.5 sectors of 32 bytes per warp-wide global load, where the bytes it asks for fit in 4.0: the global loads are not coalesced"
expect uncoalesced-warp-shuffle $((kernel01 - 2))/$full01 "the global loads are not coalesced (the lanes of a warp read addresses far apart). Let threadIdx.x walk the columns of C"
expect uncoalesced-cooperative-groups $((kernel01 - 2))/$full01 "the global loads are not coalesced"
# A warp's lanes trusted to run in lockstep: NaN on the simulator, and the
# structural test, wrong result and all, names the missing __syncwarp().
expect warp-synchronous-reduction 0/$full01 "a __syncwarp() (or __syncthreads()) is missing after matmul.cu:17"
# assert() in a kernel, failing where n is not a multiple of 16: those
# sizes fail with the assertion, the others pass.  Without V=1 the first
# failure says its size once, and the assertion, on a line of its own, is
# indented as the summary indents (on every awk: no regex braces).
expect device-assert 4/$full01 "an assert() failed"
device_assert_quiet() {
    SUBMISSION="$cases/device-assert" LAB=01-naive GRADE_OUT="$out/device-assert-quiet" GRADE_TIMEOUT_SCALE=0.2 \
        "$root/grader/grade.sh" > "$out/device-assert-quiet.log" 2>&1
    if grep -q '^    first failure: n=1: an assert() failed' "$out/device-assert-quiet.log" &&
            grep -A1 '^    first failure:' "$out/device-assert-quiet.log" | grep -q '^      [^ ].*Assertion `n % 16 == 0. failed'; then
        echo "ok   device-assert without V=1: the first failure, its size once, the assertion beneath it"
    else
        echo "FAIL device-assert without V=1: not as expected (see $out/device-assert-quiet.log)"
        failures=$((failures + 1))
    fi
}
pool_case device-assert-quiet device_assert_quiet
# float4 loads from rows that start on a 16-byte boundary only when 4
# divides n: where it does not, the kernel stops as a GPU's does
# (cudaErrorMisalignedAddress), with the line and the address in words;
# the sizes 4 divides, and those too small for a float4, keep their points.
expect misaligned-float4 $((kernel01 - 6))/$full01 "misaligned address: a reference to float4 at matmul.cu:18"
# A right kernel, then cudaDeviceReset() inside matmul: on a GPU A, B and C
# are gone with the context, and on the simulator too.
expect resets-the-device 0/$full01 "cudaDeviceReset freed all 3 device allocations"
# What g++ compiles and nvcc rejects: a kernel calling a host function, more
# static shared memory than a block may have.  Where nvcc is, the
# simulator's build asks it first (NVCC_CHECK), and the file is the
# student's compile error, as on a GPU; with NVCC_CHECK=0 the simulator
# alone runs it, and the grade says that nvcc did not check it.
if nvcc_checks; then
    expect host-function-in-kernel 0/$full01 'calling a __host__ function("multiply_add(float, float, float)") from a __global__ function("naive") is not allowed'
    expect too-much-static-shared 0/$full04 "that is 57344 bytes of static __shared__ arrays in one block" 04-tiled
    # Builds, but a GPU cannot launch it: its registers come from nvcc's
    # report, and the simulator refuses the launch a GPU would.
    full07=$(score max "$(points_table 07-register-tiling)")
    expect too-many-registers 0/$full07 "more than the 65536 one block may have" 07-register-tiling
    # __launch_bounds__(256), kept by the TILE=16 build, broken by TILE=32's
    # 1024 threads: the bound comes from the PTX nvcc kept, and only the
    # TILE=32 tests lose their points (16 = TILE=16's sizes and structure).
    expect launch-bounds-exceeded 16/$full04 "whose __launch_bounds__ allow at most 256" 04-tiled
    # 32 KiB of __shared__ arrays and 32 KiB of dynamic shared memory, and
    # no cudaFuncSetAttribute: the two together are over a block's 48 KiB,
    # and every launch is refused as a GPU refuses it (right-kernels has the
    # same kernel with the call, which keeps full marks).
    expect static-plus-dynamic-shared 0/$full07 "declares 32768 bytes of __shared__ arrays: 65536 in all" 07-register-tiling
    # nvcc compiled the very file the simulator's compiler then rejects (a
    # field of cudaDeviceProp it does not present): the kit's limit, never
    # the student's compile error, whatever the compiler's words.
    expect texture-limits 0/$full01 "kit limit: 01-naive/matmul.cu compiles with nvcc, the CUDA compiler, as a GPU build would, but not for the CPU simulator"
    # nvcc's check (the device's pass) takes it, its whole build does not:
    # the student's compile error, in nvcc's words.
    expect assert-without-header 0/$full01 'identifier "assert" is undefined'
fi
NVCC_CHECK=0 expect host-function-in-kernel $kernel01/$full01 "nvcc check: off (NVCC_CHECK=0): code nvcc rejects"
# Two limits of a GPU build hold without nvcc too, read off the simulator's
# object (common/sim/gpu_build_limits.sh): a kernel's own static shared
# arrays, and the file's constant data; with nvcc, its own message.
NVCC_CHECK=0 expect too-much-static-shared 0/$full04 "uses too much shared data (0xe000 bytes, 0xc000 max), as ptxas says of it on a GPU" 04-tiled
NVCC_CHECK=0 expect too-much-constant 0/$full01 "that is 131072 bytes of __constant__ variables in the file"
nvcc_checks && expect too-much-constant 0/$full01 "does not compile with nvcc, the CUDA compiler, so it would not build on a GPU either"
# cuBLAS makes the product: a GPU build does not link it (only the CUDA
# runtime), and the simulator's missing cublas_v2.h must not be called a
# limit of the kit that a GPU could grade; with or without nvcc's check.
expect uses-cublas 0/$full01 "01-naive/matmul.cu calls a library (cuBLAS: cublasCreate, cublasSgemm)"
NVCC_CHECK=0 expect uses-cublas 0/$full01 "its kernel tests score 0"
# Its tile width a constexpr of its own, which the grader's -DTILE=16 breaks:
# the reason said once, before the compiler's message, which is shown once.
expect constexpr-tile 0/$full04 "04-tiled/matmul.cu builds as it is, but not with -DTILE=16" 04-tiled
pool_settle
if [ "$(grep -c '^   | ' "$out/constexpr-tile.log")" -le 3 ] && grep -q "TILE=32 score 0: it does not build with -DTILE=32 either" "$out/constexpr-tile.log"; then
    echo "ok   constexpr-tile: the compiler's message once, not once per build"
else
    echo "FAIL constexpr-tile: the compiler's message more than once (see $out/constexpr-tile.log)"
    failures=$((failures + 1))
fi
# A header of its own beside matmul.cu, which is graded alone: the stage's
# compile error, and the header named with what to do.
expect own-header 0/$full01 "01-naive/matmul.cu includes index.cuh, which is in its folder: a lab is one file"
# Includes a file of the kit beyond lab.h (a solution or the canary would
# pass on a GPU): no kernel points, and the file named.
expect includes-kit-file 0/$full01 "01-naive/matmul.cu includes grader/lab_exec_protocol.h"
# A printf in every thread: the output is cut at 8 MiB, the result graded.
expect prints-from-every-thread $kernel01/$full01 "n=1000, 1 random input: correct"
# Right on a GPU, beyond the simulator: the grader names it the kit's limit
# and the backend that can grade it.  The occupancy API is one only in a
# build nvcc did not check (right-kernels/occupancy-api is graded where it
# did).
NVCC_CHECK=0 expect occupancy-query 0/$full01 "kit limit: 01-naive/matmul.cu asks the occupancy API"
expect active-mask 0/$full01 "kit limit: 01-naive/matmul.cu uses __activemask()"
expect launch-by-api 0/$full01 "kit limit: 01-naive/matmul.cu launches its kernel with cudaLaunchKernel given the kernel as a pointer to void"
expect launch-with-attributes 0/$full01 "kit limit: 01-naive/matmul.cu uses cudaLaunchConfig_t, cudaLaunchKernelEx, which CUDA provides"
expect default-kernel-argument 0/$full01 "kit limit: 01-naive/matmul.cu launches a kernel with parameters left to their default arguments"
expect inline-ptx 0/$full01 "kit limit: 01-naive/matmul.cu uses inline assembly (asm), whose PTX instructions only a GPU runs"
# Cooperative groups the simulator's stand-in lacks: a group it refuses
# (include/cooperative_groups.h), and a header of CUDA's under
# cooperative_groups/.
expect cooperative-groups-grid 0/$full01 "kit limit: 01-naive/matmul.cu uses cooperative_groups::this_grid (the grid's barrier needs a cooperative launch), which the CPU simulator does not provide"
expect cooperative-groups-memcpy 0/$full04 "kit limit: 04-tiled/matmul.cu uses cooperative_groups/memcpy_async.h, which CUDA provides" 04-tiled
# A kit limit is said again above the score, in results.json and in the
# gradebook's needs_gpu column: the 0 is the kit's, and a GPU can grade it.
pool_settle
ws="$out/occupancy-query"
if grep -q "^Not graded here: 01-naive (a kit limit" "$out/occupancy-query.log" &&
        grep -q '"needs_gpu": "01-naive"' "$ws/results.json" &&
        score gradebook -v stages=01-naive -v prov="$ws/provenance.tsv" "$ws/all.tsv" | grep -q ',01-naive$'; then
    echo "ok   occupancy-query: \"Not graded here\" above the score, needs_gpu in results.json and the gradebook row"
else
    echo "FAIL occupancy-query: the kit limit is not named above the score, in results.json and the gradebook (see $out/occupancy-query.log)"
    failures=$((failures + 1))
fi
# Every result written, then an exit handler that never returns: graded
# on its results, never a hang.
expect lingers-after-results $kernel01/$full01 "C computed by the kernel"

pool_settle
# A machine far slower than the limits assume: grader/tests/slow_machine.sh,
# a phase of its own that runs alone (its caps on a run do not stretch).

# A file that makes the compiler run forever (the kit was checked above, so
# the short limit applies to this submission's build alone).  Which limit
# it meets first depends on the machine: g++ reads /dev/zero into a buffer
# it doubles, and on an idle machine asks for 4 GiB within the 5 seconds.
TMPDIR=$(machine_tmp) GRADE_COMPILE_SECONDS=5 expect compiler-never-ends 0/$full01 \
    "the compiler did not finish within 5 s||(a build may use 4096 MiB of memory: GRADE_COMPILE_MEMORY_MIB)"
pool_settle
nothing_left_in_machine_tmp compiler-never-ends

# Host memory past the limit (RLIMIT_DATA, see grader/student_run.c): the
# 4 GiB malloc fails at once and every test says why.  SIM_THREADS fixes the
# limit at 2048 + 2 * 96 MiB whatever the machine's cores.  A right kernel
# graded at the same time keeps its full marks.
mkdir -p "$out/beside-huge"
SUBMISSION="$right" LAB=01-naive GRADE_OUT="$out/beside-huge" "$root/grader/grade.sh" > "$out/beside-huge.log" 2>&1 &
beside=$!
SIM_THREADS=2 expect huge-allocation 0/$full01 "A run may use at most 2240 MiB of host memory"
if wait $beside && grep -qx "Score: $kernel01/$full01" "$out/beside-huge.log"; then
    echo "ok   beside huge-allocation: a right kernel graded at the same time scores all its kernel points, $kernel01/$full01"
else
    echo "FAIL beside huge-allocation: the right kernel graded at the same time did not score $kernel01/$full01 (see $out/beside-huge.log)"
    failures=$((failures + 1))
fi

# A tiled kernel without its first barrier (the mutant of the same name):
# its barrier tests name the hazard and the barrier even though the result
# is wrong, and the wrong result says where its NaNs came from.
no_first_barrier() {
    nb="$out/no-first-barrier-submission"
    rm -rf "$nb" && mkdir -p "$nb/04-tiled"
    patch --quiet --fuzz=0 -r - -o "$nb/04-tiled/matmul.cu" "$root/solutions/04-tiled/matmul.cu" \
        < "$root/grader/mutants/04-tiled/no-first-barrier.patch" > /dev/null
    SUBMISSION="$nb" LAB=04-tiled GRADE_OUT="$out/no-first-barrier" GRADE_TIMEOUT_SCALE=0.2 V=1 \
        "$root/grader/grade.sh" > "$out/no-first-barrier.log" 2>&1
    status=$?
    if [ $status -eq 0 ] && grep -A4 '^  barriers (TILE=32)' "$out/no-first-barrier.log" |
            grep -q 'read-after-write hazard.*a __syncthreads() is missing after matmul.cu:' &&
            grep -q 'computed from shared memory no thread had written' "$out/no-first-barrier.log"; then
        echo "ok   no-first-barrier: the barrier test names the hazard and the missing barrier, with a wrong result too"
    else
        echo "FAIL no-first-barrier: status $status; the barrier test does not name the hazard (see $out/no-first-barrier.log)"
        failures=$((failures + 1))
    fi
}
pool_case no-first-barrier no_first_barrier

# A sum never set to zero: wrong by whatever the stack held (the score
# depends on it), and the compiler's warning is shown under the stage's
# failure, in one line; with V=1, in full.
uninitialised_sum() {
    local verbose=$1 log status shown
    log="$out/uninitialised-sum$verbose.log"
    SUBMISSION="$cases/uninitialised-sum" LAB=01-naive GRADE_OUT="$out/uninitialised-sum$verbose" \
        GRADE_TIMEOUT_SCALE=0.2 V=$verbose "$root/grader/grade.sh" > "$log" 2>&1
    status=$?
    # gcc: "'sum' may be used uninitialized"; clang: "variable 'sum' is uninitialized when used here"
    # (the quotes are curly under a UTF-8 locale).
    shown="^    compiler warning: 01-naive/matmul.cu:[0-9]+:[0-9]+: .*sum.* uninitiali"
    [ -n "$verbose" ] && shown="^    \| 01-naive/matmul.cu:[0-9]+:[0-9]+: warning: .*sum.* uninitiali"
    if [ $status -eq 0 ] && grep -qE "$shown" "$log" && ! grep -qx "Score: $kernel01/$full01" "$log"; then
        echo "ok   uninitialised-sum${verbose:+ (V=1)}: points lost, and the compiler's warning shown"
    else
        echo "FAIL uninitialised-sum${verbose:+ (V=1)}: status $status; no line like \"$shown\" (see $log)"
        failures=$((failures + 1))
    fi
}
pool_case uninitialised-sum uninitialised_sum ""
pool_case uninitialised-sum-v uninitialised_sum 1

# `make run` names a header of the student's own under the build, on either
# backend (on the simulator the build fails: its rewrite of CUDA's words
# never reaches the header); a copy of the kit's lab.h beside it is not one.
make_run_own_header() {
    probe="$out/own-header-run/01-naive"
    rm -rf "$probe" && mkdir -p "$probe" && cp "$cases/own-header/01-naive/"* "$root/common/lab.h" "$probe/" &&
        echo "include $root/common/lab.mk" > "$probe/Makefile"
    if ! make --no-print-directory -C "$probe" run BACKEND=sim N=8 > "$out/make-run-own-header.log" 2>&1 &&
            grep -q "^note: matmul.cu includes index.cuh from its own folder, but a lab is one file" "$out/make-run-own-header.log" &&
            ! grep -q "includes lab.h" "$out/make-run-own-header.log"; then
        echo "ok   make run: a header of the student's own beside matmul.cu is named, with what to do"
    else
        echo "FAIL make run: no note on index.cuh (see $out/make-run-own-header.log)"
        failures=$((failures + 1))
    fi
}
pool_case make-run-own-header make_run_own_header

# `make run` on the simulator says the same under the compiler's messages:
# a stage folder of its own (its build goes to build/sim/kit-limit/).
make_run_kit_limit() {
    probe="$out/kit-limit/01-naive"
    rm -rf "$probe" && mkdir -p "$probe" && cp "$cases/launch-with-attributes/01-naive/matmul.cu" "$probe/" &&
        echo "include $root/common/lab.mk" > "$probe/Makefile"
    if ! make --no-print-directory -C "$probe" run BACKEND=sim N=8 > "$out/make-run-kit-limit.log" 2>&1 &&
            grep -q "^note: cudaLaunchConfig_t, cudaLaunchKernelEx: CUDA has it and the CPU simulator does not" "$out/make-run-kit-limit.log"; then
        echo "ok   make run: a name CUDA has and the simulator lacks is called the kit's limit"
    else
        echo "FAIL make run: no note on the kit's limit under the compiler's messages (see $out/make-run-kit-limit.log)"
        failures=$((failures + 1))
    fi
}
pool_case make-run-kit-limit make_run_kit_limit

# A program that writes outside its scratch folder, graded where it could
# (the folder is open to everyone, so nobody's rights do not stop it):
# Landlock must.  Not beside other cases: the folder's name is fixed.
pool_settle
outside=/tmp/matmul-kit-writes-outside
confinement=$("$root/build/grader/grade_suite" --confinement 2>/dev/null)
if [ "${confinement%% *}" = landlock ]; then
    rm -rf "$outside" && mkdir -p "$outside" && chmod 777 "$outside" && echo kept > "$outside/keep" && chmod 666 "$outside/keep"
    expect_now writes-outside-its-folder $kernel01/$full01 "n=1000, 1 random input: correct"
    grep -q '"student programs write": "only in their scratch folders' "$out/writes-outside-its-folder/results.json" ||
        { echo "FAIL writes-outside-its-folder: results.json does not say the programs were confined"; failures=$((failures + 1)); }
    # truncate(2) on a path is confined from Landlock's ABI 3 (Linux 6.2) on.
    if [ -e "$outside/written" ] || { [ "${confinement#landlock }" -ge 3 ] && [ "$(cat "$outside/keep")" != kept ]; }; then
        echo "FAIL writes-outside-its-folder: the student's program changed $outside ($confinement)"
        failures=$((failures + 1))
    else
        echo "ok   writes-outside-its-folder: nothing outside its scratch folder changed ($confinement)"
    fi
    rm -rf "$outside"
else
    echo "skip writes-outside-its-folder: this kernel has no Landlock, so the simulator's programs write wherever their user may"
fi

# A stage folder that is a link (here, to the solutions) is not the
# submission's: nothing in it is graded, and the output says why.
linked="$out/linked-stage-folder"
rm -rf "$linked" && mkdir -p "$linked/submission" && ln -s "$root/solutions/01-naive" "$linked/submission/01-naive"
SUBMISSION="$linked/submission" LAB=01-naive GRADE_OUT="$linked/out" "$root/grader/grade.sh" > "$linked.log" 2>&1
if grep -qx "Score: 0/$full01" "$linked.log" && grep -q "01-naive is a link to another folder, not a folder of the submission" "$linked.log"; then
    echo "ok   linked-stage-folder: a stage folder linked to the solutions scores 0/$full01, and says it is a link"
else
    echo "FAIL linked-stage-folder: $(grep '^Score' "$linked.log"), expected 0/$full01 and the link named (see $linked.log)"
    failures=$((failures + 1))
fi

# A program the grader cannot start is the machine's failure, never the
# student's: grade_suite, run again on a graded stage whose scratch folder
# is now a file, fails the test with "not graded" and leaves the kit_error
# file from which grade.sh makes a kit error.  And as root, a machine where
# nobody already runs more processes than a user may (260 sleepers here)
# still grades a right kernel in full: each stage's programs run as a user
# id of their own, whose process count starts at zero (student_run.c).
cannot="$out/cannot-start"
rm -rf "$cannot" && mkdir -p "$cannot"
SUBMISSION="$root/solutions" LAB=01-naive GRADE_OUT="$cannot" "$root/grader/grade.sh" > "$cannot.log" 2>&1
rm -rf "$cannot/01-naive/scratch" "$cannot/01-naive/kit_error" && echo "in the way" > "$cannot/01-naive/scratch"
(cd "$cannot/01-naive" && CK_RUN_CASE=n=1 "$root/build/grader/grade_suite" 01-naive "$cannot/01-naive/build/lab_exec" "$cannot/01-naive" > suite-again.log 2>&1)
if grep -q $'^n=1\tfail\t.*not graded: the grader could not start the program (entering its scratch folder: Not a directory)' "$cannot/01-naive/results.tsv" 2>/dev/null &&
        grep -q "could not start the student's program (plain build, at n=1): entering its scratch folder" "$cannot/01-naive/kit_error" 2>/dev/null; then
    echo "ok   cannot-start: a program the grader cannot start is \"not graded\", a kit error, not the student's fail"
else
    echo "FAIL cannot-start: no \"not graded\" line or kit_error file (see $cannot/01-naive/results.tsv, $cannot/01-naive/suite-again.log)"
    failures=$((failures + 1))
fi
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && id -u nobody > /dev/null 2>&1; then
    sleepers=()
    for _ in $(seq 260); do
        setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups sleep 300 &
        sleepers+=($!)
    done
    rm -rf "$cannot" && mkdir -p "$cannot"
    SUBMISSION="$root/solutions" LAB=01-naive GRADE_OUT="$cannot" "$root/grader/grade.sh" > "$cannot.log" 2>&1
    kill "${sleepers[@]}" 2> /dev/null
    wait "${sleepers[@]}" 2> /dev/null
    if grep -qx "Score: $full01/$full01" "$cannot.log"; then
        echo "ok   nobody-busy: with 260 processes of nobody's running, a right kernel still scores $full01/$full01"
    else
        echo "FAIL nobody-busy: $(grep '^Score' "$cannot.log") with nobody's processes at their limit (see $cannot.log)"
        failures=$((failures + 1))
    fi
fi

# Where results.json says the programs could write, graded as root on a
# GPU (no Landlock there): with nobody's rights only when nobody could run
# them from their folder (student_run.c keeps the grader's user otherwise).
if [ "$(id -u)" = 0 ]; then
    private=$(mktemp -d /tmp/matmul-kit-private.XXXXXX) open=$(mktemp -d /tmp/matmul-kit-open.XXXXXX)   # made 700
    chmod 755 "$open"
    said_private=$(GRADE_SUITE="$root/build/grader/grade_suite" "$root/grader/provenance.sh" gpu "$private" 2>/dev/null | grep '^student programs write')
    said_open=$(GRADE_SUITE="$root/build/grader/grade_suite" "$root/grader/provenance.sh" gpu "$open" 2>/dev/null | grep '^student programs write')
    if [[ $said_private == *"grader's user"* && $said_open == *"with nobody's rights"* ]]; then
        echo "ok   provenance: programs in a folder nobody can enter are said to run as the grader's user, elsewhere with nobody's rights"
    else
        echo "FAIL provenance: a private folder: '${said_private#*$'\t'}'; an open one: '${said_open#*$'\t'}'"
        failures=$((failures + 1))
    fi
    rm -rf "$private" "$open"
fi
rm -rf "$root/build/sim/kit-limit"
[ $failures -eq 0 ] && echo "bad kernels: all handled" || echo "bad kernels: $failures case(s) mishandled"
[ $failures -eq 0 ]
