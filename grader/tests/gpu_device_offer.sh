#!/usr/bin/env bash
# `make test-nvcc`: the smaller GPU the grader's small-device test makes of
# a real one (grader/gpu_device_offer.cpp), without a GPU:
# test_gpu_device_offer.cpp calls its wrappers with stand-ins for CUDA's
# functions.
#
#   grader/tests/gpu_device_offer.sh OUT_DIR     (needs nvcc, Check; make test-nvcc
#   passes NVCC, CHECK_INCLUDES and CHECK_LIBS)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: gpu_device_offer.sh OUT_DIR}
nvcc=${NVCC:-nvcc}
offer="$root/build/gpu/common/gpu_device_offer.o"
mkdir -p "$out"
make --no-print-directory -s -f "$root/grader/lab_exec.mk" BACKEND=gpu LAB_SRC=/dev/null "$offer" || exit 1
# shellcheck disable=SC2086  # CHECK_INCLUDES and CHECK_LIBS hold separate flags
"$nvcc" -O2 -std=c++17 ${CHECK_INCLUDES:-} -c "$root/grader/tests/test_gpu_device_offer.cpp" \
    -o "$out/test_gpu_device_offer.o" &&
    ${CXX_SIM:-g++} "$out/test_gpu_device_offer.o" "$offer" ${CHECK_LIBS:--lcheck} -o "$out/test_gpu_device_offer" ||
    exit 1
"$out/test_gpu_device_offer"
