#!/usr/bin/env bash
# Writes common/sim/cuda_header_names.txt: the names a CUDA toolkit's headers
# declare for a program to use (runtime API functions, types and constants,
# cuda*; device intrinsics and atomics, __* and atomic*), one per line.  A
# file that uses one the simulator does not provide fails to compile there
# while nvcc builds it; the grader reads this list to call that a limit of
# the kit, not the student's compile error (grader/grade.sh).  Only names
# are taken, as facts about the API.
#
#   common/sim/list_cuda_header_names.sh [CUDA_HOME]    (default /usr/local/cuda)
set -eu
include=${1:-/usr/local/cuda}/include
root=$(cd "$(dirname "$0")/../.." && pwd)
[ -f "$include/cuda_runtime_api.h" ] || { echo "no CUDA toolkit headers in $include" >&2; exit 1; }
{
    echo "# Names CUDA's headers declare ($("$include/../bin/nvcc" --version 2>/dev/null | grep -o 'release [0-9.]*' || echo 'a CUDA toolkit')); written by list_cuda_header_names.sh."
    {
        cat "$include"/cuda_runtime_api.h "$include"/cuda_runtime.h "$include"/driver_types.h \
            "$include"/surface_types.h "$include"/texture_types.h |
            grep -oE '\bcuda[A-Z][A-Za-z0-9_]*\b'
        cat "$include"/crt/device_functions.h "$include"/crt/math_functions.h "$include"/sm_*_intrinsics.h \
            "$include"/device_atomic_functions.h "$include"/sm_*_atomic_functions.h 2>/dev/null |
            grep -oE '\b(__[a-z][A-Za-z0-9_]*|atomic[A-Z][A-Za-z0-9_]*)[[:space:]]*\(' | sed 's/[[:space:]]*($//' |
            grep -vE '^__(attribute__|builtin_|cuda|cmath|nv|inline|device_builtin)'
    } | LC_ALL=C sort -u
} > "$root/common/sim/cuda_header_names.txt"
echo "common/sim/cuda_header_names.txt: $(grep -vc '^#' "$root/common/sim/cuda_header_names.txt") names"
