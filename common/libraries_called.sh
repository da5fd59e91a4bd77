#!/usr/bin/env bash
# libraries_called.sh FILE: the libraries beside the CUDA runtime whose
# functions FILE calls, each with the names called, one library a line
# ("cuBLAS: cublasCreate, cublasSgemm"), or nothing.
#
# A lab's program links the CUDA runtime and nothing else (common/build.mk),
# so on a GPU a file that calls cuBLAS, or the driver API, does not link; on
# the simulator the same file stops earlier, at a header the simulator has no
# stand-in for.  Without this check the simulator would call that a limit of
# the kit and send the grade to a GPU, which then refuses the file: the
# grader and `make run` say instead, on both backends, that the lab's product
# must come from the student's own kernels.  Tested by
# grader/tests/bad_kernels.sh (uses-cublas).
set -u
file=$1
here=$(dirname "$0")
# Comments and strings out, macros left as written: a comment that names
# cublasSgemm calls nothing.
code=$({ g++ -fpreprocessed -dD -E -P -x c++ "$file" 2>/dev/null || cat "$file"; } |
    sed -E 's/"([^"\\]|\\.)*"/""/g')
called=$(grep -oE '\<[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(' <<< "$code" | tr -d '( \t' | LC_ALL=C sort -u)
[ -n "$called" ] || exit 0
# A library's functions by their prefix; cuRAND's device API (curand_init,
# curand_uniform) lives in its headers and needs no library, so only the
# host API's camel-case names count.
while IFS=$'\t' read -r library pattern; do
    names=$(grep -E "^($pattern)" <<< "$called" | paste -sd, - | sed 's/,/, /g')
    [ -n "$names" ] && echo "$library: $names"
done <<'EOF'
cuBLAS	cublas[A-Z]
cuFFT	cufft[A-Z]
cuRAND's host API	curand[A-Z]
cuSPARSE	cusparse[A-Z]
cuSOLVER	cusolver[A-Z]
cuDNN	cudnn[A-Z]
NCCL	nccl[A-Z]
NVRTC	nvrtc[A-Z]
nvJitLink	nvJitLink[A-Z]
EOF
# The driver API (libcuda): its names as CUDA's headers declare them.
names=$(grep -E '^cu[A-Z]' "$here/sim/cuda_header_names.txt" | grep -Fx -f - <(echo "$called") | paste -sd, - | sed 's/,/, /g')
[ -n "$names" ] && echo "the CUDA driver API: $names"
exit 0
