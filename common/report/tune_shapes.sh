#!/usr/bin/env bash
# tune_shapes: a tensor-core stage's solution at several block shapes, and
# with each change in its experiments/, beside cuBLAS with TF32 tensor
# cores, timed as the report times (L2 flushed, CV-bounded median, each size
# checked first): the measurement that puts matmul.cu's shape beside others
# and its lesson's "what holds it back" beside numbers. Re-run it on another
# GPU to choose again.
#
#   make -C solutions/09-tensor-cores tune [TUNE_SIZES="2048 4096"]   # GPU only (10-mma-sync alike)
#   common/report/tune_shapes.sh 09-tensor-cores > reports/h200/tune-09-tensor-cores.tsv   # the committed table
#   common/report/tune_shapes.sh 10-mma-sync --sources   # only write every shape's and
#                                                        # experiment's source (any machine)
#
# The shapes are solutions/STAGE/tune_shapes.txt's lines, each BM BN BK WM
# WN STAGES (matmul.cu's names; BK becomes both its BK_WIDE and its
# BK_NARROW, so a shape the GPU cannot give its shared memory fails to
# launch rather than being timed at another k-width) and MIN_BLOCKS, the
# blocks an SM must hold at once (__launch_bounds__'s second argument: 2
# caps a thread of 8 warps at 128 registers). Each is a copy of matmul.cu
# with those #defines changed, compiled one per core.
# Then each patch in solutions/STAGE/experiments/ (its first lines say what
# it changes), applied to matmul.cu at the committed shape; a patch with a
# line "# On top of: NAME [NAME ...]" applies to matmul.cu as the first
# experiment named has it, after the others' changes (experiment_source).
# A patch whose first line starts "# Ablation" leaves part of the work out
# on purpose (the copies, a barrier), to show what that part costs: its
# product may be wrong, so time_lab times it whatever its check finds
# (TIME_LAB_WRONG_TOO=1), and a wrong product's row says "wrong, by design"
# in the check column, an ablation's row being "ablation NAME". A patch
# with a line "# Arch: 90a" is built for that GPU-specific target
# (ARCH=90a: the instructions only that target has, wgmma among them)
# where the GPU is that target's (compute capability 9.0); elsewhere, as
# every other row, for the GPU's own, and the patch's code must fall back.
#
# One TSV line per shape (or experiment) and size: shape, n, median_ms, cv,
# GFLOP/s, % of cuBLAS TF32 at that n, and time_lab's check of the result.
# Where ncu is installed, three more columns at the largest size only (one
# profiled launch each): the share of cycles the SMs' tensor pipes were
# busy, and the share in which a scheduler issued an instruction; "-" at
# the other sizes. A third, full_pipe_gflops, divides GFLOP/s by the first:
# what the kernel would reach were the tensor pipes never idle, the same
# for every row of one stage, since every row's products are the same
# instruction. TUNE_NCU=0 leaves them out.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
stage=${1:?usage: tune_shapes.sh STAGE [--sources] [N ...]}
shift
stage_dir=$root/solutions/$stage
src=$stage_dir/matmul.cu
[ -f "$stage_dir/tune_shapes.txt" ] || { echo "tune_shapes: $stage has no tune_shapes.txt" >&2; exit 2; }
out=$root/build/gpu/tune-$stage
sources_only=
[ "${1:-}" = --sources ] && { sources_only=1; shift; }
sizes=${*:-1024 2048 4096}
. "$root/common/job_pool.sh"

shapes=$(grep -Ev '^(#|$)' "$stage_dir/tune_shapes.txt")

