#!/usr/bin/env bash
# names_not_simulated.sh (the check, beside tests/) on compiler messages of
# both compilers: names and headers CUDA has and the simulator lacks are
# found, however the file spelt the namespace; misspellings and other
# libraries' names are left to be the student's compile errors.
#
#   common/sim/tests/names_not_simulated.sh OUT_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: names_not_simulated.sh OUT_DIR}
mkdir -p "$out"
failures=0 checks=0

# expect WANT LINE...: the check finds WANT (a comma-separated list, or
# nothing) in a log made of the LINEs.
expect() {
    local want=$1 got
    shift
    printf '%s\n' "$@" > "$out/names.log"
    got=$("$here/../names_not_simulated.sh" "$out/names.log")
    checks=$((checks + 1))
    if [ "$got" != "$want" ]; then
        echo "FAIL from: $*: found \"$got\", want \"$want\""
        failures=$((failures + 1))
    fi
}

expect "cudaLaunchKernel" "m.cu:9:5: error: 'cudaLaunchKernel' was not declared in this scope"
expect "cudaLaunchKernel" "m.cu:9:5: error: use of undeclared identifier 'cudaLaunchKernel'"
expect "" "m.cu:9:5: error: 'cudaMallocc' was not declared in this scope; did you mean 'cudaMalloc'?"
# Device functions of CUDA's own, with underscores and without (sm_*_rt.h,
# sm_*_intrinsics.h); a name of the old warp votes stays the student's.
expect "__reduce_add_sync" "m.cu:9:5: error: '__reduce_add_sync' was not declared in this scope"
expect "rnorm3df" "m.cu:9:5: error: use of undeclared identifier 'rnorm3df'"
expect "" "m.cu:9:5: error: 'any' was not declared in this scope"
expect "cooperative_groups/memcpy_async.h" \
    "m.cu:2:10: fatal error: cooperative_groups/memcpy_async.h: No such file or directory"
expect "cooperative_groups/scan.h" "m.cu:2:10: fatal error: 'cooperative_groups/scan.h' file not found"
# The driver API (cuda.h's stand-in declares none of it).
expect "CUresult, cuInit" "m.cu:9:5: error: 'CUresult' does not name a type" \
    "m.cu:10:5: error: 'cuInit' was not declared in this scope"
# gcc names the namespace as the file spelt it: the name must be CUDA's.
expect "cooperative_groups::this_grid" "m.cu:9:5: error: 'this_grid' is not a member of 'cg'"
expect "cooperative_groups::this_grid" "m.cu:9:5: error: ‘this_grid’ is not a member of ‘cg’"
expect "" "m.cu:9:5: error: 'this_grd' is not a member of 'cg'"
expect "" "m.cu:9:5: error: 'reduce' is not a member of 'std'"
expect "cooperative_groups::this_grid" "m.cu:9:5: error: no member named 'this_grid' in namespace 'cooperative_groups'"
# Any member of one of its groups.
expect "cooperative_groups::thread_block::barrier_wait" \
    "m.cu:9:5: error: 'class cooperative_groups::thread_block' has no member named 'barrier_wait'"
expect "cooperative_groups::thread_block::barrier_wait" \
    "m.cu:9:5: error: no member named 'barrier_wait' in 'cooperative_groups::thread_block'"
expect "" "m.cu:9:5: error: 'const struct uint3' has no member named 'w'"
expect "" "m.cu:9:5: error: no member named 'w' in 'uint3'"
# WMMA beyond TF32 (include/mma.h's static_assert, as gcc and clang 14 say
# it); a TF32 fragment of a shape CUDA lacks stays the student's.
expect "nvcuda::wmma beyond TF32" "mma.h:60:5: error: static assertion failed: the CPU simulator runs WMMA with TF32 inputs only (m16n16k8, float accumulators): CUDA's half, bf16 and integer fragments are not simulated"
expect "nvcuda::wmma beyond TF32" "mma.h:60:5: error: static_assert failed due to requirement 'detail::supported<...>::simulated' \"the CPU simulator runs WMMA with TF32 inputs only (m16n16k8, float accumulators): CUDA's half, bf16 and integer fragments are not simulated\""
expect "" "mma.h:63:5: error: static assertion failed: wmma::fragment: TF32 operands come in m16n16k8 tiles only, in CUDA as here"
# Each once, in the order found.
expect "cooperative_groups::this_grid, cooperative_groups::grid_group" \
    "m.cu:9:5: error: 'this_grid' is not a member of 'cg'" "m.cu:9:5: error: 'grid_group' is not a member of 'cg'" \
    "m.cu:12:5: error: 'this_grid' is not a member of 'cg'"

[ $failures -eq 0 ] && echo "names_not_simulated: all $checks checks passed"
[ $failures -eq 0 ]
