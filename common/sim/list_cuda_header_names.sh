#!/usr/bin/env bash
# Writes common/sim/cuda_header_names.txt: the names a CUDA toolkit's headers
# declare for a program to use (runtime API functions, types and constants,
# cuda*; the driver API's, cu* and CU*; device intrinsics and atomics, __*
# and atomic*), one per line; and
# common/sim/cuda_header_files.txt: the headers themselves.  A file that
# uses one the simulator does not provide fails to compile there while nvcc
# builds it; names_not_simulated.sh reads these lists so that the grader and
# `make run` call that a limit of the kit, not the student's compile error.
# Only names are taken, as facts about the API.
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
        # The driver API (cuda.h): its functions, types and constants.
        grep -oE '\b(cu[A-Z]|CU[a-z_])[A-Za-z0-9_]*\b' "$include"/cuda.h
        device_headers=("$include"/crt/device_functions.h "$include"/crt/math_functions.h "$include"/sm_*_intrinsics.h
            "$include"/device_atomic_functions.h "$include"/sm_*_atomic_functions.h "$include"/crt/sm_*_rt.h
            "$include"/crt/common_functions.h)
        cat "${device_headers[@]}" 2>/dev/null |
            grep -oE '\b(__[a-z][A-Za-z0-9_]*|atomic[A-Z][A-Za-z0-9_]*)[[:space:]]*\(' | sed 's/[[:space:]]*($//' |
            grep -vE '^__(attribute__|builtin_|cuda|cmath|nv|inline|device_builtin)'
        # Device functions without underscores (clock64, rsqrtf, umin, ...),
        # from their declarations; the old warp votes all, any and ballot
        # left out, as names a student's own helper may well have.
        cat "${device_headers[@]}" 2>/dev/null | grep -E '__device__|_DECL__' |
            grep -oE '\b[a-z][A-Za-z0-9_]*[[:space:]]*\(' | sed 's/[[:space:]]*($//' |
            grep -vxE 'throw|all|any|ballot'
    } | LC_ALL=C sort -u
} > "$root/common/sim/cuda_header_names.txt"
# The headers themselves: a file that includes one the simulator does not
# stand in for (cooperative_groups.h, cuda/pipeline, ...) is the same case.
# Folders end in "/": every header under them is CUDA's (cuda/, thrust/ and
# cub/ come from cccl/, which nvcc puts on the include path).
{
    echo "# Headers CUDA's include folders hold (files, and folders ending in /); written by list_cuda_header_names.sh."
    {
        (cd "$include" && for f in *; do
            if [ -d "$f" ]; then [ "$f" = cccl ] || echo "$f/"; else echo "$f"; fi
        done)
        [ -d "$include/cccl" ] && (cd "$include/cccl" && for f in *; do [ -d "$f" ] && echo "$f/" || echo "$f"; done)
    } | LC_ALL=C sort -u
} > "$root/common/sim/cuda_header_files.txt"
echo "common/sim/cuda_header_names.txt: $(grep -vc '^#' "$root/common/sim/cuda_header_names.txt") names"
echo "common/sim/cuda_header_files.txt: $(grep -vc '^#' "$root/common/sim/cuda_header_files.txt") headers and folders"
