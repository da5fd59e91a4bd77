#!/usr/bin/env bash
# check_claims.sh refuses what it must: a claim the report contradicts, a
# claim row whose words the lesson no longer has, a claim about a number
# the report lacks, and a wrong factor; and passes the kit's own claims.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root" || exit 1
out=$(common/report/check_claims.sh common/report/tests/false_claims.tsv)
status=$?
failed=0
expect() { grep -qF -- "$1" <<< "$out" && echo "ok   claims: $2" || { echo "FAIL claims: $2: no \"$1\" in:"; echo "$out"; failed=1; }; }
[ $status = 1 ] && echo "ok   claims: false claims fail the check" || { echo "FAIL claims: false claims gave exit status $status"; failed=1; }
expect 'unsupported claim: labs/05-padding/README.md: "this stage'"'"'s kernel is slower than stage 04'"'"'s at large n": reports/h100-80gb-hbm3 says gflops@4096 of 05-padding is' \
    "a claim the report contradicts"
expect 'stale claim: labs/05-padding/README.md: "padding makes this stage twice as fast as stage 04" is no longer in the file' \
    "a claim row whose words the lesson lacks"
expect 'reports/h100-80gb-hbm3 has no gflops@99' "a claim about a size the report lacks"
expect 'unsupported claim: labs/04-tiled/README.md: "half the FFMAs per trip": reports/cpu-simulator says sass:ffma of 04-tiled+tile16 is' \
    "a claim with the wrong relation"
grep -c '^ok   claim' <<< "$out" | grep -qx 0 && echo "ok   claims: none of them passes" || { echo "FAIL claims: a false claim passed"; failed=1; }
common/report/check_claims.sh > /dev/null && echo "ok   claims: every claim of common/report/claims.tsv holds" ||
    { common/report/check_claims.sh | grep -v '^ok'; failed=1; }
exit $failed
