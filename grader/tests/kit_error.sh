#!/usr/bin/env bash
# A kit that cannot grade must say so and give no score, never a zero:
#   1. a scratch copy of the kit with a syntax error in a simulator header:
#      `make grade` exits 2 with "kit error" and the compiler's first error,
#      and writes no results.json;
#   2. the same broken kit grading a class: one kit error, nobody graded, no
#      gradebook, exit status 2;
#   3. the same kit as a Gradescope autograder: no results.json, status 2;
#      then, repaired but with a test's row gone from the points table: the
#      grader does not build, a kit error that names the test;
#   4. a missing tool (the check-mode compiler): a kit error that names the
#      package to install; an nvcc that cannot compile the canary: a kit
#      error that names it and NVCC_CHECK=0;
#   5. the kit as it is: the canary passes, and a student's compile error
#      stays the student's (that stage's tests score 0, grading finishes, 0);
#   6. spaces in paths (make splits them): the kit's folder or an output
#      folder with one is refused at once with why; a submission's folder or
#      a student's name with one is graded in full;
#   7. an output folder where programs may not run (noexec): refused at
#      once with why; a noexec TMPDIR changes nothing;
#   8. a grade stopped by a bad setting (a LAB that is no stage, a
#      SUBMISSION that is no folder) leaves no earlier run's results.json.
#
#   grader/tests/kit_error.sh     (run by `make test-grading`)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/grader/lib.sh"   # score, points_table
base="$root/build/test-grading/kit-error"
failures=0
. "$root/common/tests/lib.sh"   # fail
start=$SECONDS
rm -rf "$base"
mkdir -p "$base"

# The broken kit: the files git knows, one header broken.
kit="$base/broken-kit"
mkdir -p "$kit"
(cd "$root" && git ls-files -z --cached --others --exclude-standard -- Makefile tests.mk common grader labs solutions |
    xargs -0 cp --parents -t "$kit") || { echo "FAIL could not copy the kit"; exit 1; }
printf '\nint a_syntax_error_put_here_by_the_test(\n' >> "$kit/common/sim/cuda_sim.h"

# 1. make grade
make --no-print-directory -C "$kit" grade SUBMISSION="$root/solutions" LAB=01-naive BACKEND=sim > "$base/grade.log" 2>&1
status=$?
if [ $status -eq 2 ] && grep -q "^kit error: .*(this is not the student's code)" "$base/grade.log" &&
        grep -q "the kit's own code does not build: .*error" "$base/grade.log" &&
        [ ! -e "$kit/build/grade/results.json" ] && ! grep -q '^Score:' "$base/grade.log"; then
    echo "ok   broken kit: make grade exits 2, says kit error with the compiler's first error, writes no score"
else
    fail "broken kit: make grade exited $status (see $base/grade.log)"
fi

# 2. grade-all: one message, nobody graded.
class="$base/class"
mkdir -p "$class/alice" "$class/bob"
cp -R "$root/solutions/01-naive" "$class/alice/"
cp -R "$root/labs/01-naive" "$class/bob/"
make --no-print-directory -C "$kit" grade-all SUBMISSIONS="$class" LAB=01-naive BACKEND=sim \
    GRADE_ALL_OUT="$base/grade-all" > "$base/grade-all.log" 2>&1
status=$?
if [ $status -eq 2 ] && [ "$(grep -c '^kit error: ' "$base/grade-all.log")" -eq 1 ] &&
        [ ! -e "$base/grade-all/gradebook.csv" ] && [ ! -e "$base/grade-all/alice/results.json" ]; then
    echo "ok   broken kit: grade-all stops once, before anyone, with no gradebook and status 2"
else
    fail "broken kit: grade-all exited $status (see $base/grade-all.log)"
fi

# 3. Gradescope: run_autograder writes no results.json.
ag="$base/autograder"
mkdir -p "$ag/submission" "$ag/results"
cp -R "$root/solutions/01-naive" "$ag/submission/"
AUTOGRADER_SOURCE="$kit" AUTOGRADER_SUBMISSION="$ag/submission" AUTOGRADER_RESULTS="$ag/results" \
    AUTOGRADER_USER= LAB=01-naive bash "$kit/grader/gradescope/run_autograder" > "$base/autograder.log" 2>&1
status=$?
if [ $status -eq 2 ] && [ ! -e "$ag/results/results.json" ] && grep -q 'kit error' "$base/autograder.log"; then
    echo "ok   broken kit: the Gradescope autograder writes no results.json (an error there, not a zero)"
else
    fail "broken kit: run_autograder exited $status (see $base/autograder.log)"
fi

