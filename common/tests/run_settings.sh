#!/usr/bin/env bash
# `make test-harness`: a lab's make run and make check refuse an empty
# setting by name (make run N= once ran quietly at n = 1, SEED taking N's
# place) and run as asked otherwise.
#
#   common/tests/run_settings.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
lab="$root/solutions/01-naive"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
failures=0
expect() {  # expect WHAT STATUS PHRASE -- make arguments...
    local what=$1 want=$2 phrase=$3 status
    shift 4
    make -C "$lab" --no-print-directory "$@" > "$log" 2>&1
    status=$?
    if { [ "$want" = 0 ] && [ $status = 0 ]; } || { [ "$want" != 0 ] && [ $status != 0 ]; }; then
        if grep -qF -- "$phrase" "$log"; then echo "ok   $what"; return; fi
    fi
    echo "FAIL $what: status $status, no \"$phrase\" in:"; tail -n 5 "$log"; failures=$((failures + 1))
}
expect "make run N= is refused by name" 2 "no matrix size given (N=...)" -- run N= BACKEND=sim
expect "make run SEED= is refused by name" 2 "SEED= is not a whole number" -- run N=16 SEED= BACKEND=sim
expect "make run N=16 runs at n = 16" 0 "n=16, seed 1" -- run N=16 BACKEND=sim
[ $failures -eq 0 ]
