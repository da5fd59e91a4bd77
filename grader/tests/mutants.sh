#!/usr/bin/env bash
# The grader's own test: wrong kernels it must fail ("mutants").
#
# Each grader/mutants/<stage>/<name>.patch breaks one thing in a stage's
# solution, and names in a "# targets: test; test ..." line the tests of the
# stage's points table that must lose their points.  Each is applied to the
# solution as it is now (a patch that no longer applies is BROKEN: the
# mutant would have drifted from the solution), then graded alone, as the
# only matmul.cu of a fresh submission (with the solution's answers.txt),
# and is "killed" when every one of its targets fails.  The grader must also
# finish normally (status 0) and the mutant must compile in every build
# its targets run: a target lost to a build failure proves nothing.
#
#   grader/tests/mutants.sh [STAGE | STAGE/NAME ...]     (all mutants when none named)
#     MUTANT_JOBS   mutants graded at once (default: the number of CPUs)
#     BACKEND       as for grade.sh (default here: sim, so races behave the same everywhere)
#     MUTANT_SOLUTIONS  the solutions the patches apply to (default: solutions/;
#                   grader/tests/mutants_drift.sh points it at a changed copy)
#     MUTANT_OUT    where the mutants are graded (default: build/test-grading/mutants)
#
# A mutant is graded on its targets alone (grade.sh's GRADE_CASES: Check
# runs each of them, and no other test, and only the builds they run are
# made: a size test of stage 04's TILE=32 needs neither TILE=16 build).
# nvcc's check of each build is left out (NVCC_CHECK=0, unless set): the
# mutants are the solutions with one thing broken, and no test reads
# nvcc's numbers.
# Exits 0 only when every mutant was killed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
mutants="$root/grader/mutants"
. "$root/grader/lib.sh"   # points_table, score, wait_for_slot, forget_test_selection
out=${MUTANT_OUT:-$root/build/test-grading/mutants}
solutions=${MUTANT_SOLUTIONS:-$root/solutions}
suite=${GRADE_SUITE:-$root/build/grader/grade_suite}
jobs=${MUTANT_JOBS:-$(nproc 2>/dev/null || echo 2)}
export BACKEND=${BACKEND:-sim}
export NVCC_CHECK=${NVCC_CHECK:-0}
start=$(date +%s)

if [ ! -x "$suite" ]; then
    make -C "$root" --no-print-directory "$suite" > /dev/null || { echo "mutants: cannot build $suite"; exit 2; }
fi
export GRADE_SUITE="$suite"

