#!/usr/bin/env bash
# What the compiler made of a lab's kernel: the shared and global memory
# instructions of its hot loop, their widths and the source lines they came
# from, per multiply-add.  No GPU needed: nvcc compiles for the report's GPU
# (sm_90 unless ARCH says otherwise) and nvdisasm reads the machine code.
#
#   make -C labs/05-padding sass [LAB_DEFINES=...]     (registers and occupancy first)
#   common/sass/sass.sh LAB_SRC LAB_NAME OUT_DIR
#   SASS_TSV=1 ...    one line per kernel instead (the report's table):
#       kernel  first_line  last_line  instructions  ffma  lds  lds_bytes  lds_by_width
#       sts  sts_by_width  ldg  ldg_by_width  stg  ldgsts  barriers
#
# The whole listing is left in OUT_DIR/matmul.sass for reading.
set -u
[ $# -eq 3 ] || { echo "usage: $0 LAB_SRC LAB_NAME OUT_DIR" >&2; exit 2; }
src=$1 name=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
arch=${ARCH:-90}
defines=${LAB_DEFINES:-}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ ! -x "$nvcc" ]; then
    echo "sass: needs nvcc, the CUDA toolkit's compiler, to make the machine code (no GPU needed)." >&2
    exit 1
fi
mkdir -p "$out"
# The lab's own flags (common/backend.mk, common/build.mk), for one architecture.
# shellcheck disable=SC2086  # LAB_DEFINES holds several flags
if ! "$nvcc" -cubin -arch="sm_$arch" -O3 -std=c++17 -lineinfo -I"$root/common" -I"$root/grader" \
    -DLAB_NAME="\"$name\"" -DLAB_BUILT_WITH="\"$defines\"" $defines "$src" -o "$out/matmul.cubin" > "$out/nvcc.log" 2>&1; then
    echo "sass: $src does not compile with nvcc:" >&2
    grep -E 'error' "$out/nvcc.log" | head -n 10 >&2
    exit 1
fi
"$here/disassemble.sh" "$out/matmul.cubin" > "$out/matmul.sass" || exit

# Kernel names demangled, their parameter lists dropped in the table.
if [ "${SASS_TSV:-}" = 1 ]; then
    awk -v tsv=1 -f "$here/hot_loop.awk" "$out/matmul.sass" | c++filt |
        awk -F'\t' -v OFS='\t' '{ sub(/\(.*$/, "", $1); sub(/^void /, "", $1); print }'
    exit 0
fi
echo
echo "The machine code of $src${defines:+ ($defines)}, sm_$arch:"
awk -f "$here/hot_loop.awk" "$out/matmul.sass" | c++filt
echo
echo "A warp's shared load instruction takes the shared memory at least one cycle (one wavefront: 32 banks of"
echo "4 bytes), and an SM of the H100 (128 FP32 lanes) retires at most four warps' FFMA instructions a cycle:"
echo "past 0.25 shared loads per multiply-add, shared memory, not arithmetic, sets the pace.  An LDS.128 brings"
echo "each thread 16 bytes (four floats) in one instruction."
echo "The whole listing: $out/matmul.sass"
