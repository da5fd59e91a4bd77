#!/usr/bin/env bash
# The grader on what it must get right: correct kernels written unlike the
# solutions score full marks; the untouched skeletons compile, run, score 0
# and point at their first TODO.  The submissions are graded a few at once
# (case_pool.sh), their verdicts shown in order.  (The solutions' own full
# marks are gradescope_bundle.sh's first case, graded there through the
# Gradescope bundle, the longer path to the same grade.sh: one full grade
# of every stage, not two.)
#
#   grader/tests/grade_stages.sh     (run by `make test`)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/grader/tests/case_pool.sh"   # pool_case, pool_settle
out="$root/build/test-grading"
mkdir -p "$out"
failures=0

# grade NAME SUBMISSION [LAB]: grades into $out/NAME, its output in $out/NAME.log.
grade() {
    local name=$1 sub=$2 lab=${3:-}
    SUBMISSION="$sub" LAB="$lab" GRADE_OUT="$out/$name" "$root/grader/grade.sh" > "$out/$name.log" 2>&1 ||
        { echo "FAIL $name: the grader exited with status $? (see $out/$name.log)"; failures=$((failures + 1)); return 1; }
}

score_of() { sed -n 's/^Score: //p' "$out/$1.log"; }

skeletons() {
    grade skeletons "$root/labs"
    local s stages
    s=$(score_of skeletons)
    if [ "${s%/*}" = 0 ] && ! grep -q "does not compile" "$out/skeletons.log" &&
        [ "$(grep -c 'still has TODO 1 ' "$out/skeletons.log")" = "$(ls -d "$root"/labs/[0-9]*/ | wc -l)" ]; then
        echo "ok   skeletons: Score: $s, each stage points at its TODO 1"
    else
        echo "FAIL skeletons: Score: ${s:-none}, expected 0 with a TODO 1 hint per stage (see $out/skeletons.log)"
        failures=$((failures + 1))
    fi
    # Quiet by default: the skeletons' 136 failing tests make one line per
    # stage and its first failure; V=1 lists every test.
    stages=$(ls -d "$root"/labs/[0-9]*/ | wc -l)
    if [ "$(grep -c '^  .* FAIL ' "$out/skeletons.log")" = 0 ] &&
            [ "$(grep -c '^    first failure: ' "$out/skeletons.log")" = "$stages" ] &&
            [ "$(grep -c 'tests failed; make grade V=1 lists every test' "$out/skeletons.log")" = "$stages" ]; then
        echo "ok   skeletons, quiet: one line and the first failure per stage"
    else
        echo "FAIL skeletons, quiet: per-test lines or no first failures (see $out/skeletons.log)"; failures=$((failures + 1))
    fi
}

skeletons_verbose() {
    V=1 grade skeletons-verbose "$root/labs" 01-naive
    if [ "$(grep -c '^  n=[0-9]* .* FAIL ' "$out/skeletons-verbose.log")" -ge 5 ]; then
        echo "ok   skeletons, V=1: every test on its own line"
    else
        echo "FAIL skeletons, V=1: the tests are not listed (see $out/skeletons-verbose.log)"; failures=$((failures + 1))
    fi
}

pool_case skeletons skeletons
pool_case skeletons-verbose skeletons_verbose

# Right kernels shaped unlike the solutions (grader/tests/right-kernels/),
# each with its stage's right quiz answers: full marks or the grader is
# grading our shape, not the idea.  One stage each.
# right_kernel NAME KERNEL_DIR STAGE
right_kernel() {
    local name=$1 kernel=$2 stage=$3 sub="$out/submission-$1" s
    rm -rf "$sub" && mkdir -p "$sub" && cp -R "$kernel$stage" "$sub/"
    [ -f "$root/solutions/$stage/answers.txt" ] && cp "$root/solutions/$stage/answers.txt" "$sub/$stage/"
    grade "$name" "$sub" "$stage" || return
    s=$(score_of "$name")
    if [ -n "$s" ] && [ "${s%/*}" = "${s#*/}" ]; then
        echo "ok   $name: Score: $s"
    else
        echo "FAIL $name: Score: ${s:-none}, a correct kernel must get full marks (see $out/$name.log)"
        failures=$((failures + 1))
    fi
}
# A kernel marked needs-nvcc is right on the simulator only where nvcc
# checks the lab file (NVCC_CHECK, common/backend.mk); elsewhere it is a
# kit limit, which bad_kernels.sh tests.
nvcc_checks=$(make --no-print-directory -s -f "$root/common/backend.mk" -f - print-nvcc-check <<'MAKE' 2>/dev/null
print-nvcc-check: ; @echo $(NVCC_CHECK)
MAKE
)
for stage_dir in "$root"/grader/tests/right-kernels/*/[0-9]*/; do
    kernel=$(dirname "$stage_dir")/
    stage=$(basename "$stage_dir")
    name=right-$(basename "$kernel")-$stage
    if [ -f "$kernel/needs-nvcc" ] && [ "$nvcc_checks" != 1 ]; then
        echo "skip $name: right on the simulator only where nvcc checks the lab file (its needs-nvcc; no nvcc here, or NVCC_CHECK=0)"
        continue
    fi
    pool_case "$name" right_kernel "$name" "$kernel" "$stage"
done
pool_settle

[ $failures -eq 0 ]
