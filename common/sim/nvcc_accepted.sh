#!/usr/bin/env sh
# nvcc_accepted.sh OUT LOG MAKE_ARG...: whether the failed simulator build
# in LOG, made in the folder OUT by common/build.mk (MAKE_ARG... the
# settings it was made with), failed where nvcc builds the very same file.
# First, the build asked nvcc first (NVCC_CHECK=1, recorded in OUT's
# built-with) and the step that failed is the simulator's compile of the
# student's file, which make runs only after nvcc's check of that file,
# with those defines, succeeded.  That check compiles the device's side
# only, so then nvcc builds the whole file (OUT/nvcc-full-check.o, its
# messages in OUT/nvcc-full-check.log).  If that succeeds too, the file is
# right CUDA and the failure is the simulator's: a limit of the kit, never
# the student's compile error.  A link error is not such a failure (nvcc
# compiles and does not link: a missing matmul() fails on a GPU too).
# Exit status 0 when so; 2 when nvcc's whole build rejects the file (the
# student's compile error, in nvcc's words); 1 when the failure is not one
# of this kind.
out=$1 log=$2
shift 2
grep -q 'nvcc check 1 ' "$out/built-with" 2>/dev/null || exit 1
grep -q '^nvcc-check: ' "$log" && exit 1
# make's own line for the step that failed: "*** [build.mk:N: OUT/matmul.o] Error 1".
grep -qF -e ": $out/matmul.o] " -e ": $out/check/matmul.o] " "$log" || exit 1
make --no-print-directory "$@" "$out/nvcc-full-check.o" > "$out/nvcc-full-check.log" 2>&1 || exit 2
