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

# The gradebook that class must get, whoever grades it.
slurm_class_gradebook='student,01-naive,total,max
alice,20,20,20
bob,0,0,20
"carol, ""no stage""",0,0,20
dave,0,0,20
erin,0,0,20'

# gradebook_scores FILE: the gradebook without its last four columns (what
# each grade was made with: graded_on, compiler, kit, seed), which vary with
# the machine; they never hold a comma.
gradebook_scores() { sed -E 's/(,[^,]*){4}$//' "$1" 2>/dev/null; }
