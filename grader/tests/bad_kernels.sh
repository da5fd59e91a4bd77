#!/usr/bin/env bash
# The grader against submissions that go wrong in every way we know of
# (see bad-kernels/README.md): each must lose exactly the points it should,
# say why, and leave the grader running normally.
#
#   grader/tests/bad_kernels.sh       (run by `make test`; needs build/grader/grade_suite)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cases="$root/grader/tests/bad-kernels"
out="$root/build/test-grading/bad-kernels"
failures=0

# expect CASE SCORE PHRASE: grading CASE ends normally with SCORE, and its
# output contains PHRASE.
expect() {
    local name=$1 score=$2 phrase=$3 log="$out/$1.log"
    mkdir -p "$out/$name"
    # Short time limits: the hanging kernel costs seconds, not minutes.
    SUBMISSION="$cases/$name" LAB=01-naive GRADE_OUT="$out/$name" GRADE_TIMEOUT_SCALE=0.2 \
        "$root/grader/grade.sh" > "$log" 2>&1
    local status=$?
    if [ $status -ne 0 ]; then
        echo "FAIL $name: the grader exited with status $status"; failures=$((failures + 1)); return
    fi
    if ! grep -qx "Score: $score" "$log"; then
        echo "FAIL $name: expected Score: $score, got: $(grep '^Score' "$log")"; failures=$((failures + 1)); return
    fi
    if ! grep -qF -- "$phrase" "$log"; then
        echo "FAIL $name: the output does not say \"$phrase\" (see $log)"; failures=$((failures + 1)); return
    fi
    if ! grep -q "\"score\": ${score%/*}," "$out/$name/results.json"; then
        echo "FAIL $name: results.json does not hold score ${score%/*}"; failures=$((failures + 1)); return
    fi
    echo "ok   $name: Score: $score, says \"$phrase\""
}

expect fault 2/15 "illegal memory access"
expect hang 0/15 "no result after"
expect exit-early 0/15 "before it returned every result"
expect no-compile 0/15 "expected ';'"
expect barrier-after-return 2/15 "have already returned"
expect prints-score 0/15 "C is all NaN"
expect missing-file 0/15 "no 01-naive/matmul.cu in the submission"

[ $failures -eq 0 ] && echo "bad kernels: all handled" || echo "bad kernels: $failures case(s) mishandled"
[ $failures -eq 0 ]