shape_name() { echo "$1x$2x$3 warp $4x$5 stages $6 blocks $7"; }
shape_dir() { echo "$out/$1-$2-$3-$4-$5-$6-$7"; }
experiments=
for patch in "$stage_dir"/experiments/*.patch; do
    [ -e "$patch" ] && experiments="$experiments $(basename "$patch" .patch)"
done

mkdir -p "$out"
[ -n "$sources_only" ] || make --no-print-directory -f "$root/common/build.mk" BACKEND=gpu LAB_SRC="$root/solutions/01-naive/matmul.cu" \
    "$root/build/gpu/common/time_cublas" > "$out/build-cublas.log" 2>&1 ||
    { echo "tune_shapes: time_cublas does not build ($out/build-cublas.log)" >&2; exit 1; }
cores=$(nproc 2>/dev/null || echo 2)
# The GPU's compute capability as nvcc spells it (90), for "# Arch:" lines.
gpu_arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .' || true)
# shape_source BM BN BK WM WN STAGES MIN_BLOCKS DIR: matmul.cu at that shape,
# as DIR/src/matmul.cu; fails when a line it changes is no longer there.
shape_source() {
    mkdir -p "$8/src"
    sed -e "s/^#define BM [0-9]*/#define BM $1/" -e "s/^#define BN [0-9]*/#define BN $2/" \
        -e "s/^#define BK_WIDE [0-9]*/#define BK_WIDE $3/" -e "s/^#define BK_NARROW [0-9]*/#define BK_NARROW $3/" -e "s/^#define WM [0-9]*/#define WM $4/" \
        -e "s/^#define WN [0-9]*/#define WN $5/" -e "s/^#define STAGES [0-9]*/#define STAGES $6/" \
        -e "s/__launch_bounds__(THREADS)/__launch_bounds__(THREADS, $7)/" "$src" > "$8/src/matmul.cu"
    for line in "#define BM $1" "#define BN $2" "#define BK_WIDE $3" "#define BK_NARROW $3" "#define WM $4" "#define WN $5" \
        "#define STAGES $6" "__launch_bounds__(THREADS, $7)"; do
        grep -qF "$line" "$8/src/matmul.cu" ||
            { echo "tune_shapes: matmul.cu has no \"${line% *}\" to change any more" >&2; return 1; }
    done
}

while read -r bm bn bk wm wn st mb; do
    wait_for_slot "$cores" || true   # a build that failed says so in its row
    d=$(shape_dir $bm $bn $bk $wm $wn $st $mb)
    shape_source $bm $bn $bk $wm $wn $st $mb "$d" || exit 1
    rm -f "$d/time_lab"   # never time an older build of the shape
    [ -n "$sources_only" ] || make --no-print-directory -f "$root/common/build.mk" BACKEND=gpu LAB_SRC="$d/src/matmul.cu" \
        LAB_NAME=$stage OUT="$d" "$d/time_lab" > "$d.log" 2>&1 &
done <<< "$shapes"
# experiment_source NAME FILE: matmul.cu with experiment NAME applied, on
# top of what its "# On top of:" line names: the first name's source (its
# own bases included), then each further name's own changes in turn (such a
# name may not stack on another itself). A patch of no changes of its own
# (no "--- " line) is just that stack. Fails when a patch no longer applies.
experiment_source() {
    local patch=$stage_dir/experiments/$1.patch first rest b from=$src
    read -r first rest <<< "$(sed -n 's/^# On top of: //p' "$patch")"
    if [ -n "$first" ]; then
        experiment_source "$first" "$2.base" || return 1
        from=$2.base
    fi
    for b in $rest; do
        if grep -q '^# On top of: ' "$stage_dir/experiments/$b.patch"; then
            echo "tune_shapes: experiments/$1.patch stacks $b, which stacks on another: name that one first" >&2; return 1
        fi
        patch --quiet --fuzz=0 -o "$2.next" "$from" < "$stage_dir/experiments/$b.patch" ||
            { echo "tune_shapes: experiments/$b.patch no longer applies on top of $first, as $1 stacks it" >&2; return 1; }
        mv -f "$2.next" "$2.base" && from=$2.base
    done
    if grep -q '^--- ' "$patch"; then
        patch --quiet --fuzz=0 -o "$2" "$from" < "$patch" ||
            { echo "tune_shapes: experiments/$1.patch no longer applies${first:+ on top of $first $rest}" >&2; return 1; }
    else
        cp "$from" "$2"
    fi
    rm -f "$2.base"
}

for e in $experiments; do
    wait_for_slot "$cores" || true   # a build that failed says so in its row
    mkdir -p "$out/$e/src"
    experiment_source "$e" "$out/$e/src/matmul.cu" || exit 1
    rm -f "$out/$e/time_lab"
    arch=$(sed -n 's/^# Arch: //p' "$stage_dir/experiments/$e.patch" | head -n 1)
    [ "$arch" = "${gpu_arch}a" ] || arch=
    [ -n "$sources_only" ] || make --no-print-directory -f "$root/common/build.mk" BACKEND=gpu LAB_SRC="$out/$e/src/matmul.cu" \
        LAB_NAME=$stage OUT="$out/$e" ${arch:+ARCH=$arch} "$out/$e/time_lab" > "$out/$e.log" 2>&1 &
