#!/usr/bin/env bash
# The program around each stage's lab file (lab_exec.o: common/build.mk's
# program_object), made and kept before anyone is graded, for every build
# grade.sh makes of a stage: the plain one and each variant of
# grader/variants.tsv.  Builds then copy it, whoever they run as: a grader
# that runs students' code as another user (Gradescope's run_autograder)
# cannot keep it itself, and would compile it in every build.
#
#   grader/prepare_programs.sh gpu|sim      (called by make grade-prepare)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/grader/lib.sh"   # kit_stages, build_variants
backend=${1:?usage: prepare_programs.sh gpu|sim}
out=$root/build/$backend/prepare/programs

# prepare STAGE NAME BACKEND DEFINES: the program object of one build.
prepare() {
    local dir="$out/$1-${2//=/_}"
    make --no-print-directory -f "$root/grader/lab_exec.mk" BACKEND="$3" LAB_SRC=/dev/null LAB_NAME="$1" \
        OUT="$dir" LAB_DEFINES="$4" "$dir/lab_exec.o" || exit 1
}
# On a GPU, the objects every lab_exec links whose calls it wraps (grader/lab_exec.mk),
# once, before builds side by side could race to make them.
if [ "$backend" = gpu ]; then
    make --no-print-directory -f "$root/grader/lab_exec.mk" BACKEND=gpu LAB_SRC=/dev/null LAB_NAME=prepare \
        "$root/build/gpu/common/gpu_ledger.o" "$root/build/gpu/common/gpu_device_offer.o" || exit 1
fi
for stage in $(kit_stages); do
    prepare "$stage" build "$backend" ""
    while IFS=$'\t' read -r variant defines; do
        # Variants named check... are the simulator's, whatever the backend.
        case "$variant" in check*) prepare "$stage" "$variant" sim "$defines" ;;
                           *) prepare "$stage" "$variant" "$backend" "$defines" ;; esac
    done < <(build_variants "$stage")
done
