#!/usr/bin/env bash
# Every committed GPU report whose ncu counted bank conflicts the
# simulator's way (machine.tsv's bank_conflicts line) agrees with the
# committed simulator report, kernel by kernel (common/report/conflicts_agree.awk);
# and the check refuses a report that disagrees (a doctored copy).
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root" || exit 1
. common/report/report_awk.sh
open=$(awk -F'\t' '!/^#/ { print $1 ":" $2 }' common/report/conflicts_open.tsv | tr '\n' ' ')
agree() { report_awk "$(cat common/report/conflicts_agree.awk)" mode=check open="$open" "$@"; }
sim=reports/cpu-simulator/counters.tsv
failed=0 checked=0
for machine in reports/*/machine.tsv; do
    dir=$(dirname "$machine")
    grep -q '^bank_conflicts	' "$machine" && [ -f "$dir/counters.tsv" ] || continue
    checked=$((checked + 1))
    if out=$(agree "$sim" "$dir/counters.tsv"); then
        echo "ok   conflicts: $dir agrees with the simulator on every kernel both counted"
    else
        echo "FAIL conflicts: $dir and the simulator disagree:"; echo "$out"; failed=1
    fi
done
[ $checked -gt 0 ] || { echo "FAIL conflicts: no committed GPU report counts conflicts the simulator's way"; failed=1; }
# A stage 04 with ncu's old arbitration count in place of the excess
# wavefronts must be refused.
doctored=$(mktemp)
trap 'rm -f "$doctored"' EXIT
printf 'stage\tn\tcounters\n04-tiled\t1024\tbank_conflicts_ld=42000 bank_conflicts_st=339000\n' > "$doctored"
if out=$(agree "$sim" "$doctored"); then
    echo "FAIL conflicts: a report that counts conflicts in stage 04 passed"; failed=1
elif grep -q '^04-tiled: the simulator counts 0/0' <<< "$out"; then
    echo "ok   conflicts: a disagreeing report is refused, by name"
else
    echo "FAIL conflicts: the refusal did not name the kernel: $out"; failed=1
fi
# An open kernel's loads are still compared.
printf 'stage\tn\tcounters\n09-tensor-cores\t1024\tbank_conflicts_ld=42000 bank_conflicts_st=0\n' > "$doctored"
if agree "$sim" "$doctored" > /dev/null; then
    echo "FAIL conflicts: load conflicts in stage 09, whose stores alone are open, passed"; failed=1
else
    echo "ok   conflicts: an open kernel's loads are still compared"
fi
# And the stores of one whose loads alone are open.
printf 'stage\tn\tcounters\n09-tensor-cores+unpadded\t1024\tbank_conflicts_ld=0 bank_conflicts_st=42000\n' > "$doctored"
if agree "$sim" "$doctored" > /dev/null; then
    echo "FAIL conflicts: store conflicts in stage 09 unpadded, whose loads alone are open, passed"; failed=1
else
    echo "ok   conflicts: a kernel whose loads are open has its stores compared"
fi
exit $failed