# 3b. The same kit repaired, but its points table missing a test's row: the
# test is never silently dropped from the score.
cp "$root/common/sim/cuda_sim.h" "$kit/common/sim/cuda_sim.h"
sed -i '/^quiz Q4\t/d' "$kit/grader/suites/02-shared-2x2.points.tsv"
make --no-print-directory -C "$kit" grade SUBMISSION="$root/solutions" LAB=02-shared-2x2 BACKEND=sim \
    > "$base/points.log" 2>&1
status=$?
if [ $status -eq 2 ] && grep -q "^kit error: the grader's own program does not build" "$base/points.log" &&
        grep -q 'the suite ran "quiz Q4" (02-shared-2x2), which has no row' "$base/points.log" && [ ! -e "$kit/build/grade/results.json" ]; then
    echo "ok   a test with no row in the points table: the grader does not build, a kit error naming it, no score"
else
    fail "a test with no points: make grade exited $status (see $base/points.log)"
fi

# 4. A missing tool, on the kit as it is.
make --no-print-directory -C "$root" grade SUBMISSION="$root/solutions" LAB=01-naive BACKEND=sim \
    CHECK_CXX=clang++-not-installed GRADE_OUT="$base/no-clang" > "$base/no-clang.log" 2>&1
status=$?
if [ $status -eq 2 ] && grep -q '^kit error: clang++-not-installed is not installed: the structural tests' "$base/no-clang.log" &&
        grep -q 'apt-get install -y clang' "$base/no-clang.log" && [ ! -e "$base/no-clang/results.json" ]; then
    echo "ok   no check-mode compiler: a kit error naming the package, no score"
else
    fail "no check-mode compiler: make grade exited $status (see $base/no-clang.log)"
fi

# 4b. An nvcc that cannot compile (say, a host compiler too new for its
# CUDA release): the simulator's builds ask it first (NVCC_CHECK), so it
# cannot check anyone's file; a kit error that names it and the way out.
broken_nvcc="$base/broken-nvcc/nvcc"
mkdir -p "$(dirname "$broken_nvcc")"
printf '#!/bin/sh\necho "#error -- unsupported GNU version! gcc versions later than 12 are not supported!" >&2\nexit 1\n' > "$broken_nvcc"
chmod +x "$broken_nvcc"
make --no-print-directory -C "$root" grade SUBMISSION="$root/solutions" LAB=01-naive BACKEND=sim \
    NVCC="$broken_nvcc" GRADE_OUT="$base/broken-nvcc-out" > "$base/broken-nvcc.log" 2>&1
status=$?
if [ $status -eq 2 ] && grep -q "^kit error: the canary" "$base/broken-nvcc.log" &&
        grep -qF "$broken_nvcc cannot compile it: #error -- unsupported GNU version" "$base/broken-nvcc.log" &&
        grep -qF 'NVCC_CHECK=0' "$base/broken-nvcc.log" && [ ! -e "$base/broken-nvcc-out/results.json" ]; then
    echo "ok   an nvcc that cannot compile: a kit error naming it and NVCC_CHECK=0, no score"
else
    fail "an nvcc that cannot compile: make grade exited $status (see $base/broken-nvcc.log)"
fi

# 5. The kit as it is: a student's compile error is the student's.
mkdir -p "$base/student/01-naive"
cp "$root/grader/tests/bad-kernels/no-compile/01-naive/matmul.cu" "$base/student/01-naive/"
make --no-print-directory -C "$root" grade SUBMISSION="$base/student" LAB=01-naive BACKEND=sim \
    GRADE_OUT="$base/student-out" > "$base/student.log" 2>&1
status=$?
if [ $status -eq 0 ] && grep -q "^Score: 0/$(score max "$(points_table 01-naive)")\$" "$base/student.log" && ! grep -q 'kit error' "$base/student.log" &&
        grep -q '"score": 0' "$base/student-out/results.json"; then
    echo "ok   a student's compile error: grading finishes (status 0), 0 for that stage, no kit error"
else
    fail "a student's compile error: make grade exited $status (see $base/student.log)"
fi

