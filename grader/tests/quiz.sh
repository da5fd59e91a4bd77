#!/usr/bin/env bash
# The quizzes, end to end through make grade: every stage has one; right
# values followed by reasoning score every question; wrong values score
# none, and their messages name the section to reread without giving the
# answer.  (The rules themselves: grader/tests/test_quiz_answer.c.)
#
#   grader/tests/quiz.sh     (run by `make test-grading`)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/grader/lib.sh"   # kit_stages, points_table
base="$root/build/test-grading/quiz"
failures=0
. "$root/common/tests/lib.sh"   # fail
rm -rf "$base"
mkdir -p "$base"

# Every stage has a quiz: an answer key, questions in its answers.txt and
# points for them.
for stage in $(kit_stages); do
    key="$root/grader/answers/$stage.tsv"
    questions=$(grep -c '^Q[0-9]' "$key" 2>/dev/null)
    scored=$(grep -c $'^quiz Q[0-9]*\t' "$(points_table "$stage")")
    asked=$(grep -c '^Q[0-9]*:' "$root/labs/$stage/answers.txt" 2>/dev/null)
    if [ "${questions:-0}" -ge 3 ] && [ "$questions" = "$scored" ] && [ "$questions" = "${asked:-0}" ]; then
        :
    else
        fail "$stage: ${questions:-0} questions in its key, $scored with points, ${asked:-0} in labs/$stage/answers.txt"
    fi
done
[ $failures -eq 0 ] && echo "ok   every stage has a quiz: a key, the questions in answers.txt, points for each"

# Submissions with answers.txt alone (no kernel: its tests fail at once).
right="$base/right" wrong="$base/wrong"
for stage in $(kit_stages); do
    mkdir -p "$right/$stage" "$wrong/$stage"
    # The solutions' values, then reasoning; numbers with a thousands separator.
    awk '/^Q[0-9]+: / { v = $2; if (v ~ /^[0-9][0-9][0-9][0-9]+$/) v = substr(v, 1, length(v) - 3) "," substr(v, length(v) - 2)
                        print $1 " " v " because the README works it out this way: 2 x 16 = 32, not 8"; next }
         { print }' "$root/solutions/$stage/answers.txt" > "$right/$stage/answers.txt"
    # Wrong values: a number one larger (or doubled), the letter after.
    awk '/^Q[0-9]+: / { v = $2
                        if (v ~ /^[a-d]$/) v = substr("bcda", index("abcd", v), 1)
                        else if (v ~ /\//) v = "7/3"
                        else { gsub(/,/, "", v); v = (v + 0 == 0) ? 5 : v * 2 + 1 }
                        print $1 " " v " because I think so"; next }
         { print }' "$root/solutions/$stage/answers.txt" > "$wrong/$stage/answers.txt"
done

# quiz_points FILE: "got max" over the quiz tests of an all.tsv.
quiz_points() { awk -F'\t' '$2 ~ /^quiz / { g += $3; m += $4 } END { print g + 0, m + 0 }' "$1"; }

SUBMISSION="$right" GRADE_OUT="$base/right-out" "$root/grader/grade.sh" > "$base/right.log" 2>&1
status=$?
read -r got max < <(quiz_points "$base/right-out/all.tsv" 2>/dev/null)
if [ $status -eq 0 ] && [ "${max:-0}" -gt 0 ] && [ "$got" = "$max" ]; then
    echo "ok   right values followed by reasoning: every quiz question scores ($got/$max)"
else
    fail "right values with reasoning: quiz $got/$max, status $status (see $base/right.log)"
    grep -E 'quiz Q' "$base/right-out/all.tsv" | awk -F'\t' '$3 == 0' | head -n 5
fi

SUBMISSION="$wrong" GRADE_OUT="$base/wrong-out" "$root/grader/grade.sh" > "$base/wrong.log" 2>&1
status=$?
read -r got max < <(quiz_points "$base/wrong-out/all.tsv" 2>/dev/null)
if [ $status -eq 0 ] && [ "${max:-0}" -gt 0 ] && [ "$got" = 0 ]; then
    echo "ok   wrong values: no quiz question scores (0/$max)"
else
    fail "wrong values: quiz $got/$max, status $status (see $base/wrong.log)"
fi
# Each wrong answer's message says what was read and names the section to
# reread.  (That the judge never adds the right value is
# test_quiz_answer.c's to show: the hints are the keys' own text.)
unhelpful=$(awk -F'\t' '$2 ~ /^quiz / && !index($5, "is not right. Re-read ") { print $1 " " $2 ": " $5 }' "$base/wrong-out/all.tsv")
[ -z "$unhelpful" ] && echo "ok   every wrong answer's message says what was read and which section to reread" ||
    fail "quiz messages without a section to reread: $unhelpful"

# answers.txt as Windows editors save it: a UTF-8 byte-order mark right
# before "Q1:", and CRLF line endings, scores as plain text does; one saved
# as UTF-16 says so instead of "no answer".
windows="$base/windows" utf16="$base/utf16"
mkdir -p "$windows/01-naive" "$utf16/01-naive"
{ printf '\xef\xbb\xbf'; grep '^Q[0-9]*:' "$root/solutions/01-naive/answers.txt" | sed 's/$/\r/'; } > "$windows/01-naive/answers.txt"
SUBMISSION="$windows" LAB=01-naive GRADE_OUT="$base/windows-out" "$root/grader/grade.sh" > "$base/windows.log" 2>&1
read -r got max < <(quiz_points "$base/windows-out/all.tsv" 2>/dev/null)
[ "${max:-0}" -gt 0 ] && [ "$got" = "$max" ] &&
    echo "ok   answers.txt with a byte-order mark and CRLF endings: every question scores ($got/$max)" ||
    fail "answers.txt with a byte-order mark and CRLF endings: quiz $got/$max (see $base/windows.log)"
{ printf '\xff\xfe'; grep '^Q[0-9]*:' "$root/solutions/01-naive/answers.txt" | iconv -f UTF-8 -t UTF-16LE; } > "$utf16/01-naive/answers.txt"
SUBMISSION="$utf16" LAB=01-naive GRADE_OUT="$base/utf16-out" "$root/grader/grade.sh" > "$base/utf16.log" 2>&1
grep -q 'answers.txt is saved as UTF-16 (Notepad calls it Unicode), which the grader cannot read: save it as UTF-8' "$base/utf16-out/all.tsv" &&
    echo "ok   answers.txt saved as UTF-16: the message says so and how to save it" ||
    fail "answers.txt saved as UTF-16: no message saying so (see $base/utf16.log)"

[ $failures -eq 0 ] && rm -rf "$base"
echo "quiz: $failures failure(s)"
[ $failures -eq 0 ]
