#!/usr/bin/env bash
# `make grade-all` on a small class: four students (the solutions in a
# copy of the kit, the skeletons, one without the stage, one whose file
# does not compile), a file that is not a student and an archive, graded
# on 01-naive; the gradebook's rows and totals; a second run skips every
# student, FORCE=1 regrades them all; a student whose grading fails (here:
# past GRADE_ALL_TIMEOUT) gets zeros and a note, and the batch goes on.
#
#   grader/tests/grade_all.sh     (run by `make test-grading`)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
base="$root/build/test-grading"
class="$base/class"
out="$base/grade-all"
failures=0
. "$root/common/tests/lib.sh"   # fail
source "$root/grader/tests/slurm_class.sh"   # gradebook_scores
start=$SECONDS

rm -rf "$class" "$out"
mkdir -p "$class"
# alice hands in a copy of the whole kit (a clone of the course's
# repository): her labs/ is graded, and her results say so.
mkdir -p "$class/alice"
cp "$root/README.md" "$class/alice/"
cp -R "$root/solutions" "$class/alice/labs"
cp -R "$root/labs" "$class/bob"
# The id with a comma and quotes tests the CSV quoting (and a build folder
# for an id make could not take).
carol='carol, "no stage"'
cp -R "$root/solutions" "$class/$carol"
rm -rf "$class/$carol/01-naive"
cp -R "$root/solutions" "$class/dave"
cp "$root/grader/tests/bad-kernels/no-compile/01-naive/matmul.cu" "$class/dave/01-naive/matmul.cu"
echo "not a student" > "$class/roster.txt"
# A student's work left zipped, as a course's site hands it out: not
# graded, but named, at the start and at the end.
(cd "$root/solutions" && zip -q -r "$class/gina.zip" 01-naive 2>/dev/null) || printf 'PK\003\004' > "$class/gina.zip"

# grade_all LOG [VAR=value...]: make grade-all on the class, 01-naive only.
grade_all() {
    local log="$base/$1"; shift
    env "$@" make --no-print-directory -C "$root" grade-all SUBMISSIONS="$class" LAB=01-naive \
        GRADE_ALL_OUT="$out" > "$log" 2>&1
}

# 1. First run: every student graded, the gradebook as expected.
grade_all grade-all-1.log
status=$?
expected=$(echo "$slurm_class_gradebook" | grep -v '^erin,')   # the same class, erin aside
if [ $status -ne 0 ]; then
    fail "first run: make grade-all exited with $status (see $base/grade-all-1.log)"
elif [ "$(gradebook_scores "$out/gradebook.csv")" != "$expected" ]; then
    fail "first run: gradebook.csv is"; cat "$out/gradebook.csv"; echo "expected:"; echo "$expected"
else
    echo "ok   first run: gradebook.csv has the 4 students, sorted, quoted, with their totals"
fi
for id in alice bob "$carol" dave; do
    [ -f "$out/$id/results.json" ] && [ -f "$out/$id/grade.log" ] || fail "first run: no results.json or grade.log for $id"
done
[ -e "$out/roster.txt" ] && fail "first run: roster.txt was graded as a student"
[ "$(grep -c '^grade-all: warning: 1 archive(s) in .*, not graded: gina.zip: .*unpack each archive' "$base/grade-all-1.log")" = 2 ] &&
    echo "ok   first run: gina.zip is named as not graded, before and after the grading" ||
    fail "first run: gina.zip was not named twice as an archive left ungraded (see $base/grade-all-1.log)"
grep -q '"output": "Graded labs, the folder of the submission that holds the stages."' "$out/alice/results.json" &&
    echo "ok   first run: alice's copy of the kit graded from its labs/, and her results.json says so" ||
    fail "first run: alice's results.json does not say her labs/ was graded"
# g++'s message, or nvcc's when the simulator's build asks nvcc first (NVCC_CHECK).
grep -q -e "expected ';'" -e 'expected a ";"' "$out/dave/grade.log" || fail "first run: dave's grade.log does not show the compiler's message"
grep -q "no 01-naive/matmul.cu in the submission" "$out/$carol/grade.log" ||
    fail "first run: carol's grade.log does not say the stage is missing"
progress=$(grep -c -E "^\\[[1-4]/4\\] .*: [0-9]+/$full01 \\(ETA [0-9]+(s|m[0-9]{2}s)\\)\$" "$base/grade-all-1.log")
[ "$progress" = 4 ] && echo "ok   first run: 4 progress lines with scores and an ETA" ||
    fail "first run: $progress progress lines like '[1/4] alice: $full01/$full01 (ETA 5s)' (see $base/grade-all-1.log)"