# 6. Spaces in paths, which make splits: a kit in such a folder, or a
# grade's output there, stops at once with the reason and no score (never
# each student's 0 for builds that fail); a submission there, or a
# student's folder with a space in its name, is graded as any other.
spaced="$base/a folder"
mkdir -p "$spaced/kit" "$spaced/submission"
(cd "$root" && git ls-files -z -- Makefile common/lab.mk labs/01-naive | xargs -0 cp --parents -t "$spaced/kit")
make --no-print-directory -C "$spaced/kit" grade LAB=01-naive > "$base/spaced-kit.log" 2>&1
status=$?
make --no-print-directory -C "$spaced/kit/labs/01-naive" run > "$base/spaced-lab.log" 2>&1
lab_status=$?
if [ $status -eq 2 ] && [ $lab_status -eq 2 ] && grep -q 'has a space in its path' "$base/spaced-kit.log" &&
        grep -q 'has a space in its path' "$base/spaced-lab.log" && ! grep -q '^Score:' "$base/spaced-kit.log"; then
    echo "ok   a kit in a folder with a space: make grade and make run stop at once, saying why"
else
    fail "a kit in a folder with a space: make grade exited $status, make run $lab_status (see $base/spaced-*.log)"
fi
cp -R "$root/solutions/01-naive" "$spaced/submission/"
full=$(score max "$(points_table 01-naive)")
# With a CDPATH exported too, as some users' shells do: it must change nothing.
CDPATH=".:$base" make --no-print-directory -C "$root" grade SUBMISSION="$spaced/submission" LAB=01-naive BACKEND=sim \
    GRADE_OUT="$base/spaced-submission-out" > "$base/spaced-submission.log" 2>&1
status=$?
make --no-print-directory -C "$root" grade SUBMISSION="$spaced/submission" LAB=01-naive BACKEND=sim \
    GRADE_OUT="$spaced/out" > "$base/spaced-out.log" 2>&1
out_status=$?
if [ $status -eq 0 ] && grep -qx "Score: $full/$full" "$base/spaced-submission.log" && [ $out_status -eq 2 ] &&
        grep -q 'GRADE_OUT=.* has a space in its path' "$base/spaced-out.log" && ! grep -q '^Score:' "$base/spaced-out.log"; then
    echo "ok   a submission in a folder with a space (and CDPATH exported): full marks; an output folder with one: status 2 and why"
else
    fail "spaces: submission graded with status $status, output folder with $out_status (see $base/spaced-{submission,out}.log)"
fi
mkdir -p "$base/class-spaced/Ada Lovelace"
cp -R "$root/solutions/01-naive" "$base/class-spaced/Ada Lovelace/"
make --no-print-directory -C "$root" grade-all SUBMISSIONS="$base/class-spaced" LAB=01-naive BACKEND=sim \
    GRADE_ALL_OUT="$base/class-spaced-out" > "$base/class-spaced.log" 2>&1
status=$?
make --no-print-directory -C "$root" grade-all SUBMISSIONS="$base/class-spaced" LAB=01-naive BACKEND=sim \
    GRADE_ALL_OUT="$spaced/class-out" > "$base/class-spaced-out.log" 2>&1
out_status=$?
if [ $status -eq 0 ] && grep -q "Ada Lovelace.*$full/$full" "$base/class-spaced.log" && [ $out_status -eq 2 ] &&
        grep -q 'GRADE_ALL_OUT=.* has a space in its path' "$base/class-spaced-out.log"; then
    echo "ok   grade-all: a student's folder with a space graded in full; an output folder with one: status 2 and why"
else
    fail "grade-all and spaces: status $status, and $out_status for a spaced output (see $base/class-spaced*.log)"
fi