# The mutants to grade, as stage/name.
list=()
if [ $# -eq 0 ]; then
    set -- $(cd "$mutants" && ls -d [0-9]*/ | tr -d /)
fi
for arg in "$@"; do
    arg=${arg%.patch}
    if [ -d "$mutants/$arg" ]; then
        for f in "$mutants/$arg"/*.patch; do
            [ -f "$f" ] && list+=("$arg/$(basename "$f" .patch)")
        done
    elif [ -f "$mutants/$arg.patch" ]; then
        list+=("$arg")
    else
        echo "mutants: no mutant or stage $arg under $mutants"; exit 2
    fi
done
[ ${#list[@]} -gt 0 ] || { echo "mutants: none found under $mutants"; exit 2; }

# Their README is written from them: it must say what they are.
"$mutants/readme.sh" --check || exit 1

# targets_of FILE: the "# targets:" line's test names, one per line.
targets_of() {
    sed -n 's|^# targets:[[:space:]]*||p' "$1" | head -n 1 | tr ';' '\n' |
        sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' | grep -v '^$'
}

# grade_one STAGE/NAME: grades one mutant; its verdict, one line, goes to
# $out/STAGE/NAME/verdict.
grade_one() {
    local id=$1 stage=${1%%/*} name=${1#*/}
    local src="$mutants/$id.patch" dir="$out/$id" verdict="$out/$id/verdict"
    rm -rf "$dir"
    mkdir -p "$dir/submission/$stage"
    # Exact context only (offsets allowed): a hunk whose lines moved in the
    # solution must be rewritten, not guessed at.
    if ! patch --quiet --fuzz=0 --no-backup-if-mismatch -r - -o "$dir/submission/$stage/matmul.cu" \
            "$solutions/$stage/matmul.cu" < "$src" > "$dir/patch.log" 2>&1; then
        echo "BROKEN $id: the patch no longer applies to $stage's solution (rewrite it against solutions/$stage/matmul.cu): $(head -n 2 "$dir/patch.log" | paste -sd' ')" > "$verdict"
        return
    fi
    [ -f "$solutions/$stage/answers.txt" ] && cp "$solutions/$stage/answers.txt" "$dir/submission/$stage/"
    local targets
    targets=$(targets_of "$src")
    local shown
    shown=$(echo "$targets" | paste -sd';' | sed 's/;/; /g')
    if [ -z "$targets" ]; then
        echo "BROKEN $id: no \"# targets:\" line" > "$verdict"; return
    fi
    local t
    while IFS= read -r t; do
        if ! score tests "$(points_table "$stage")" | grep -qxF "$stage"$'\t'"$t"; then
            echo "BROKEN $id: \"$t\" is not a test of $stage in grader/suites/$stage.points.tsv" > "$verdict"; return
        fi
    done <<< "$targets"
    # Only the targets are run, each alone (GRADE_CASES), and only the
    # builds they run are made: a mutant that does not compile in one of
    # those is found.
    (
        forget_test_selection
        SUBMISSION="$dir/submission" LAB="$stage" GRADE_OUT="$dir/grade" GRADE_TIMEOUT_SCALE=0.3 \
            GRADE_CASES="$targets" "$root/grader/grade.sh" > "$dir/grade.log" 2>&1
    )
    local status=$?
    if [ $status -ne 0 ]; then
        echo "BROKEN $id: the grader exited with status $status (see $dir/grade.log)" > "$verdict"; return
    fi
    if grep -q "does not compile" "$dir/grade.log"; then
        echo "BROKEN $id: the mutant does not compile in every build (see $dir/grade.log)" > "$verdict"; return
    fi
    # Each target: FAIL (score 0 of max > 0) after the test really ran.
    local passed=() unrun=()
    while IFS= read -r t; do
        local line
        line=$(awk -F'\t' -v t="$t" '$2 == t { print $3 "\t" $4 "\t" $5; exit }' "$dir/grade/all.tsv")
        local score=${line%%$'\t'*} rest=${line#*$'\t'}
        local max=${rest%%$'\t'*} msg=${rest#*$'\t'}
        if [ -z "$line" ] || [ "$msg" = "the test did not report a result" ]; then
            unrun+=("$t")
        elif [ "$score" != 0 ] || [ "$max" -le 0 ]; then
            passed+=("$t")
        fi
    done <<< "$targets"
    if [ ${#unrun[@]} -gt 0 ]; then
        echo "BROKEN $id: target(s) never ran: $(IFS=';'; echo "${unrun[*]}" | sed 's/;/; /g') (see $dir/grade.log)" > "$verdict"
    elif [ ${#passed[@]} -gt 0 ]; then
        echo "SURVIVED $id: $(IFS=';'; echo "${passed[*]}" | sed 's/;/; /g') passed (targets: $shown; see $dir/grade.log)" > "$verdict"
    else
        echo "killed $id: $shown" > "$verdict"
    fi
}

# Grade up to $jobs mutants at once; print the verdicts in order.
for id in "${list[@]}"; do
    wait_for_slot "$jobs"
    grade_one "$id" &
done
wait

total=0 killed=0
declare -A stage_total stage_killed
stages=()
for id in "${list[@]}"; do
    stage=${id%%/*}
    [ -n "${stage_total[$stage]:-}" ] || { stages+=("$stage"); stage_total[$stage]=0; stage_killed[$stage]=0; }
    v=$(cat "$out/$id/verdict" 2>/dev/null || echo "BROKEN $id: no verdict (the test script itself failed)")
    echo "$v"
    total=$((total + 1)); stage_total[$stage]=$((stage_total[$stage] + 1))
    case "$v" in killed\ *) killed=$((killed + 1)); stage_killed[$stage]=$((stage_killed[$stage] + 1)) ;; esac
done
for stage in "${stages[@]}"; do
    echo "kill rate $stage: ${stage_killed[$stage]}/${stage_total[$stage]}"
done
# Only the builds a mutant's targets run were made: stage 04's phases-floor,
# aimed at a test of the TILE=32 build, has that build and no TILE=16 one.
witness="$out/04-tiled/phases-floor/grade/04-tiled" builds_right=1
if printf '%s\n' "${list[@]}" | grep -qx 04-tiled/phases-floor; then
    if [ -x "$witness/build-TILE_32/lab_exec" ] && [ ! -e "$witness/build-TILE_16" ] && [ ! -e "$witness/build-check-TILE_16" ]; then
        echo "ok   04-tiled/phases-floor: only the builds its targets run were made (TILE=32's, no TILE=16)"
    else
        echo "FAIL 04-tiled/phases-floor: its builds are not the ones its targets run: $(cd "$witness" && ls -d build* | paste -sd' ')"
        builds_right=0
    fi
fi
echo "kill rate overall: $killed/$total ($(( $(date +%s) - start )) s)"
[ $killed -eq $total ] && [ $builds_right = 1 ]
