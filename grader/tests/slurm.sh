#!/usr/bin/env bash
# Cluster grading through a real Slurm: a single-node cluster started here
# (single_node_slurm.sh), `make grade-slurm` on a small class in 2 tasks,
# and the gradebook compared with `make grade-all`'s for the same class.
# One task holds a kernel that hangs until its grading is stopped: the
# other students of that task and the other task are graded all the same,
# and the merge names the student who could not be.
#
#   grader/tests/slurm.sh      (run by `make test-slurm`; root, and installs Slurm and munge with apt-get)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/grader/tests/slurm_class.sh"
source "$root/grader/tests/single_node_slurm.sh"
base="$root/build/test-slurm"
class="$base/class"
failures=0
. "$root/common/tests/lib.sh"   # fail
start=$SECONDS

if [ "$(id -u)" != 0 ]; then
    echo "test-slurm: skipped (needs root, to start slurmd and munged)"
    exit 0
fi
"$root/common/deps.sh" slurm || exit 2
rm -rf "$base"
mkdir -p "$base"
make_slurm_class "$class"
# erin's hang costs her stage one test's time limit (10 s x the scale):
# scale 4 puts her grading past the 30 s a student may take, as the test wants.
export LAB=01-naive GRADE_ALL_TIMEOUT=30 BACKEND=sim GRADE_TIMEOUT_SCALE=4

# 1. The reference: grade-all on this machine.
make --no-print-directory -C "$root" grade-all SUBMISSIONS="$class" GRADE_ALL_OUT="$base/grade-all" JOBS=2 \
    > "$base/grade-all.log" 2>&1
[ "$(gradebook_scores "$base/grade-all/gradebook.csv")" = "$slurm_class_gradebook" ] &&
    echo "ok   grade-all: the class's gradebook ($((SECONDS - start))s)" ||
    fail "grade-all: unexpected gradebook (see $base/grade-all.log)"

# 2. The cluster.  Sockets want a short path: the cluster lives in /tmp.
cluster=$(mktemp -d /tmp/kit-slurm.XXXXXX)
trap 'slurm_stop; rm -rf "$cluster"' EXIT
up=$SECONDS
if ! slurm_start "$cluster"; then
    cp -R "$cluster/log" "$base/cluster-log"
    fail "the single-node Slurm did not start (logs: $base/cluster-log)"
    exit 1
fi
echo "ok   single-node Slurm up in $((SECONDS - up))s: $(sinfo -h -o '%P %D node(s), %c CPUs, %t')"

# 3. make grade-slurm, waiting for the merge.
graded=$SECONDS
make --no-print-directory -C "$root" grade-slurm SUBMISSIONS="$class" TASKS=2 WAIT=1 \
    GRADE_ALL_OUT="$base/grade-slurm" > "$base/grade-slurm.log" 2>&1
status=$?
out="$base/grade-slurm"
took=$((SECONDS - graded))
# The merge exits 1 (erin could not be graded), so make does too.
if [ $status -ne 0 ] && grep -q '^grade-slurm: job array [0-9]*: 5 students in 2 tasks' "$base/grade-slurm.log" &&
        grep -q 'grading failed for: erin' "$out/slurm/merge.log"; then
    echo "ok   grade-slurm: array and merge ran, the merge names erin (${took}s)"
else
    fail "grade-slurm: status $status (see $base/grade-slurm.log, $out/slurm/)"
fi
if [ "$(cat "$out/gradebook.csv" 2>/dev/null)" = "$(cat "$base/grade-all/gradebook.csv")" ]; then
    echo "ok   the gradebook from Slurm equals grade-all's, row for row"
else
    fail "the gradebook from Slurm differs from grade-all's:"; diff "$base/grade-all/gradebook.csv" "$out/gradebook.csv"
fi
grep -q 'slice 0/2: 3 students: 3 graded, 0 already graded, 1 could not be graded' "$out/slurm/task-0.log" &&
    grep -q 'slice 1/2: 2 students: 2 graded, 0 already graded, 0 could not be graded' "$out/slurm/task-1.log" &&
    grep -q 'grading erin FAILED' "$out/erin/grade.log" && grep -q "\"score\": $full01," "$out/alice/results.json" &&
    echo "ok   tasks: task 0 graded alice and carol beside erin's failure, task 1 bob and dave" ||
    fail "tasks: unexpected slices (see $out/slurm/task-*.log)"

echo "test-slurm: $((SECONDS - start))s in all (grade-slurm ${took}s of it)"
[ $failures -eq 0 ]