# 7. A folder where programs may not run (a filesystem mounted noexec, as a
# hardened /tmp often is): as the output folder of a grade or a class, a
# kit error at once, no score; as TMPDIR, nothing of a grade (or of make
# occupancy) runs from it, so full marks.  Needs a tmpfs mount (root).
noexec="$base/noexec"
mkdir -p "$noexec"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o noexec,size=256m tmpfs "$noexec" 2>/dev/null; then
    trap 'umount "$noexec" 2>/dev/null' EXIT
    make --no-print-directory -C "$root" grade SUBMISSION="$root/solutions" LAB=01-naive BACKEND=sim \
        GRADE_OUT="$noexec/out" > "$base/noexec-out.log" 2>&1
    status=$?
    make --no-print-directory -C "$root" grade-all SUBMISSIONS="$class" LAB=01-naive BACKEND=sim \
        GRADE_ALL_OUT="$noexec/class-out" > "$base/noexec-class.log" 2>&1
    class_status=$?
    if [ $status -eq 2 ] && grep -q "^kit error: programs cannot run from GRADE_OUT=$noexec/out" "$base/noexec-out.log" &&
            ! grep -q '^Score:' "$base/noexec-out.log" && [ ! -e "$noexec/out/results.json" ] &&
            [ $class_status -eq 2 ] && [ "$(grep -c '^kit error: programs cannot run from GRADE_ALL_OUT=' "$base/noexec-class.log")" -eq 1 ] &&
            [ ! -e "$noexec/class-out/gradebook.csv" ]; then
        echo "ok   an output folder mounted noexec: make grade and grade-all stop at once with a kit error, no score"
    else
        fail "an output folder mounted noexec: make grade exited $status, grade-all $class_status (see $base/noexec-{out,class}.log)"
    fi
    TMPDIR="$noexec" make --no-print-directory -C "$root" grade SUBMISSION="$root/solutions" LAB=01-naive BACKEND=sim \
        GRADE_OUT="$base/noexec-tmp-out" > "$base/noexec-tmp.log" 2>&1
    status=$?
    full=$(score max "$(points_table 01-naive)")
    if [ $status -eq 0 ] && grep -qx "Score: $full/$full" "$base/noexec-tmp.log"; then
        echo "ok   TMPDIR mounted noexec: make grade gives the solution full marks"
    else
        fail "TMPDIR mounted noexec: make grade exited $status (see $base/noexec-tmp.log)"
    fi
    if [ -n "$(nvcc_path)" ]; then
        TMPDIR="$noexec" make --no-print-directory -C "$root/solutions/04-tiled" occupancy BACKEND=sim \
            > "$base/noexec-occupancy.log" 2>&1
        if grep -q '^  kernel matmul_tiled_kernel: [0-9]* registers, 8192 bytes of static shared memory, 2 blocks per SM' \
                "$base/noexec-occupancy.log"; then
            echo "ok   TMPDIR mounted noexec: make occupancy still runs the occupancy API's program"
        else
            fail "TMPDIR mounted noexec: make occupancy gave no answer from the occupancy API (see $base/noexec-occupancy.log)"
        fi
    fi
    umount "$noexec"
    trap - EXIT

    # 7b. The same for one student in the middle of a class (the class's
    # own folder is fine, so the check before anyone passes): that student
    # is not graded, grading stops, those not started are not graded
    # either, and grade-all says what went wrong once, with status 2.
    midclass="$base/midclass" midout="$base/midclass-out"
    mkdir -p "$midclass"/{alice,bob,carol,dave} "$midout/bob/work"
    for id in alice bob carol dave; do cp -R "$root/solutions/01-naive" "$midclass/$id/"; done
    if mount -t tmpfs -o noexec,size=64m tmpfs "$midout/bob/work"; then
        trap 'umount "$midout/bob/work" 2>/dev/null' EXIT
        make --no-print-directory -C "$root" grade-all SUBMISSIONS="$midclass" LAB=01-naive BACKEND=sim \
            JOBS=1 GRADE_ALL_OUT="$midout" > "$base/midclass.log" 2>&1
        status=$?
        umount "$midout/bob/work"
        trap - EXIT
        book="$midout/gradebook.csv"
        if [ $status -eq 2 ] && grep -q '^\[2/4\] bob: NOT GRADED: kit error' "$base/midclass.log" &&
                [ "$(grep -c "^kit error: programs cannot run from GRADE_OUT=" "$base/midclass.log")" -eq 1 ] &&
                grep -q "^alice,$full,$full,$full," "$book" && grep -q '^bob,,not graded,' "$book" &&
                grep -q '^carol,,not graded,' "$book" && grep -q '^dave,,not graded,' "$book" &&
                grep -q 'not graded: bob carol dave' "$base/midclass.log"; then
            echo "ok   a kit error in the middle of a class: that student and those after are not graded, said once, status 2"
        else
            fail "a kit error in the middle of a class: grade-all exited $status (see $base/midclass.log, $book)"
        fi
    else
        fail "a kit error in the middle of a class: could not mount a tmpfs on $midout/bob/work"
    fi
else
    echo "skip a folder mounted noexec: mounting one needs root and tmpfs (here: user $(id -un))"
fi

# 8. An earlier run's score must not outlive a grade that stopped at once.
stale="$base/stale-out"
for setting in LAB=no-such-stage SUBMISSION=$base/no-such-folder; do
    mkdir -p "$stale" && echo '{"score": 25}' > "$stale/results.json"
    make -C "$root" --no-print-directory grade "$setting" GRADE_OUT="$stale" > "$base/stale.log" 2>&1
    status=$?
    if [ $status = 2 ] && [ ! -e "$stale/results.json" ]; then
        echo "ok   $setting: status 2, and the earlier run's results.json is gone"
    else
        fail "$setting: status $status, results.json $([ -e "$stale/results.json" ] && echo "still there" || echo gone) (see $base/stale.log)"
    fi
done

echo "kit errors: $((SECONDS - start))s"
[ $failures -eq 0 ] && rm -rf "$base"
[ $failures -eq 0 ]
