#!/usr/bin/env bash
# `make test-nvcc`, first part: every lab file the kit ships or tests (the
# skeletons, the solutions, the right kernels, and the bad kernels a GPU
# must still compile) builds with nvcc into the programs the GPU backend
# runs, with no GPU needed; the bad kernels only nvcc refuses, and the one
# that calls a library, do not.
# Several files at once (one per core: nvcc is single-threaded); each file's
# messages go to a log of its own, shown when its build fails.
#
#   grader/tests/nvcc_builds.sh OUT_DIR      (NVCC_JOBS: files at once)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: nvcc_builds.sh OUT_DIR}
jobs=${NVCC_JOBS:-$(nproc 2>/dev/null || echo 2)}
cd "$root" || exit 2

# build_one FILE: its lab_exec and run_lab, under OUT_DIR/<its folder>.
build_one() {
    local f=$1 dir
    dir=$out/$(dirname "$f")
    mkdir -p "$dir"
    if make --no-print-directory -f grader/lab_exec.mk BACKEND=gpu ARCH=90 LAB_SRC="$root/$f" OUT="$dir" \
            "$dir/lab_exec" "$dir/run_lab" > "$dir/nvcc.log" 2>&1; then
        echo "nvcc: $f"
    else
        echo "FAIL nvcc: $f does not build:"
        sed 's/^/     /' "$dir/nvcc.log"
        return 1
    fi
}
export -f build_one
export root out

# The shared objects (harness.o, gpu_ledger.o, gpu_device_offer.o) once,
# before the files race to build them.
make --no-print-directory -f grader/lab_exec.mk BACKEND=gpu ARCH=90 LAB_SRC=/dev/null "$root/build/gpu/common/harness.o" \
    "$root/build/gpu/common/gpu_ledger.o" "$root/build/gpu/common/gpu_device_offer.o" > /dev/null 2>&1

# The bad kernels a GPU build must refuse, as the simulator's build does
# when it asks nvcc first (NVCC_CHECK): the grade must not depend on which
# of the two built the file; and one that calls cuBLAS, which no lab links.
refusals() {
    local f dir status=0
    for f in grader/tests/bad-kernels/{host-function-in-kernel,too-much-static-shared,too-much-constant,uses-cublas}/*/matmul.cu; do
        dir=$out/$(dirname "$f")
        mkdir -p "$dir"
        if make --no-print-directory -f grader/lab_exec.mk BACKEND=gpu ARCH=90 LAB_SRC="$root/$f" OUT="$dir" \
                "$dir/lab_exec" > "$dir/nvcc.log" 2>&1; then
            echo "FAIL nvcc: $f builds, but nvcc must refuse it"
            status=1
        else
            echo "nvcc refuses: $f ($(grep -m 1 -E 'error|undefined reference' "$dir/nvcc.log" | sed -e 's/^.*error *: *//' -e 's/^.*undefined/undefined/'))"
        fi
    done
    return $status
}

# The refusals are built beside the others (a few files, one after another).
refusals > "$out/refusals.log" 2>&1 &
refusing=$!
ls labs/*/matmul.cu solutions/*/matmul.cu grader/tests/right-kernels/*/*/matmul.cu \
    grader/tests/bad-kernels/{active-mask,occupancy-query,launch-by-api,launch-with-attributes,default-kernel-argument,cooperative-groups-grid,cooperative-groups-memcpy,inline-ptx,prints-from-every-thread,racy-split-k,resets-the-device,too-many-registers,launch-bounds-exceeded,misaligned-float4,static-plus-dynamic-shared,loads-through-atomics,loads-through-memcpy,naive-where-tile-does-not-divide}/*/matmul.cu \
    grader/tests/bad-kernels/host-compute*/*/matmul.cu grader/tests/bad-kernels/rebuilds-inputs-on-host/*/matmul.cu |
    xargs -P "$jobs" -I{} bash -c 'build_one "$1"' _ {}
status=$?
wait $refusing || status=1
cat "$out/refusals.log"
exit $status
