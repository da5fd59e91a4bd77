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
base="$root/build/test-grading/handout"
tarball="$root/build/handout/labkit-student.tar.gz"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
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
        grader/points.tsv grader/quiz.c labs/01-naive/matmul.cu labs/02-shared-2x2/answers.txt; do
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
quiz_lines=$(awk -F'\t' '!/^#/ && $2 ~ /^quiz /' "$kit/grader/points.tsv" | wc -l)
kept=$(awk -F'\t' '!/^#/ && NF >= 3 && $2 !~ /^quiz /' "$root/grader/points.tsv" | wc -l)
have=$(awk -F'\t' '!/^#/ && NF >= 3' "$kit/grader/points.tsv" | wc -l)
[ "$quiz_lines" = 0 ] && [ "$have" = "$kept" ] && echo "ok   the handout's points.tsv: $have lines, no quiz lines" ||
    fail "the handout's points.tsv has $quiz_lines quiz lines and $have lines ($kept expected)"
grep -q 'quiz' "$root/grader/points.tsv" || fail "(the repository's points.tsv has no quiz lines: this test no longer tests them)"

# grade_handout STAGE: the handout's own make grade on its skeleton;
# expects Score: 0/<the stage's points without the quiz>, and no errors.
grade_handout() {
    local stage=$1 log="$base/grade-$1.log" want
    want=$(awk -F'\t' -v s="$stage" '!/^#/ && $1 == s && $2 !~ /^quiz / { m += $3 } END { print m + 0 }' "$root/grader/points.tsv")
    make --no-print-directory -C "$kit" grade LAB="$stage" BACKEND=sim > "$log" 2>&1
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
grade_handout 01-naive
# A stage with a quiz: its lines must be gone, not failed.
grade_handout 02-shared-2x2

echo "handout: $((SECONDS - start))s"
[ $failures -eq 0 ]
