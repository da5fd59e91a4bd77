#!/usr/bin/env bash
# The cluster grading's scripts without a cluster: the two tasks of
# grader/slurm/grade_array.sbatch run side by side as Slurm would start
# them, then merge.sbatch writes the gradebook.  It must equal grade-all's
# for the same class, a failed grading in one task must not stop that task
# or the other, and a merge that finds a student ungraded must say so.
# grader/tests/slurm.sh does the same through a real Slurm (make test-slurm).
#
#   grader/tests/slurm_scripts.sh     (run by `make test-grading`)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/grader/tests/slurm_class.sh"
base="$root/build/test-grading/slurm-scripts"
class="$base/class"
out="$base/out"
failures=0
. "$root/common/tests/lib.sh"   # fail
start=$SECONDS

make_slurm_class "$class"
rm -rf "$out"
mkdir -p "$out"
# What submit.sh puts in the jobs' environment.  Erin's hanging kernel
# needs well over 60 s of test time limits: her grading is stopped.
# erin's hang costs her stage one test's time limit (10 s x the scale):
# scale 8 puts her grading past the 60 s a student may take, as the test
# wants, and leaves the others room on a busy machine (make test runs this
# beside other tests).
export KIT_ROOT=$root SUBMISSIONS=$class GRADE_ALL_OUT=$out GRADE_TASKS=2 BACKEND=sim LAB=01-naive GRADE_ALL_TIMEOUT=60 GRADE_TIMEOUT_SCALE=8
for task in 0 1; do
    SLURM_ARRAY_TASK_ID=$task SLURM_CPUS_PER_TASK=1 "$root/grader/slurm/grade_array.sbatch" > "$base/task-$task.log" 2>&1 &
    pids[$task]=$!
done
waited=0
while kill -0 "${pids[0]}" 2>/dev/null || kill -0 "${pids[1]}" 2>/dev/null; do
    sleep 1; waited=$((waited + 1))
    [ $((waited % 15)) -ne 0 ] || echo "     ... the two tasks (${waited}s)"
done
for task in 0 1; do
    wait "${pids[$task]}" || fail "task $task exited with status $? (see $base/task-$task.log)"
done
grep -q 'slice 0/2: 3 students: 3 graded, 0 already graded, 1 could not be graded' "$base/task-0.log" &&
    grep -q 'slice 1/2: 2 students: 2 graded, 0 already graded, 0 could not' "$base/task-1.log" &&
    echo "ok   tasks: task 0 graded alice and carol beside erin's failure, task 1 bob and dave" ||
    fail "tasks: unexpected slices (see $base/task-0.log, $base/task-1.log)"
[ -e "$out/gradebook.csv" ] && fail "tasks: a task wrote the gradebook (the merge's job)"

"$root/grader/slurm/merge.sbatch" > "$base/merge.log" 2>&1
status=$?
if [ $status -eq 1 ] && [ "$(gradebook_scores "$out/gradebook.csv")" = "$slurm_class_gradebook" ] &&
        grep -q 'grading failed for: erin' "$base/merge.log" &&
        grep -q 'grading erin FAILED: grading took longer than GRADE_ALL_TIMEOUT=60s' "$out/erin/grade.log"; then
    echo "ok   merge: the gradebook of the class, erin's failure named, exit status 1"
else
    fail "merge: status $status, gradebook:"; cat "$out/gradebook.csv" 2>/dev/null; echo "expected:"; echo "$slurm_class_gradebook"
fi

# A student graded with other settings (here: another GRADE_SEED) is not
# taken as graded: "not graded", and named.
GRADE_SEED=7 "$root/grader/slurm/merge.sbatch" > "$base/merge-seed.log" 2>&1
status=$?
if [ $status -eq 1 ] && grep -qx "alice,,not graded,$full01,,,,," "$out/gradebook.csv" &&
        grep -q 'no grade with these settings .* for: alice bob carol, "no stage" dave erin' "$base/merge-seed.log"; then
    echo "ok   merge with other settings: every student named and "not graded""
else
    fail "merge with other settings: status $status (see $base/merge-seed.log)"
fi

echo "slurm scripts: $((SECONDS - start))s"
[ $failures -eq 0 ]
