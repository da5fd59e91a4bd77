#!/usr/bin/env bash
# `make test-nvcc`: the GPU ledger's counts, without a GPU.
# test_gpu_ledger.cpp calls grader/gpu_ledger.cpp's wrappers with stand-ins
# for CUDA's functions; the runtime functions it does not call get stand-ins
# made here that stop the test if ever called.
#
#   grader/tests/gpu_ledger.sh OUT_DIR     (needs nvcc, Check; make test-nvcc
#   passes NVCC, CHECK_INCLUDES and CHECK_LIBS)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: gpu_ledger.sh OUT_DIR}
nvcc=${NVCC:-nvcc}
ledger="$root/build/gpu/common/gpu_ledger.o"
mkdir -p "$out"
make --no-print-directory -s -f "$root/grader/lab_exec.mk" BACKEND=gpu LAB_SRC=/dev/null "$ledger" || exit 1
# shellcheck disable=SC2086  # CHECK_INCLUDES holds separate flags
"$nvcc" -O2 -std=c++17 -I"$root/grader" -I"$root/common" ${CHECK_INCLUDES:-} -c "$root/grader/tests/test_gpu_ledger.cpp" \
    -o "$out/test_gpu_ledger.o" || exit 1
# The rest of what the wrappers call, each a stand-in that must not run.
comm -23 <(nm -u "$ledger" | awk '$2 ~ /^__real_/ { print $2 }' | sort -u) \
    <(nm --defined-only "$out/test_gpu_ledger.o" | awk '{ print $3 }' | sort -u) |
    awk '{ printf "void %s(void) { abort(); }\n", $1 }' > "$out/uncalled_stand_ins.c"
${CC:-cc} -c -include stdlib.h "$out/uncalled_stand_ins.c" -o "$out/uncalled_stand_ins.o" || exit 1
# shellcheck disable=SC2086  # CHECK_LIBS holds separate flags
${CXX_SIM:-g++} "$out/test_gpu_ledger.o" "$ledger" "$out/uncalled_stand_ins.o" ${CHECK_LIBS:--lcheck} \
    -o "$out/test_gpu_ledger" || exit 1
"$out/test_gpu_ledger"
