#!/usr/bin/env bash
# make_slurm_class DIR: the small class both Slurm tests grade on 01-naive.
# Sorted by id, two tasks take alice, carol, erin (task 0) and bob, dave
# (task 1): erin's kernel hangs, so her grading runs past GRADE_ALL_TIMEOUT
# and fails, in the same task as two students who must still be graded.
make_slurm_class() {
    local class=$1 root
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    rm -rf "$class"
    mkdir -p "$class/erin"
    cp -R "$root/solutions" "$class/alice"
    cp -R "$root/labs" "$class/bob"
    cp -R "$root/solutions" "$class/carol, \"no stage\""
    rm -rf "$class/carol, \"no stage\"/01-naive"
    cp -R "$root/solutions" "$class/dave"
    cp "$root/grader/tests/bad-kernels/no-compile/01-naive/matmul.cu" "$class/dave/01-naive/matmul.cu"
    cp -R "$root/grader/tests/bad-kernels/hang/01-naive" "$class/erin/"
}

# Stage 01's points (full01), and those of its quiz alone (quiz01): dave's
# file does not compile, which costs the kernel's tests, not the quiz.
class_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
full01=$(awk -F'\t' '!/^#/ && NF >= 2 { m += $2 } END { print m + 0 }' "$class_root/grader/suites/01-naive.points.tsv")
quiz01=$(awk -F'\t' '!/^#/ && NF >= 2 && $1 ~ /^quiz / { m += $2 } END { print m + 0 }' "$class_root/grader/suites/01-naive.points.tsv")

# The gradebook that class must get, whoever grades it.
slurm_class_gradebook="student,01-naive,total,max
alice,$full01,$full01,$full01
bob,0,0,$full01
\"carol, \"\"no stage\"\"\",0,0,$full01
dave,$quiz01,$quiz01,$full01
erin,0,0,$full01"

# gradebook_scores FILE: the gradebook without its last five columns: what
# each grade was made with (graded_on, compiler, kit, seed), which varies
# with the machine, and needs_gpu; they never hold a comma.
gradebook_scores() { sed -E 's/(,[^,]*){5}$//' "$1" 2>/dev/null; }
