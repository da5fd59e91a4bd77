#!/usr/bin/env bash
# What a grade or a report was made with, one "key<TAB>value" line each:
# backend, device, the compilers and their versions, the CUDA toolkit, where
# the students' programs may write, the grading seed and the kit's revision.
# grade.sh puts it in results.json, grade_all.sh in the gradebook, the
# timing report in report.md.
#
#   grader/provenance.sh BACKEND [PROGRAMS]   (CC, CXX_SIM, CHECK_CXX, NVCC, GRADE_SEED from the environment)
#
# PROGRAMS: the folder the students' programs were built in (a grade's);
# without it (a timing report) no student's program ran.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
backend=${1:?usage: provenance.sh sim|gpu [PROGRAMS]}
programs=${2:-}

# "name version" of a compiler, or "name (not found)".
version_of() {
    local tool=$1 v
    command -v "$tool" >/dev/null 2>&1 || { printf '%s (not found)' "$tool"; return; }
    v=$("$tool" -dumpfullversion -dumpversion 2>/dev/null | head -n 1)
    printf '%s %s' "$tool" "${v:-(version unknown)}"
}

. "$root/grader/lib.sh"   # nvcc_path, nvcc_checks
nvcc=$(nvcc_path)
# The CUDA toolkit a grade used: the GPU build's, or the one whose nvcc
# checked each file before the simulator built it (NVCC_CHECK).
cuda=none
rejected="code nvcc rejects (a kernel calling a function not marked __device__, more than 48 KiB of static shared memory outside the kernel's own arrays) may score here and fail to build on a GPU, and a block needing more registers than a GPU gives one, or more threads than its kernel's __launch_bounds__, is launched"
nvcc_check="off (no nvcc here): $rejected"
[ "${NVCC_CHECK:-}" = 0 ] && nvcc_check="off (NVCC_CHECK=0): $rejected"
if [ -n "$nvcc" ] && [ -x "$nvcc" ] && { [ "$backend" = gpu ] || nvcc_checks; }; then
    cuda=$("$nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p' | head -n 1)
    nvcc_check="nvcc ${cuda:-(version unknown)} compiled each file first, as a GPU build would"
    [ "$backend" = gpu ] && nvcc_check="the build itself is nvcc's"
fi

if [ "$backend" = gpu ]; then
    # The GPU this run sees first (CUDA_VISIBLE_DEVICES applies to nvidia-smi too).
    device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
    device=${device:-"GPU (nvidia-smi gave no name)"}
    compiler="nvcc $cuda, host $(version_of "${CXX:-g++}")"
else
    device=cpu-simulator
    compiler=$(version_of "${CXX_SIM:-g++}")
fi
# The structural tests always use the simulator's check mode, built by clang.
check_compiler=$(version_of "${CHECK_CXX:-clang++}")

# Where the students' programs may write (grader/student_run.c): graded
# as root, with nobody's rights (each stage as a user id of its own) when
# nobody may run them from the folder they were built in; on the
# simulator, Landlock keeps them in their scratch folders where the kernel
# has it.
grade_suite=${GRADE_SUITE:-$root/build/grader/grade_suite}
confinement=$("$grade_suite" --confinement 2>/dev/null)
students="wherever the grader's user may"
[ -n "$programs" ] && [ "$("$grade_suite" --runs-as "$programs" 2>/dev/null)" = unprivileged ] &&
    students="with nobody's rights, where nobody may (each stage as a user id of its own)"
[ "$backend" = sim ] && [ "${confinement%% *}" = landlock ] &&
    students="only in their scratch folders (Landlock ABI ${confinement#landlock })"

# The kit's revision: git's, or the one stamped into a handout or autograder.
kit=
[ -e "$root/.git" ] && kit=$(git -C "$root" describe --always --dirty --abbrev=12 2>/dev/null)
[ -n "$kit" ] || kit=$(cat "$root/grader/kit_revision" 2>/dev/null)

printf 'backend\t%s\n' "$backend"
printf 'device\t%s\n' "$device"
printf 'compiler\t%s\n' "$compiler"
printf 'check compiler\t%s\n' "$check_compiler"
printf 'cuda\t%s\n' "$cuda"
printf 'nvcc check\t%s\n' "$nvcc_check"
[ -n "$programs" ] && printf 'student programs write\t%s\n' "$students"
printf 'seed\t%s\n' "${GRADE_SEED:-default}"
printf 'kit\t%s\n' "${kit:-unknown}"
