#!/usr/bin/env bash
# make sass, tested: the hot-loop summary on a hand-written listing (always),
# then on the stages' own machine code when nvcc is here (nvdisasm is
# fetched if the toolkit lacks it).  Each check can fail: it names numbers
# the machine code must show.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root" || exit 1
out=$root/build/tests/sass
rm -rf "$out"; mkdir -p "$out"
failed=0
ok() { echo "ok   sass: $*"; }
bad() { echo "FAIL sass: $*"; failed=1; }

# 1. The summary alone: the inner loop wins over the loop around it and
#    over the trap loop; widths and counts per trip.
got=$(awk -v tsv=1 -f common/sass/hot_loop.awk common/sass/tests/nested_loops.sass)
want=$(printf '_Z6kernelPKfS0_Pfi\t28\t29\t11\t4\t3\t24\t16x1 4x2\t0\t-\t0\t-\t0\t0\t0\t0\t1')
[ "$got" = "$want" ] && ok "a hand-written listing: the inner loop, 4 FFMA, 3 shared loads (16x1 4x2), 1 generic load" ||
    bad "a hand-written listing gave \"$got\", not \"$want\""

nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ ! -x "$nvcc" ]; then
    echo "sass: no nvcc here; the stages' machine code is not checked"
    exit $failed
fi
common/sass/disassemble.sh /dev/null > /dev/null 2>&1
if [ $? = 3 ]; then
    common/sass/fetch_nvdisasm.sh > "$out/fetch.log" 2>&1 || { cat "$out/fetch.log"; bad "no nvdisasm, and none could be fetched"; exit 1; }
fi

# tsv LAB DEFINES: the stage's table rows.  What is asserted is what the
# lessons teach from them, not one compiler's exact counts.
tsv() { LAB_DEFINES="$2" SASS_TSV=1 common/sass/sass.sh "solutions/$1/matmul.cu" "$1" "$out/$1$2" 2> "$out/$1.err"; }
# per_ffma ROW: shared load instructions per FFMA, in hundredths.
per_ffma() { awk -F'\t' '$5 > 0 { printf "%d", 100 * $6 / $5 + 0.5 }' <<< "$1"; }
t32=$(tsv 04-tiled "") t16=$(tsv 04-tiled -DTILE=16) padded=$(tsv 05-padding "") reg=$(tsv 07-register-tiling "")
# 04 reads its A-tile row 16 bytes at a time; 05's padded row (33 floats)
# is no longer 16-byte aligned, so all its shared loads are 4 bytes wide and
# it needs more of them per FFMA.
[[ "$(cut -f8 <<< "$t32")" == 16x* ]] && ok "04-tiled: 16-byte shared loads in the hot loop ($(cut -f8 <<< "$t32"))" ||
    bad "04-tiled: no 16-byte shared loads: \"$t32\" $(cat "$out/04-tiled.err")"
[ "$(cut -f8 <<< "$padded")" = "4x$(cut -f6 <<< "$padded")" ] && ok "05-padding: every shared load 4 bytes wide ($(cut -f8 <<< "$padded"))" ||
    bad "05-padding: \"$padded\""
[ "$(per_ffma "$t32")" -lt "$(per_ffma "$padded")" ] 2>/dev/null &&
    ok "shared loads per FFMA: 04-tiled $(per_ffma "$t32")/100 < 05-padding $(per_ffma "$padded")/100" ||
    bad "04-tiled does not need fewer shared loads per FFMA than 05-padding: \"$t32\" / \"$padded\""
# TILE = 16: half the multiply-adds per trip of the tile loop.
[ "$(cut -f5 <<< "$t16")" -gt 0 ] && [ "$(( 2 * $(cut -f5 <<< "$t16") ))" = "$(cut -f5 <<< "$t32")" ] &&
    ok "04-tiled, TILE=16: $(cut -f5 <<< "$t16") FFMA per trip, half of TILE=32's" || bad "04-tiled -DTILE=16: \"$t16\""
# 07: each thread's 8 + 8 loaded values feed 64 FFMA: at most 0.25 per FFMA.
[ -n "$(per_ffma "$reg")" ] && [ "$(per_ffma "$reg")" -le 25 ] && ok "07-register-tiling: $(per_ffma "$reg")/100 shared loads per FFMA" ||
    bad "07-register-tiling: \"$reg\""

# The readable form names the source line of the wide loads.
LAB_DEFINES='' common/sass/sass.sh solutions/04-tiled/matmul.cu 04-tiled "$out/04-read" > "$out/04.txt" 2>&1
line=$(grep -n 'Bs\[k\]\[tx\]\|As\[ty\]\[k\]' solutions/04-tiled/matmul.cu | head -n 1 | cut -d: -f1)
grep -Eq "^    line $line +LDS\.128 +x[0-9]+$" "$out/04.txt" && grep -q 'per multiply-add: [0-9.]* shared load instructions' "$out/04.txt" &&
    ok "04-tiled, to read: the LDS.128 at line $line, shared loads per multiply-add" ||
    { bad "04-tiled, to read, lacks the LDS.128 at line $line:"; cat "$out/04.txt"; }

