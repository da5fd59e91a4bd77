#!/usr/bin/env bash
# Grades one submission: every stage of the points table (or LAB=one), each
# built from the submission's matmul.cu alone, in a fresh folder.
#
#   grader/grade.sh            (called by `make grade`; settings come from the environment)
#     SUBMISSION  folder shaped like labs/ (default: labs)
#     LAB         grade only this stage, e.g. 01-naive
#     BACKEND     gpu | sim (default: detected)
#     GRADE_OUT   where logs and results.json go (default: build/grade)
#     GRADE_SUITE the grader's own test program (built by make)
#     GRADE_MEMORY_MIB  host memory one run of the student's code may use
#                 beyond the simulator's own (default 2048; grader/student_run.c)
#     GRADE_KIT_CHECKED=1  skip the kit's own check (grade_all.sh made it once)
#     GRADE_DEADLINE  a time (seconds since 1970) by which grading must end:
#                 a stage still running then, and every stage after it, is
#                 "not graded: the time for grading ran out"; the stages
#                 graded before keep their points (Gradescope's limit)
#
# Exit status: 0 when grading finished, whatever the score; 2 when no grade
# could be given: a kit error (the kit cannot grade on this machine:
# grader/kit_check.sh says why) or a bad setting.
#
# Scores come only from here and the grade_suite program, neither of which
# loads student code: what a student's program prints is never read as a
# result.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/grader/lib.sh"
submission=${SUBMISSION:-$root/labs}
out=${GRADE_OUT:-$root/build/grade}
suite=${GRADE_SUITE:-$root/build/grader/grade_suite}
backend=${BACKEND:-$(detect_backend)}
only=${LAB:-}
points="$root/grader/points.tsv"

die() { echo "grade: $*" >&2; exit 2; }
case "$backend" in gpu|sim) ;; *) die "BACKEND=$backend: choose gpu or sim" ;; esac
deadline=${GRADE_DEADLINE:-}
[ -z "$deadline" ] || [[ $deadline =~ ^[0-9]+$ ]] || die "GRADE_DEADLINE=$deadline is not a time in seconds since 1970"
seconds_left() { echo $((deadline - $(date +%s))); }
[ -d "$submission" ] || die "SUBMISSION=$submission is not a folder"
[ -x "$suite" ] || die "$suite is missing (run through make grade)"
submission=$(cd "$submission" && pwd)
stages=$(awk -F'\t' '!/^#/ && NF >= 3 { if (!seen[$1]++) print $1 }' "$points")
if [ -n "$only" ]; then
    echo "$stages" | grep -qx -- "$only" || die "LAB=$only is not a stage; stages: $(echo $stages)"
    stages=$only
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
# No score from an earlier run may outlive this one.
rm -f "$out/results.json" "$out/all.tsv" "$out/provenance.tsv"

# The kit itself first: if it cannot grade here, nobody gets a score.
if [ "${GRADE_KIT_CHECKED:-}" != 1 ]; then
    GRADE_OUT="$out" GRADE_SUITE="$suite" "$root/grader/kit_check.sh" "$backend" || exit 2
fi

# Lines of the points table for one stage: test, points, what it checks.
stage_tests() { awk -F'\t' -v s="$1" '!/^#/ && $1 == s { print $2 "\t" $3 "\t" $4 }' "$points"; }

# Every test of a stage fails with one reason (no file, no build).
fail_stage() {
    local stage=$1 why=$2
    stage_tests "$stage" | while IFS=$'\t' read -r test pts what; do
        printf '%s\t%s\tfail\t%s\n' "$stage" "$test" "$why"
    done > "$out/$stage/results.tsv.joined"
}

# build_lab STAGE DIR SUBDIR DEFINES: builds DIR/SUBDIR/lab_exec from the
# submission's file; on failure shows the compiler's messages.
build_lab() {
    local stage=$1 dir=$2 sub=$3 defines=$4 target="$2/$3/lab_exec" how=BACKEND=$backend
    # Variants named check...: the simulator's instrumented build, whatever
    # the backend, for the structural tests.
    case "$sub" in build-check*) target="$dir/$sub/check/lab_exec"; how=BACKEND=sim ;; esac
    if LC_ALL=C make --no-print-directory -f "$root/common/build.mk" $how \
            LAB_SRC="$dir/src/matmul.cu" LAB_NAME="$stage" OUT="$dir/$sub" LAB_DEFINES="$defines" \
            "$target" > "$dir/$sub.log" 2>&1; then
        return 0
    fi
    echo "   $stage/matmul.cu does not compile${defines:+ with $defines}; the compiler said:"
    grep -E 'error|warning|note' "$dir/$sub.log" | head -n 30 |
        sed -e "s|$dir/src/|$stage/|g" -e "$spelled_back" -e 's/^/   | /'
    return 1
}

# The simulator's build renames CUDA's reserved names (SIM_GLOBAL for
# __global__, ...; common/sim/cuda_spellings.h): its compiler's messages are
# shown with the names the student wrote.
spelled_back=
rewriter="$root/build/sim/common/rewrite_launch"
if [ -x "$rewriter" ]; then
    spelled_back=$("$rewriter" --spellings | awk -F'\t' '{ printf "s/\\<%s\\>/%s/g;", $1, $2 }')
