#!/usr/bin/env sh
# nvcc_accepted.sh OUT LOG: whether the failed simulator build in LOG, made
# in the folder OUT by common/build.mk, failed where nvcc had compiled the
# very same file: the build asked nvcc first (NVCC_CHECK=1, recorded in
# OUT's built-with), and the step that failed is the simulator's compile of
# the student's file, which make runs only after nvcc's check of that file,
# with those defines, succeeded.  That check compiles the device's side
# only; the caller then has nvcc build the whole file (build.mk's
# OUT/nvcc-full-check.o), and if that succeeds too, the file is right CUDA
# and the failure is the simulator's: a limit of the kit, never the
# student's compile error.  A link error is not such a failure (nvcc
# compiles and does not link: a missing matmul() fails on a GPU too).
# Exit status 0 when so, 1 otherwise.
out=$1 log=$2
grep -q 'nvcc check 1 ' "$out/built-with" 2>/dev/null || exit 1
grep -q '^nvcc-check: ' "$log" && exit 1
# make's own line for the step that failed: "*** [build.mk:N: OUT/matmul.o] Error 1".
grep -qF -e ": $out/matmul.o] " -e ": $out/check/matmul.o] " "$log"
