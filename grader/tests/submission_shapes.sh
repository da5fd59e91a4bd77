#!/usr/bin/env bash
# The shapes a submission comes in, as a course's site hands them over,
# graded by `make grade` (grade.sh: what grade-all runs for each student):
#   1. one stage's two files on their own (LAB=01-naive), at the top of the
#      folder and one folder down: graded as that stage, and the grade says so;
#   2. the same files without LAB (every stage): not taken, since they could
#      be any stage's;
#   3. another stage's folder (03-shared-3x3/) when LAB=01-naive, inside the
#      submission or the submission itself: its files are that stage's work,
#      never graded as 01-naive;
#   4. an archive left packed: its kernel tests score 0 and the message
#      names the archive, so it is unpacked and graded.
#
#   grader/tests/submission_shapes.sh     (run by `make test-grading`)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
base="$root/build/test-grading/submission-shapes"
failures=0
. "$root/common/tests/lib.sh"   # fail
start=$SECONDS
rm -rf "$base"
mkdir -p "$base"

# grade NAME [VAR=value...]: grade.sh on $base/NAME, output in $base/NAME.out.
# Only n=1 and Q1 run: what is checked is which files were graded.
grade() {
    local name=$1
    shift
    env SUBMISSION="$base/$name" GRADE_OUT="$base/$name.out" GRADE_CASES=$'n=1\nquiz Q1' "$@" \
        "$root/grader/grade.sh" > "$base/$name.log" 2>&1
}
passed() { grep -q '^  n=1 .*OK' "$base/$1.log"; }

# 1. Loose files, at the top and one folder down.
mkdir -p "$base/top" "$base/nested/Submission attachments"
cp "$root/solutions/01-naive/matmul.cu" "$root/solutions/01-naive/answers.txt" "$base/top/"
cp "$root/solutions/01-naive/matmul.cu" "$base/nested/Submission attachments/"
grade top LAB=01-naive V=1
if passed top && grep -q 'Q1 .*OK' "$base/top.log" &&
        grep -q '"output": "Graded answers.txt and matmul.cu in the top of the submission as 01-naive' "$base/top.out/results.json"; then
    echo "ok   loose files at the top graded as LAB=01-naive, and results.json says so"
else
    fail "loose files at the top were not graded as 01-naive (see $base/top.log)"
fi
grade nested LAB=01-naive V=1
if passed nested && grep -q 'grading its matmul.cu (in Submission attachments) as 01-naive' "$base/nested.log"; then
    echo "ok   loose files one folder down graded, and the log says where they were"
else
    fail "loose files one folder down were not graded (see $base/nested.log)"
fi

# 2. Without LAB the same files are not graded.
grade top
if ! passed top && grep -q 'no 01-naive/matmul.cu in the submission' "$base/top.log"; then
    echo "ok   loose files without LAB: not taken as any stage"
else
    fail "loose files without LAB were graded as some stage (see $base/top.log)"
fi

# 3. Another stage's folder is not this stage's work.
mkdir -p "$base/other-stage/03-shared-3x3"
cp "$root/solutions/01-naive/matmul.cu" "$base/other-stage/03-shared-3x3/"
grade other-stage LAB=01-naive
if ! passed other-stage && grep -q 'no 01-naive/matmul.cu in the submission' "$base/other-stage.log"; then
    echo "ok   a folder named for stage 03 is not graded as 01-naive"
else
    fail "stage 03's folder was graded as 01-naive (see $base/other-stage.log)"
fi

# ... nor when the submission is that folder itself.
grade other-stage/03-shared-3x3 LAB=01-naive
if ! passed other-stage/03-shared-3x3 && grep -q 'no 01-naive/matmul.cu in the submission' "$base/other-stage/03-shared-3x3.log"; then
    echo "ok   SUBMISSION=.../03-shared-3x3 with LAB=01-naive: not graded as 01-naive"
else
    fail "stage 03's folder given as the submission was graded as 01-naive (see $base/other-stage/03-shared-3x3.log)"
fi

# 4. An archive inside the submission is named.
mkdir -p "$base/zipped/upload"
printf 'PK\005\006%018d' 0 > "$base/zipped/upload/work.zip"
grade zipped LAB=01-naive
if grep -q 'the submission holds upload/work.zip, which the grader does not unpack' "$base/zipped.log"; then
    echo "ok   an archive in the submission is named in the message"
else
    fail "the archive in the submission was not named (see $base/zipped.log)"
fi

echo "submission shapes: $((SECONDS - start)) s"
[ $failures -eq 0 ] || { echo "submission_shapes: $failures failure(s)"; exit 1; }
