#!/usr/bin/env bash
# Grades a class on a Slurm cluster: a job array whose tasks each grade a
# slice of the students (grade_array.sbatch), then a job that writes the
# gradebook once all of them have ended well (merge.sbatch, afterok).
# Results land where `make grade-all` puts them, in the same format.
#
#   grader/slurm/submit.sh      (called by `make grade-slurm`; settings come from the environment)
#     SUBMISSIONS    folder of student folders, each shaped like labs/ (required)
#     TASKS          tasks in the array (default 4; never more than students)
#     CPUS           CPUs per task, one student graded on each (default 1)
#     BACKEND        sim (default) or gpu; for gpu, ask for GPUs in SBATCH_ARGS
#     LAB, GRADE_SEED, FORCE, GRADE_ALL_TIMEOUT, GRADE_TIMEOUT_SCALE: as for grade-all
#     GRADE_ALL_OUT  where everything goes (default: build/grade-all)
#     SBATCH_ARGS    more sbatch options for both jobs, e.g. "--partition=short --time=2:00:00"
#     WAIT=1         wait for the gradebook and exit with the merge's status
#
# The kit, SUBMISSIONS and GRADE_ALL_OUT must be on a file system the
# compute nodes share.  A task that fails (a node lost, a time limit) leaves
# the merge unrun (Slurm cancels it); submitting again grades only the
# students not yet graded.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/grader/lib.sh"   # die
me=grade-slurm
command -v sbatch >/dev/null || die "sbatch is not on PATH: run this where Slurm jobs are submitted"
subs=${SUBMISSIONS:-}
[ -n "$subs" ] || die "SUBMISSIONS is not set (make grade-slurm SUBMISSIONS=dir TASKS=n)"
[ -d "$subs" ] || die "SUBMISSIONS=$subs is not a folder"
tasks=${TASKS:-4}
cpus=${CPUS:-1}
[[ $tasks =~ ^[1-9][0-9]*$ ]] || die "TASKS=$tasks is not a positive whole number"
[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "CPUS=$cpus is not a positive whole number"

# Everything the jobs need travels in their environment (sbatch's default
# --export=ALL), with absolute paths.  BACKEND is fixed here: the merge
# must see the settings the tasks graded with, wherever each job runs.
export KIT_ROOT=$root
SUBMISSIONS=$(cd "$subs" && pwd)
GRADE_ALL_OUT=${GRADE_ALL_OUT:-$root/build/grade-all}
mkdir -p "$GRADE_ALL_OUT/slurm" || die "cannot create $GRADE_ALL_OUT/slurm"
GRADE_ALL_OUT=$(cd "$GRADE_ALL_OUT" && pwd)
export SUBMISSIONS GRADE_ALL_OUT BACKEND=${BACKEND:-sim}
export LAB=${LAB:-} FORCE=${FORCE:-}

# No more tasks than students (grade_all.sh's rule: subfolders, not dot-folders).
students=$(find "$SUBMISSIONS" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | wc -l)
[ "$students" -gt 0 ] || die "no student folders in $SUBMISSIONS"
[ "$tasks" -le "$students" ] || tasks=$students
export GRADE_TASKS=$tasks

read -r -a extra <<< "${SBATCH_ARGS:-}"
logs="$GRADE_ALL_OUT/slurm"
array=$(sbatch --parsable --array="0-$((tasks - 1))" --cpus-per-task="$cpus" \
    --output="$logs/task-%a.log" "${extra[@]}" "$root/grader/slurm/grade_array.sbatch") ||
    die "sbatch refused the job array"
array=${array%%;*}     # "id;cluster" on a multi-cluster site
merge_args=(--parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --output="$logs/merge.log" "${extra[@]}")
[ "${WAIT:-}" = 1 ] && merge_args+=(--wait)
echo "grade-slurm: job array $array: $students students in $tasks tasks of $cpus CPU(s) ($BACKEND backend${LAB:+, LAB=$LAB})"
echo "grade-slurm: logs in $logs/; the gradebook will be $GRADE_ALL_OUT/gradebook.csv"
[ "${WAIT:-}" = 1 ] && echo "grade-slurm: waiting for the gradebook (WAIT=1)"
merge=$(sbatch "${merge_args[@]}" "$root/grader/slurm/merge.sbatch")
status=$?
echo "grade-slurm: merge job ${merge%%;*} (runs after every task of $array has ended well)"
[ "${WAIT:-}" = 1 ] || exit $status
[ $status -eq 0 ] && echo "grade-slurm: done; gradebook: $GRADE_ALL_OUT/gradebook.csv" ||
    echo "grade-slurm: the merge ended with status $status (see $logs/merge.log)" >&2
exit $status