fi

# The lowest-numbered "TODO n" still in a file, as a hint.
first_todo() {
    grep -n -o 'TODO [0-9][0-9]*' "$1" 2>/dev/null | sort -t' ' -k2,2n | head -n 1 |
        awk -F: '{ print $2 " (line " $1 ")" }'
}

scored=""
for stage in $stages; do
    dir="$out/$stage"
    rm -rf "$dir"
    mkdir -p "$dir/src"
    src="$submission/$stage/matmul.cu"
    echo "== $stage ($backend backend) =="
    # Only these two files are taken, and only if they are plain files: a
    # link could point at the solutions.
    answers="$submission/$stage/answers.txt"
    [ -f "$answers" ] && [ ! -L "$answers" ] && cp "$answers" "$dir/src/answers.txt"
    no_kernel=""   # why the kernel's tests cannot run, when they cannot
    if [ -n "$deadline" ] && [ "$(seconds_left)" -le 5 ]; then
        fail_stage "$stage" "not graded: the time for grading ran out before this stage"
    else
        if [ -L "$src" ] || { [ -e "$src" ] && [ ! -f "$src" ]; }; then
            no_kernel="$stage/matmul.cu is not a plain file (a link?): it was not graded"
        elif [ ! -f "$src" ]; then
            no_kernel="no $stage/matmul.cu in the submission ($submission): its kernel tests score 0"
        else
            cp "$src" "$dir/src/matmul.cu"
            if ! build_lab "$stage" "$dir" build ""; then
                no_kernel="matmul.cu does not compile (the compiler's messages are above)"
            else
                # Build variants (grader/variants.tsv): the same file rebuilt
                # with other settings, e.g. another tile width; their tests
                # fail alone.
                awk -F'\t' -v s="$stage" '!/^#/ && $1 == s { print $2 "\t" $3 }' "$root/grader/variants.tsv" |
                    while IFS=$'\t' read -r variant defines; do
                        # make reads an argument with "=" as a variable: no "=" in paths.
                        build_lab "$stage" "$dir" "build-${variant//=/_}" "$defines" ||
                            echo "   (the tests of $variant score 0)"
                    done
            fi
        fi
        # The suite runs even with no kernel to run: the kernel's tests then
        # fail at once (its program does not exist) and the quiz is graded.
        # Whatever a student's program left in this folder is not read: the
        # joined results are written afresh from the suite's.
        rm -f "$dir/results.tsv" "$dir/results.tsv.joined"
        limit=()
        [ -n "$deadline" ] && limit=(timeout -k 5 "$(seconds_left)")
        "${limit[@]}" "$suite" "$stage" "$dir/build/lab_exec" "$dir" > "$dir/suite.log" 2>&1
        rc=$?
        if [ $rc -eq 0 ]; then
            awk -F'\t' -v OFS='\t' -v s="$stage" -v why="$no_kernel" '
                why != "" && $2 == "fail" && $3 ~ /this build of matmul.cu does not exist/ { $3 = why }
                { print s, $0 }' "$dir/results.tsv" > "$dir/results.tsv.joined"
            # Every test the suite ran has its points, and every row of the
            # points table a test: anything else is the kit's bug, never a
            # test silently dropped from the score.
            # (CK_RUN_CASE, Check's own setting, runs one test on purpose.)
            disagree=$(awk -F'\t' -v stage="$stage" -v subset="${CK_RUN_CASE:-}" '
                FNR == NR { if (!/^#/ && $1 == stage) want[$2] = 1; next }
                { ran[$2] = 1 }
                END {
                    for (t in ran) if (!(t in want)) print "the suite ran \"" t "\", which has no row in grader/points.tsv"
                    if (subset == "")
                        for (t in want) if (!(t in ran)) print "grader/points.tsv gives points to \"" t "\", which the suite does not run"
                }' "$points" "$dir/results.tsv.joined")
            [ -z "$disagree" ] || kit_error "the points table and the $stage suite disagree" "$disagree"
        elif [ -n "$deadline" ] && { [ $rc -eq 124 ] || [ $rc -eq 137 ]; }; then
            fail_stage "$stage" "not graded: the time for grading ran out during this stage"
        else
            # The suite never runs student code: its failure is the kit's.
            kit_error "the grader's program failed on $stage" "$(tail -n 3 "$dir/suite.log")" "log: $dir/suite.log"
        fi
    fi
    # Join with the points table: each test's points come from the table
    # alone, and a table test the suite never reported counts as failed.
    # Shown: one line per stage and its first failure, or with V=1 every
    # test (results.json always holds every test).
    awk -F'\t' -v OFS='\t' -v stage="$stage" -v todo="$(first_todo "$dir/src/matmul.cu")" -v verbose="${V:-}" '
        FNR == NR { if (!/^#/ && $1 == stage) { order[++n] = $2; pts[$2] = $3 } ; next }
        { status[$2] = $3; msg[$2] = $4 }
        END {
            got = 0; max = 0; width = 8
            for (i = 1; i <= n; i++) if (length(order[i]) > width) width = length(order[i])
            for (i = 1; i <= n; i++) {
                t = order[i]; max += pts[t]
                s = (t in status) ? status[t] : "fail"
                m = (t in msg) ? msg[t] : "the test did not report a result"
                score = (s == "pass") ? pts[t] : 0; got += score
                printf "%s\t%s\t%d\t%d\t%s\n", stage, t, score, pts[t], m > "'"$dir"'/scored.tsv"
                shown = m; gsub(/\\n/, "\n" sprintf("%" (width + 16) "s", ""), shown); gsub(/\\"/, "\"", shown); gsub(/\\\\/, "\\", shown)
                line[i] = "  " sprintf("%-" width "s", t) " " sprintf("%-4s %2d/%-2d", (s == "pass" ? "OK" : "FAIL"), score, pts[t]) "  " shown
                # Grouped by reason, the size it was seen at left out.
                key = m; sub(/^n=[0-9]+: /, "", key)
                failed_for[i] = (s == "pass") ? "" : key
                if (s != "pass") { times[key]++; lost[key] += pts[t]; last[key] = t; at[key] = i; if (!(key in first)) first[key] = t }
                if (s != "pass" && !failures++) { first_failure = t; first_shown = shown }
                sub(/^n=[0-9]+: /, "", shown); text[key] = shown
            }
            if (verbose != 1) {
                printf "  %s: %d/%d", stage, got, max
                if (failures) printf "  (%d of %d tests failed; make grade V=1 lists every test)", failures, n
                printf "\n"
                if (failures) {
                    gsub(/\n {16,}/, "\n      ", first_shown)
                    printf "    first failure: %s: %s\n", first_failure, first_shown
                }
                if (got == 0 && todo != "")
                    printf "  Hint: matmul.cu still has %s: start there.\n", todo
                exit
            }
            # Tests that failed for one reason (no file, no build, no time,
            # a hang): the reason once, where the last of them stands.
            for (i = 1; i <= n; i++) {
                m = failed_for[i]
                if (m == "" || times[m] < 3) { print line[i]; continue }
                if (at[m] != i) continue
                label = times[m] " tests, " first[m] " to " last[m]
                printf "  %s\n  %-" width "s FAIL  0/%-2d  %s\n", label, "", lost[m], text[m]
            }
            printf "  %s: %d/%d\n", stage, got, max
            if (got == 0 && todo != "")
                printf "  Hint: matmul.cu still has %s: start there.\n", todo
        }' "$points" "$dir/results.tsv.joined"
    # Kept in memory, where no later student's program can reach it.
    scored+=$(cat "$dir/scored.tsv")$'\n'
done

# In the student handout the answer keys are left out: say who grades the quiz.
[ -d "$root/grader/answers" ] ||
    echo "The quizzes (answers.txt) are graded by your instructor: the answer keys are not in this copy."

# What this grade was made with (grader/provenance.sh): shown, and kept
# in results.json and for the gradebook.
GRADE_SEED=${GRADE_SEED:-} "$root/grader/provenance.sh" "$backend" > "$out/provenance.tsv"
awk -F'\t' '{ v[$1] = $2 } END {
    printf "Graded on %s (%s backend) with %s, check mode %s, CUDA %s, seed %s, kit %s\n",
        v["device"], v["backend"], v["compiler"], v["check compiler"], v["cuda"], v["seed"], v["kit"] }' "$out/provenance.tsv"

# Totals, and Gradescope's results format.
printf '%s' "$scored" > "$out/all.tsv"
awk -F'\t' -v json="$out/results.json" -v prov="$out/provenance.tsv" '
    function esc(s) { return s }   # fields are already JSON-escaped by grade_suite
    { got += $3; max += $4; line[++n] = $0 }
    END {
        printf "Score: %d/%d\n", got, max
        printf "{\n  \"score\": %d,\n  \"max_score\": %d,\n  \"visibility\": \"visible\",\n", got, max > json
        # Gradescope keeps extra_data with the grade: what it was made with.
        printf "  \"extra_data\": {\"provenance\": {" > json
        sep = ""
        while ((getline pline < prov) > 0) {
            split(pline, p, "\t"); gsub(/["\\]/, "", p[2])
            printf "%s\"%s\": \"%s\"", sep, p[1], p[2] > json; sep = ", "
        }
        printf "}},\n  \"tests\": [\n" > json
        for (i = 1; i <= n; i++) {
            split(line[i], f, "\t")
            printf "    {\"name\": \"%s: %s\", \"score\": %d, \"max_score\": %d, \"output\": \"%s\", \"visibility\": \"visible\"}%s\n",
                f[1], f[2], f[3], f[4], esc(f[5]), (i < n ? "," : "") > json
        }
        printf "  ]\n}\n" > json
    }' "$out/all.tsv"
echo "results: $out/results.json"
