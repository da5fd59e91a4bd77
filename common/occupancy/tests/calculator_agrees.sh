#!/usr/bin/env bash
# occupancy.sh's working (lesson 04's, by hand) against CUDA's own
# occupancy calculator (cuda_occupancy.h, what the occupancy API answers on
# a GPU and on the simulator) for blocks of many sizes, registers and
# shared bytes, on the limits in LIMITS_TSV: the same blocks per SM for each.
#
#   common/occupancy/tests/calculator_agrees.sh CUDA_OCCUPANCY_H LIMITS_TSV OUT_DIR   (run by make test-occupancy)
set -u
[ $# -eq 3 ] || { echo "usage: $0 CUDA_OCCUPANCY_H LIMITS_TSV OUT_DIR" >&2; exit 2; }
header=$1 limits=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
${CXX:-g++} -O1 -std=c++17 -DCUDA_OCCUPANCY_H="\"$header\"" "$here/calculator.cpp" -o "$out/calculator" || exit 1
for threads in 32 64 96 128 256 512 800 1024; do
    for registers in 16 32 40 48 64 72 80 96 128 168 255; do
        for shared in 0 8192 40000; do echo "$threads $registers $shared"; done
    done
done > "$out/cases"
"$out/calculator" "$limits" < "$out/cases" > "$out/calculator.txt" || exit 1
disagree=0
while read -r threads registers shared blocks; do
    worked=$(OCCUPANCY_TSV=1 "$here/../occupancy.sh" --compute "$threads" "$registers" "$shared" "$limits" | cut -f1)
    if [ "$worked" != "$blocks" ]; then
        echo "FAIL $threads threads, $registers registers, $shared shared bytes: occupancy.sh works out ${worked:-nothing}, CUDA's calculator $blocks blocks per SM"
        disagree=$((disagree + 1))
    fi
done < "$out/calculator.txt"
[ $disagree -eq 0 ] || exit 1
echo "calculator_agrees: occupancy.sh and CUDA's occupancy calculator agree on $(wc -l < "$out/calculator.txt") blocks"