# The top-level form, for one lab of any folder shaped like labs/.
make --no-print-directory -s sass LAB=04 SUBMISSION="$root/solutions" > "$out/top.txt" 2>&1 &&
    grep -q '^kernel matmul_tiled_kernel.*registers per thread' "$out/top.txt" && grep -q 'hot loop: lines' "$out/top.txt" &&
    ok "make sass LAB=04 SUBMISSION=solutions: occupancy, then the hot loop" ||
    { bad "make sass LAB=04 SUBMISSION=solutions:"; cat "$out/top.txt"; }
make --no-print-directory -s sass > "$out/nolab.txt" 2>&1
[ $? = 2 ] && grep -q 'which lab' "$out/nolab.txt" && ok "make sass without LAB: asks which lab, exit status 2" ||
    { bad "make sass without LAB:"; cat "$out/nolab.txt"; }

# Stage 09's product is on tensor cores: HMMA instructions, no FFMA, and the
# skeleton, whose k loop multiplies nothing yet, none.
common/sass/sass.sh solutions/09-tensor-cores/matmul.cu 09-tensor-cores "$out/09" > "$out/09.txt" 2>&1 &&
    grep -q 'tensor cores: [1-9][0-9]* HMMA instructions' "$out/09.txt" && ! grep -q 'FFMA (multiply-adds)' "$out/09.txt" &&
    ok "09-tensor-cores: $(grep -o 'tensor cores: [0-9]* HMMA' "$out/09.txt" | head -n 1), no FFMA" ||
    { bad "09-tensor-cores: no HMMA in the machine code:"; cat "$out/09.txt"; }
# and its fragments come through generic loads (LD), which lesson 09 reads
# from this summary: wmma::load_matrix_sync takes a pointer the compiler
# does not place in shared memory.
grep -q 'generic loads: *[1-9][0-9]* instructions' "$out/09.txt" &&
    ok "09-tensor-cores: $(grep -o 'generic loads: *[0-9]*' "$out/09.txt" | head -n 1 | tr -s ' ') (LD) in its hot loop" ||
    { bad "09-tensor-cores: no generic loads counted:"; cat "$out/09.txt"; }
common/sass/sass.sh labs/09-tensor-cores/matmul.cu 09-tensor-cores "$out/09-skeleton" > "$out/09-skeleton.txt" 2>&1 &&
    ! grep -q 'HMMA' "$out/09-skeleton.txt" && ok "the stage 09 skeleton: no HMMA" ||
    { bad "the stage 09 skeleton:"; cat "$out/09-skeleton.txt"; }

# Stage 10 issues mma.sync through mma_tf32.h: HMMA, no FFMA, and its
# fragments come through shared loads (LDS), no generic load (lesson 10).
common/sass/sass.sh solutions/10-mma-sync/matmul.cu 10-mma-sync "$out/10" > "$out/10.txt" 2>&1 &&
    grep -q 'tensor cores: [1-9][0-9]* HMMA instructions' "$out/10.txt" && ! grep -q 'FFMA (multiply-adds)' "$out/10.txt" &&
    ! grep -q 'generic loads: *[1-9]' "$out/10.txt" && grep -q 'shared loads: *[1-9]' "$out/10.txt" &&
    ok "10-mma-sync: $(grep -o 'tensor cores: [0-9]* HMMA' "$out/10.txt" | head -n 1), shared loads, no FFMA, no generic load" ||
    { bad "10-mma-sync: not HMMA fed by shared loads:"; cat "$out/10.txt"; }
common/sass/sass.sh labs/10-mma-sync/matmul.cu 10-mma-sync "$out/10-skeleton" > "$out/10-skeleton.txt" 2>&1 &&
    ! grep -q 'HMMA' "$out/10-skeleton.txt" && ok "the stage 10 skeleton: no HMMA" ||
    { bad "the stage 10 skeleton:"; cat "$out/10-skeleton.txt"; }

# A skeleton compiles to a kernel without the loop: said, not an error.
common/sass/sass.sh labs/05-padding/matmul.cu 05-padding "$out/skeleton" > "$out/skeleton.txt" 2>&1 &&
    grep -q 'no loop with multiply-adds: the whole kernel' "$out/skeleton.txt" &&
    ok "a skeleton: no loop with multiply-adds, the whole kernel counted" ||
    { bad "the stage 05 skeleton:"; cat "$out/skeleton.txt"; }

# A kernel that does not compile: the compiler's error, and a failure.
printf '#include "lab.h"\n__global__ void k(float *c) { c[0] = undeclared; }\n' > "$out/broken.cu"
if common/sass/sass.sh "$out/broken.cu" 04-tiled "$out/broken" > "$out/broken.txt" 2>&1; then
    bad "a kernel that does not compile passed"
else
    grep -q 'does not compile with nvcc' "$out/broken.txt" && grep -q 'undeclared' "$out/broken.txt" &&
        ok "a kernel that does not compile: nvcc's error, exit status non-zero" ||
        { bad "a kernel that does not compile:"; cat "$out/broken.txt"; }
fi
exit $failed
