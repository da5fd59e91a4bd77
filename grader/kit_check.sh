#!/usr/bin/env bash
# Can the kit grade on this machine?  Asked before anyone is graded (by
# grade.sh, once by grade_all.sh for a class, and by Gradescope's setup):
# the tools the grader needs are there, and a known-good kernel
# (grader/canary/) scores full marks on the chosen backend.  If not, it
# prints "kit error: ... (this is not the student's code)" with the first
# compiler error or failing check, and exits 2: a kit that cannot grade
# must not hand out zeros.
#
#   grader/kit_check.sh sim|gpu
#     CC, CXX_SIM, CHECK_CXX  the compilers (defaults as in common/backend.mk)
#     GRADE_SUITE   the grader's program (default build/grader/grade_suite)
#     KIT_CHECK_DIR where the verdict and the canary's logs go (default
#                   build/kit-check, or GRADE_OUT/kit-check when that is
#                   not writable)
#
# A verdict is kept per fingerprint of the kit's sources, the compilers'
# versions and the backend: grading again checks nothing new, while a changed
# header or another compiler checks again.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/grader/lib.sh"
backend=${1:?usage: kit_check.sh sim|gpu}
suite=${GRADE_SUITE:-$root/build/grader/grade_suite}
cc=${CC:-cc} cxx_sim=${CXX_SIM:-g++} check_cxx=${CHECK_CXX:-clang++}

# need TOOL WHY PACKAGE
need() {
    command -v "$1" >/dev/null 2>&1 ||
        kit_error "$1 is not installed: $2" "install it with: sudo apt-get install -y $3  (make deps does this)"
}
package_of() {
    case "$1" in *clang*) echo clang ;; *g++*|*c++*) echo g++ ;; *) echo gcc ;; esac
}
need awk "the grader's scripts use it" gawk
need "$cc" "it builds the harness and the grader" "$(package_of "$cc")"
need "$check_cxx" "the structural tests (global loads counted, barriers, bank conflicts) run the simulator's check mode, which clang builds; without it those points cannot be graded" "$(package_of "$check_cxx")"
need addr2line "the simulator's check mode names source lines with it" binutils
# Check builds link with the simulator's compiler, whatever the backend.
need "$cxx_sim" "it builds the CPU simulator and links the structural tests' programs" "$(package_of "$cxx_sim")"
if [ "$backend" = gpu ]; then
    [ -n "$(nvcc_path)" ] ||
        kit_error "BACKEND=gpu, but the CUDA toolkit's nvcc is not on PATH or in /usr/local/cuda/bin" \
            "install the CUDA toolkit, or grade on the CPU simulator with BACKEND=sim"
fi
[ -x "$suite" ] || kit_error "the grader's program $suite was not built" "run the grading through make grade"

# The fingerprint: everything the grade of a submission depends on but the
# submission.
fingerprint=$(
    {
        printf '%s\n' "$backend" "$(uname -m)" "${LAB_DEFINES:-}" "${WERROR:-}" "${SIM_FIBERS:-}"
        for tool in "$cc" "$cxx_sim" "$check_cxx"; do "$tool" --version 2>&1 | head -n 1; done
        # The nvcc that builds (gpu) or checks (sim, NVCC_CHECK) each file.
        if [ "$backend" = gpu ] || nvcc_checks; then "$(nvcc_path)" --version 2>&1; fi
        cd "$root" && find Makefile tests.mk common grader -type f \
            \( -path '*/tests/*' -o -path '*/mutants/*' -o -path '*/bench/*' -o -path '*/agreement/*' \
               -o -path 'common/report/*' -o -path 'common/platforms/*' -o -path 'grader/answers/*' -o -name '*.md' \) -prune -o -type f -print0 |
            LC_ALL=C sort -z | xargs -0 sha256sum
    } | sha256sum | cut -c1-16)

cache=${KIT_CHECK_DIR:-$root/build/kit-check}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
    [ -n "${GRADE_OUT:-}" ] || kit_error "cannot write $cache for the kit's own check" "set KIT_CHECK_DIR to a writable folder"
    cache=$GRADE_OUT/kit-check
    mkdir -p "$cache" || kit_error "cannot write $cache for the kit's own check"
fi
verdict="$cache/$backend-$fingerprint.ok"
[ -f "$verdict" ] && exit 0

# One canary at a time per folder: the slices of a cluster job start together.
exec 9> "$cache/.lock"
command -v flock >/dev/null && flock 9
[ -f "$verdict" ] && exit 0

# The canary is graded whole, whatever subset the caller asked Check for,
# and whatever deadline the caller's own grading has.
forget_test_selection
unset CK_FORK GRADE_DEADLINE
echo "kit check: grading the kit's canary (a known-good stage 01 kernel) on the $backend backend"
out="$cache/canary-$backend"
log="$out.log"
rm -rf "$out"
GRADE_KIT_CHECKED=1 SUBMISSION="$root/grader/canary" LAB=01-naive GRADE_OUT="$out" BACKEND="$backend" \
    GRADE_SUITE="$suite" "$root/grader/grade.sh" > "$log" 2>&1 < /dev/null
rc=$?
[ $rc -eq 0 ] || kit_error "grading the canary stopped with status $rc" "$(tail -n 3 "$log")" "log: $log"
[ -s "$out/all.tsv" ] || kit_error "grading the canary left no results" "log: $log"
read -r got max < <(score sum "$out/all.tsv")
if [ "$got" -ne "$max" ] || [ "$max" -eq 0 ]; then
    # The first thing that went wrong: a compiler's error, else a check.
    first=
    for build_log in "$out/01-naive/build.log" "$out/01-naive/build-check.log"; do
        [ -f "$build_log" ] || continue
        first=$(grep -m 1 -E ': (fatal )?error:|No rule to make target|command not found' "$build_log")
        if grep -q '^nvcc-check: ' "$build_log"; then
            # The simulator's build asks nvcc first (NVCC_CHECK): an nvcc
            # that cannot compile the canary cannot check anyone's file.
            first="$(nvcc_path) cannot compile it: ${first:-$(grep -v -e '^nvcc-check: ' -e '^make' "$build_log" | grep -m 1 -i error)}; repair the CUDA toolkit, or grade without nvcc's check (NVCC_CHECK=0)"
            break
        fi
        [ -n "$first" ] && { first="the kit's own code does not build: $first"; break; }
    done
    [ -n "$first" ] || first="failing check: $(score first_failure "$out/all.tsv" | head -n 1)"
    kit_error "the canary, a known-good stage 01 kernel, scored $got/$max on the $backend backend" \
        "${first//\\n/ }" "log: $log"
fi
: > "$verdict"
echo "kit check: the canary scored $got/$max; the kit can grade here"