done
wait
[ -z "$sources_only" ] || exit 0

largest=$(printf '%s\n' $sizes | sort -n | tail -n 1)
metrics=sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
profile() {  # profile PROGRAM: "tensor_pipe_pct<TAB>issue_pct" of its first kernel launch at the largest size
    if [ "${TUNE_NCU:-1}" = 0 ] || ! command -v ncu > /dev/null; then return; fi
    { ncu -k regex:matmul_ --launch-count 1 --metrics "$metrics" --csv "$1" "$stage" "$largest" 2> /dev/null || true; } |
        awk -F'","' '/pipe_tensor_cycles/ { t = $NF } /issue_active/ { i = $NF }
                     END { gsub(/"/, "", t); gsub(/"/, "", i); if (t != "") print t "\t" (i == "" ? "-" : i) }'
}

# time_one KIND NAME PROGRAM: its lines (KIND experiment or ablation, or a
# shape's name alone), with % of cuBLAS and the profile columns; a size
# time_lab found wrong or could not run keeps time_lab's words, but an
# ablation's wrong product is timed all the same.
time_one() {
    local busy wrong_too=
    [ "$1" = ablation ] && wrong_too=1
    busy=$(profile "$3")
    { TIME_LAB_WRONG_TOO=$wrong_too "$3" "$stage" $sizes 2>&1 || true; } |
        awk -F'\t' -v OFS='\t' -v shape="${1:+$1 }$2" -v cublas="$out/cublas.tsv" -v largest="$largest" -v busy="$busy" -v wrong_too="$wrong_too" '
            BEGIN { while ((getline line < cublas) > 0) { split(line, f, "\t"); if (f[1] == "cublas-tf32") base[f[2]] = f[3] }
                    split(busy, b, "\t") }
            NF < 9 { print shape "\t-\t-\t-\t-\t-\t" $0 "\t-\t-\t-"; next }
            wrong_too && $9 == "wrong" { $9 = "wrong, by design" }
            $9 != "ok" && $9 != "wrong, by design" { print shape "\t" $2 "\t-\t-\t-\t-\t" $9 "\t-\t-\t-"; next }
            { pct = ($2 in base) && $3 > 0 ? sprintf("%.1f", 100 * base[$2] / $3) : "-"
              full = $2 == largest && b[1] > 0 ? sprintf("%.0f", $8 / (b[1] / 100)) : "-"
              print shape "\t" $2 "\t" $3 "\t" $6 "\t" $8 "\t" pct "\t" $9 "\t" ($2 == largest && busy != "" ? busy : "-\t-") "\t" full }'
}

printf 'shape\tn\tmedian_ms\tcv\tgflops\tpct_cublas_tf32\tcheck\ttensor_pipe_pct\tissue_pct\tfull_pipe_gflops\n'
"$root/build/gpu/common/time_cublas" $sizes > "$out/cublas.tsv"
awk -F'\t' '$1 == "cublas-tf32" { print "cublas-tf32\t" $2 "\t" $3 "\t" $6 "\t" $8 "\t100.0\t" $9 "\t-\t-\t-" }' "$out/cublas.tsv"
while read -r bm bn bk wm wn st mb; do
    d=$(shape_dir $bm $bn $bk $wm $wn $st $mb)
    if [ -x "$d/time_lab" ]; then
        time_one "" "$(shape_name $bm $bn $bk $wm $wn $st $mb)" "$d/time_lab"
    else
        printf '%s\t-\t-\t-\t-\t-\tdoes not build (%s)\t-\t-\t-\n' "$(shape_name $bm $bn $bk $wm $wn $st $mb)" "$d.log"
    fi
done <<< "$shapes"
for e in $experiments; do
    kind=experiment
    head -n 1 "$stage_dir/experiments/$e.patch" | grep -q '^# Ablation' && kind=ablation
    if [ -x "$out/$e/time_lab" ]; then
        time_one "$kind" "$e" "$out/$e/time_lab"
    else
        printf '%s %s\t-\t-\t-\t-\t-\tdoes not build (%s)\t-\t-\t-\n' "$kind" "$e" "$out/$e.log"
    fi
done
