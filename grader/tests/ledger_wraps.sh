#!/usr/bin/env bash
# `make test-nvcc`, the GPU ledger's link (grader/gpu_ledger.cpp): in every
# lab_exec nvcc_builds.sh made, each call to a runtime function the ledger
# counts goes through its wrapper, whatever the student's file looks like:
# only the wrappers themselves call the real functions.  And the cheats of
# grader/tests/bad-kernels reach the wrapper that counts them.  Read from
# the machine code, so no GPU is needed; what the wrappers count is
# test_gpu_ledger.cpp's.
#
#   grader/tests/ledger_wraps.sh NVCC_BUILDS_DIR   (after grader/tests/nvcc_builds.sh)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
builds=${1:?usage: ledger_wraps.sh NVCC_BUILDS_DIR}
ledger="$root/build/gpu/common/gpu_ledger.o"
failures=0
. "$root/common/tests/lib.sh"   # fail

wrapped=$(nm "$ledger" | awk '$2 == "T" && sub(/^__wrap_/, "", $3) { print $3 }' | paste -sd'|')
[ -n "$wrapped" ] || { fail "gpu ledger: $ledger defines no __wrap_ function"; exit 1; }

# calls LAB_EXEC: "caller callee" for every call or jump to a counted
# function or its wrapper.  Each program is disassembled once (its listing
# kept under NVCC_BUILDS_DIR/ledger-calls), however many checks read it.
listings="$builds/ledger-calls"
rm -rf "$listings" && mkdir -p "$listings"
calls() {
    local kept
    kept="$listings/$(echo "${1#"$builds"/}" | tr / _)"
    [ -f "$kept" ] ||
        objdump -d --no-show-raw-insn "$1" |
            awk -v w="^<(__wrap_)?($wrapped)>\$" '/^[0-9a-f]+ <.*>:$/ { fn = $2 }
                ($2 == "call" || $2 == "jmp") && $NF ~ w { gsub(/[<>:]/, "", fn); t = $NF; gsub(/[<>]/, "", t); print fn, t }' > "$kept"
    cat "$kept"
}

checked=0
while IFS= read -r exe; do
    name=${exe#"$builds"/}
    src="$root/$(dirname "$name")/matmul.cu"
    [ -f "$src" ] || continue  # left from a file since moved or removed
    checked=$((checked + 1))
    # A counted function called by anything but a wrapper (or, inside the
    # runtime, by another counted function whose wrapper ran first).
    bypass=$(calls "$exe" | awk -v w="^($wrapped)\$" '$2 !~ /^__wrap_/ && $1 !~ /^__wrap_/ && $1 !~ w' | head -n 1)
    [ -z "$bypass" ] || fail "gpu ledger: $name: $bypass (a call the ledger does not see)"
    # Every <<<...>>> launch too (host-compute launches nothing).
    if grep -q '<<<' "$src"; then
        calls "$exe" | grep -Eq ' __wrap_(__)?cudaLaunchKernel(_ptsz)?$' ||
            fail "gpu ledger: $name: no kernel launch goes through the ledger's wrapper"
    fi
done < <(find "$builds" -name lab_exec -type f | sort)
[ "$checked" -gt 0 ] || fail "gpu ledger: no lab_exec under $builds (run nvcc_builds.sh first)"

# A right kernel puts no host memory in reach, and neither may the kit or
# CUDA's runtime library: were any of them to call these, every launch of
# every student would count against them.
for exe in "$builds"/solutions/*/lab_exec; do
    reach=$(calls "$exe" | grep -E ' __wrap_(cudaMallocHost|cudaHostAlloc|cudaHostRegister|cudaMallocManaged|__cudaRegisterManagedVar)$' |
        head -n 1)
    [ -z "$reach" ] || fail "gpu ledger: ${exe#"$builds"/}: $reach puts host memory in reach of every launch"
done

# expect CHEAT WRAPPER: the cheat's lab_exec calls WRAPPER.
expect() {
    local exe
    exe=$(find "$builds/grader/tests/bad-kernels/$1" -name lab_exec -type f | head -n 1)
    if [ -z "$exe" ]; then
        fail "gpu ledger: $1: not built"
    elif ! calls "$exe" | grep -q " __wrap_$2\$"; then
        fail "gpu ledger: $1: never calls __wrap_$2, so the ledger would not count it"
    fi
}
expect host-compute cudaMemcpy
expect host-compute-04 cudaMemcpy
expect host-compute-pinned cudaHostAlloc
expect host-compute-managed __cudaRegisterManagedVar
expect host-compute-symbols cudaMemcpyFromSymbol
expect host-compute-symbols cudaMemcpyToSymbol
expect host-compute-printf cudaMemcpy

# nvcc reached through a wrapper script in a folder of its own (as some
# machines install it in /usr/local/bin): the ledger must still find the
# runtime library nvcc links, and wrap the launch nvcc's code calls.
if [ -n "${NVCC:-}" ]; then
    elsewhere="$builds/nvcc-wrapper"
    mkdir -p "$elsewhere/bin"
    printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v "$NVCC")" > "$elsewhere/bin/nvcc"
    chmod +x "$elsewhere/bin/nvcc"
    if make --no-print-directory -f "$root/grader/lab_exec.mk" BACKEND=gpu ARCH=90 NVCC="$elsewhere/bin/nvcc" \
            LAB_SRC="$root/solutions/01-naive/matmul.cu" OUT="$elsewhere/out" COMMON_OUT="$elsewhere/common" \
            "$elsewhere/out/lab_exec" > "$elsewhere/build.log" 2>&1; then
        calls "$elsewhere/out/lab_exec" | grep -Eq ' __wrap_(__)?cudaLaunchKernel(_ptsz)?$' ||
            fail "gpu ledger: nvcc through a wrapper script: the kernel launch does not go through the ledger's wrapper"
    else
        fail "gpu ledger: nvcc through a wrapper script: solutions/01-naive does not build: $(grep -m1 -i error "$elsewhere/build.log")"
    fi
fi

[ $failures -eq 0 ] && echo "nvcc: in $checked lab_exec programs every counted runtime call goes through the GPU ledger"
[ $failures -eq 0 ]
