#!/usr/bin/env bash
# The student handout: `make handout`, unpacked where no solutions are: it
# holds no solutions, answer keys, mutants or Gradescope bundle (by path,
# and no file in it is a solution under another name), its points table has
# no quiz lines, and its own `make grade` works without the keys: the
# skeletons score 0 out of the kernel and structure points, with no quiz
# lines and no errors.
#
#   grader/tests/handout.sh     (run by `make test-grading`)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/grader/lib.sh"   # score, points_table
base="$root/build/test-grading/handout"
tarball="$root/build/handout/labkit-student.tar.gz"
failures=0
. "$root/common/tests/lib.sh"   # fail
start=$SECONDS

mkdir -p "$base"
if ! make --no-print-directory -C "$root" handout > "$base.make.log" 2>&1; then
    cat "$base.make.log"; echo "FAIL make handout"; exit 1
fi
rm -rf "$base"
mkdir -p "$base"
tar -C "$base" -xzf "$tarball" || { echo "FAIL cannot unpack $tarball"; exit 1; }
kit="$base/labkit-student"
[ -d "$kit" ] || { echo "FAIL the tarball does not unpack into labkit-student/"; exit 1; }

# What must be there, and what must not.
missing=
for f in README.md Makefile tests.mk common/build.mk common/harness.c common/sim/launch.cpp grader/grade.sh \
        grader/score.awk grader/suites/02-shared-2x2.points.tsv grader/quiz.c labs/01-naive/matmul.cu labs/02-shared-2x2/answers.txt; do
    [ -f "$kit/$f" ] || missing+=" $f"
done
[ -z "$missing" ] && echo "ok   the handout holds the lessons, the skeletons, common/ and the grader" ||
    fail "the handout lacks:$missing"
leaks=$(cd "$kit" && find . \( -path ./solutions -o -path ./grader/answers -o -path ./grader/mutants \
    -o -path ./grader/gradescope -o -path ./slides -o -path ./build -o -name '*.tsv' -path '*answers*' \) -print | head -n 5)
[ -z "$leaks" ] && echo "ok   no solutions/, answer keys, mutants, Gradescope bundle, slides or build outputs" ||
    fail "the handout holds: $leaks"
# No solution file under another name (compared by content).
copies=
for f in "$root"/solutions/*/matmul.cu "$root"/grader/answers/*; do
    sum=$(cksum < "$f")
    while IFS= read -r -d '' g; do
        [ "$(cksum < "$g")" = "$sum" ] && copies+=" ${g#"$kit"/}(=${f#"$root"/})"
    done < <(find "$kit" -type f -size "$(stat -c %s "$f")c" -print0)
done
[ -z "$copies" ] && echo "ok   no file in the handout is a solution or an answer key under another name" ||
    fail "solution files in the handout:$copies"
# The points tables' tests, as the kit's own score.awk lists them.
table_tests() { awk -F'\t' -v mode=tests -f "$root/grader/score.awk" "$1"/grader/suites/*.points.tsv; }
quiz_lines=$(table_tests "$kit" | grep -c $'\tquiz ')
kept=$(table_tests "$root" | grep -vc $'\tquiz ')
have=$(table_tests "$kit" | wc -l)
[ "$quiz_lines" = 0 ] && [ "$have" = "$kept" ] && echo "ok   the handout's points tables: $have tests, no quiz lines" ||
    fail "the handout's points tables have $quiz_lines quiz lines and $have tests ($kept expected)"
table_tests "$root" | grep -q $'\tquiz ' || fail "(the repository's points tables have no quiz lines: this test no longer tests them)"

# grade_handout STAGE: the handout's own make grade on its skeleton;
# expects Score: 0/<the stage's points without the quiz>, and no errors.
grade_handout() {
    local stage=$1 log="$base/grade-$1.log" want
    want=$(score kernel_max "$(points_table "$stage")")
    make --no-print-directory -C "$kit" grade LAB="$stage" BACKEND=sim V=1 > "$log" 2>&1
    local status=$? problems=
    [ $status -eq 0 ] || problems+=" exit status $status;"
    grep -qx "Score: 0/$want" "$log" || problems+=" $(grep '^Score' "$log" || echo 'no score'), expected Score: 0/$want;"
    grep -E -q '^ +quiz Q' "$log" && problems+=" quiz lines;"
    grep -E -q 'did not report a result|does not compile|could not run|make: \*\*\*|^grade:|No such file' "$log" &&
        problems+=" errors: $(grep -E -m 1 'did not report a result|does not compile|could not run|make: \*\*\*|^grade:|No such file' "$log");"
    grep -q "still has TODO 1 " "$log" || problems+=" no TODO hint;"
    [ -z "$problems" ] && echo "ok   handout: make grade LAB=$stage: Score: 0/$want, no quiz lines, no errors" ||
        fail "handout: make grade LAB=$stage:$problems (see $log)"
}
# Written for students: its own README, no kit tests in `make help`, and
# `make test` says where to go instead of failing.
grep -q 'graded by your instructor' "$kit/README.md" && ! grep -q 'make grade-all' "$kit/README.md" &&
    echo "ok   the handout's README is the students' one" || fail "the handout's README is not the students' one"
help=$(make --no-print-directory -C "$kit" help 2>&1)
! grep -q 'make test\b\|make slides\|grade-all' <<< "$help" && grep -q 'make grade' <<< "$help" &&
    echo "ok   the handout's make help lists no kit tests, slides or instructors' targets" ||
    fail "the handout's make help: $help"
make --no-print-directory -C "$kit" test > "$base/make-test.log" 2>&1 && grep -q 'not in the student handout' "$base/make-test.log" &&
    echo "ok   make test in the handout says the kit's tests are not there" || fail "make test in the handout (see $base/make-test.log)"

# From the last commit, not the working tree: a filled-in kernel an
# instructor has in labs/ stays out, with a warning.
clone="$base/clone"
rm -rf "$clone"
if git -C "$root" rev-parse --verify -q HEAD >/dev/null 2>&1 && git clone -q "$root" "$clone" 2>/dev/null; then
    cp "$root/solutions/01-naive/matmul.cu" "$clone/labs/01-naive/matmul.cu"
    make --no-print-directory -C "$clone" handout > "$base/clone-handout.log" 2>&1
    packed=$(tar -xzOf "$clone/build/handout/labkit-student.tar.gz" labkit-student/labs/01-naive/matmul.cu 2>/dev/null | cksum)
    if grep -q 'warning: 1 file(s) differ from the last commit' "$base/clone-handout.log" &&
            [ "$packed" = "$(git -C "$clone" show HEAD:labs/01-naive/matmul.cu | cksum)" ]; then
        echo "ok   a filled-in labs/ kernel is not packed: the handout holds the committed skeleton, with a warning"
    else
        fail "uncommitted labs/: see $base/clone-handout.log"
    fi
    rm -rf "$clone"
else
    echo "skip uncommitted labs/: not a git checkout"
fi

grade_handout 01-naive
# A stage with a quiz: its lines must be gone, not failed.
grade_handout 02-shared-2x2

echo "handout: $((SECONDS - start))s"
[ $failures -eq 0 ]
