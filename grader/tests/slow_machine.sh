#!/usr/bin/env bash
# The grader on a machine far slower than its time limits assume, made so
# by scaling the limits down: a right kernel still scores (its runs go on
# past their limits while blocks keep finishing), and a spinning kernel is
# still stopped.  Each run may take at most 8 times its limit, a cap that
# does not stretch, so this test runs alone (make test's test-grading runs
# it in a step of its own): beside other grades, its runs' seconds would
# be those of a busier machine than the one it means.
#
#   grader/tests/slow_machine.sh     (run by `make test-grading`)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cases="$root/grader/tests/bad-kernels"
out="$root/build/test-grading/slow-machine"
failures=0
. "$root/grader/lib.sh"   # score, points_table
full01=$(score max "$(points_table 01-naive)")
kernel01=$(score kernel_max "$(points_table 01-naive)")
right="$root/grader/tests/right-kernels/grid-stride-1d"
rm -rf "$out"

# A machine far slower than the limits assume (GRADE_TIMEOUT_SCALE=0.02:
# n = 1000 gets a second, where its two runs take about two here): the
# right kernel's runs go on past their limits while blocks keep finishing,
# and it scores every kernel point (8 times the limit is the most a run
# may take: at 0.01 that left this machine's slower moments no room); the
# kernel that spins is still stopped (at 0.01, at 8 times its limit, which
# comes before 5 s without a finished block).
mkdir -p "$out/slow-machine"
t0=$SECONDS
if GRADE_TIMEOUT_SCALE=0.02 SUBMISSION="$right" LAB=01-naive GRADE_OUT="$out/slow-machine" V=1 \
        "$root/grader/grade.sh" > "$out/slow-machine.log" 2>&1 &&
        grep -qx "Score: $kernel01/$full01" "$out/slow-machine.log"; then
    echo "ok   slow machine: a right kernel past its time limits, still finishing blocks, scores $kernel01/$full01 ($((SECONDS - t0))s)"
else
    echo "FAIL slow machine: the right kernel did not score $kernel01/$full01 with limits at 1/50 (see $out/slow-machine.log)"
    failures=$((failures + 1))
fi
mkdir -p "$out/slow-machine-hang"
if GRADE_TIMEOUT_SCALE=0.01 SUBMISSION="$cases/hang" LAB=01-naive GRADE_OUT="$out/slow-machine-hang" V=1 \
        "$root/grader/grade.sh" > "$out/slow-machine-hang.log" 2>&1 &&
        grep -qx "Score: 0/$full01" "$out/slow-machine-hang.log" &&
        grep -q "n=1: no result after [0-9] s (the limit: 0 s" "$out/slow-machine-hang.log"; then
    echo "ok   slow machine: the spinning kernel is stopped, at 8 times its limit at most"
else
    echo "FAIL slow machine: the spinning kernel was not stopped within 8 times its limit (see $out/slow-machine-hang.log)"
    failures=$((failures + 1))
fi

[ $failures -eq 0 ] && echo "slow machine: all handled"
[ $failures -eq 0 ]