# The class's tests: alice lost none, bob (the skeletons), carol (no stage)
# and dave (no compile) every kernel test; the quiz only bob and carol.
if grep -qx '01-naive,n=1,1,4,3,".*",1' "$out/tests.csv" 2>/dev/null &&
        grep -q '^01-naive,quiz Q1,1,4,2,' "$out/tests.csv" &&
        grep -q "^tests: $out/tests.csv, .*; lost by most students: 01-naive n=1 (3 of 4), 01-naive n=2 (3 of 4), 01-naive n=3 (3 of 4)\$" "$base/grade-all-1.log"; then
    echo "ok   first run: tests.csv counts the students who lost each test, with a reason, and the log names the tests most lost"
else
    fail "first run: tests.csv or its line in the log is not as expected (see $out/tests.csv, $base/grade-all-1.log)"
fi
stamps() { for id in alice bob "$carol" dave; do stat -c %Y.%y "$out/$id/results.json"; done; }
before=$(stamps)

# 2. Again: nothing changed, every student skipped.
grade_all grade-all-2.log
status=$?
skipped=$(grep -c '(already graded; FORCE=1 regrades)$' "$base/grade-all-2.log")
if [ $status -eq 0 ] && [ "$skipped" = 4 ] && [ "$(stamps)" = "$before" ] &&
        [ "$(gradebook_scores "$out/gradebook.csv")" = "$expected" ]; then
    echo "ok   second run: all 4 skipped, results untouched, the same gradebook"
else
    fail "second run: status $status, $skipped of 4 skipped (see $base/grade-all-2.log)"
fi

# 3. A changed file regrades its student only.
touch "$class/bob/01-naive/matmul.cu"
grade_all grade-all-3.log
if [ "$(grep -c '(already graded; FORCE=1 regrades)$' "$base/grade-all-3.log")" = 3 ] && grep -q "^\\[4/4\\] bob: 0/$full01 (ETA" "$base/grade-all-3.log"; then
    echo "ok   a changed file: bob regraded, the 3 others skipped"
else
    fail "a changed file: expected bob alone regraded (see $base/grade-all-3.log)"
fi

# 4. FORCE=1: every student graded again.
grade_all grade-all-4.log FORCE=1
status=$?
regraded=$(grep -c -E '^\[[1-4]/4\] .* \(ETA ' "$base/grade-all-4.log")
if [ $status -eq 0 ] && [ "$regraded" = 4 ] && ! grep -q '(already graded; FORCE=1 regrades)$' "$base/grade-all-4.log" &&
        [ "$(gradebook_scores "$out/gradebook.csv")" = "$expected" ]; then
    echo "ok   FORCE=1: all 4 regraded, the same gradebook"
else
    fail "FORCE=1: status $status, $regraded of 4 regraded (see $base/grade-all-4.log)"
fi

# 5. A grading that fails: a kernel that hangs, with a per-student limit
# shorter than its tests' time limits.  The batch finishes, exits 1, and
# the student has zeros and a note.
broken="$base/class-broken"
rm -rf "$broken" "$out-broken"
mkdir -p "$broken/erin" "$broken/frank"
# erin's program forks a copy of itself that spins on the host, then hangs
cp -R "$root/grader/tests/bad-kernels/hang-in-forked-child/01-naive" "$broken/erin/"
# frank uploaded nothing: graded at once, 0 points
GRADE_ALL_TIMEOUT=4 SUBMISSIONS="$broken" LAB=01-naive GRADE_ALL_OUT="$out-broken" JOBS=2 \
    "$root/grader/grade_all.sh" > "$base/grade-all-broken.log" 2>&1
status=$?
if [ $status -eq 1 ] && gradebook_scores "$out-broken/gradebook.csv" | grep -qx "erin,0,0,$full01" &&
        grep -q 'grading erin FAILED: grading took longer than GRADE_ALL_TIMEOUT=4s' "$out-broken/erin/grade.log" &&
        grep -q '"score": 0' "$out-broken/erin/results.json" && gradebook_scores "$out-broken/gradebook.csv" | grep -qx "frank,0,0,$full01"; then
    echo "ok   a failed grading: erin gets zeros and a note, frank is graded, exit status 1"
else
    fail "a failed grading: status $status (see $base/grade-all-broken.log, $out-broken/gradebook.csv)"
fi
# Stopping erin's grading stops her program too, and the copy it forked:
# nothing of hers spins on (as root it runs with nobody's rights: dropping
# root once cleared its death signal; the copy never had one).
for _ in 1 2 3 4 5; do
    pgrep -f "$out-broken/erin/.*lab_exec" > /dev/null || break
    sleep 1
done
if pgrep -f "$out-broken/erin/.*lab_exec" > /dev/null; then
    fail "a failed grading: erin's program still runs after her grading was stopped: $(pgrep -af "$out-broken/erin/.*lab_exec" | head -n 1)"
    pkill -KILL -f "$out-broken/erin/.*lab_exec"
else
    echo "ok   a failed grading: erin's hanging program and its forked copy were stopped with her grading"
fi

echo "grade-all: $((SECONDS - start))s"
[ $failures -eq 0 ]
