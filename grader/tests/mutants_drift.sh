#!/usr/bin/env bash
# A mutant must never drift from the solution it breaks: when the solution
# changes under a patch, the mutants test fails, naming the patch, instead
# of grading a kernel that is no longer "the solution with one thing
# broken".  Here a copy of the solutions has the line a patch changes
# rewritten; grading that patch must say BROKEN and fail.
#
#   grader/tests/mutants_drift.sh     (run by `make test-grading`)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
base="$root/build/test-grading/mutants-drift"
mutant=01-naive/grid-floor
rm -rf "$base"
mkdir -p "$base"
cp -R "$root/solutions" "$base/solutions"
# The line grid-floor's hunk replaces, respelled as a later edit might.
sed -i 's|dim3 grid((n + BLOCK - 1) / BLOCK, (n + BLOCK - 1) / BLOCK);|dim3 grid((n + BLOCK - 1) / BLOCK,\n              (n + BLOCK - 1) / BLOCK);|' \
    "$base/solutions/01-naive/matmul.cu"
if cmp -s "$root/solutions/01-naive/matmul.cu" "$base/solutions/01-naive/matmul.cu"; then
    echo "FAIL mutants drift: could not change the solution's grid line (has it changed? pick another line)"
    exit 1
fi
MUTANT_SOLUTIONS="$base/solutions" MUTANT_OUT="$base/out" "$root/grader/tests/mutants.sh" "$mutant" > "$base/log" 2>&1
status=$?
if [ $status -ne 0 ] && grep -q "^BROKEN $mutant: the patch no longer applies" "$base/log"; then
    echo "ok   mutants drift: a patch that no longer applies fails the mutants test, naming it"
    rm -rf "$base"
else
    echo "FAIL mutants drift: status $status; expected BROKEN $mutant (see $base/log)"
    exit 1
fi
