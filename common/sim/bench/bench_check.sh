#!/bin/sh
# bench_check.sh: how long the simulator's check mode takes over every block
# of the 32x32 tiled kernel (the kit's stage 04 solution, TILE 32) at N=256.  A
# benchmark, not a test: it reports the time and fails only if the build or
# the run does (or the result is wrong).  Run from `make bench-sim`, or:
#
#   sh common/sim/bench/bench_check.sh
#
# Prints one line.  The check build of run_lab prints "lab ..." just before
# it allocates and launches, and the checker's report ("[check] kernel
# launched at ...") as soon as the launch is done: with run_lab's stdout
# line-buffered (stdbuf), the time between the two lines is the kernel's
# check run (every block run with the load/store hooks, the analysis and
# the report's addr2line), without the program's start, the input set-up
# and the CPU reference check.  Where the two lines cannot be timed (no
# stdbuf, or the lines are not found), the whole run_lab run is timed
# instead and the line says so.
set -u

root=$(cd "$(dirname "$0")/../../.." && pwd) || exit 1
cd "$root" || exit 1
out=$root/build/sim/bench/check-tiled
prog=$out/check/run_lab
n=256
mkdir -p "$out" || exit 1

if ! make --no-print-directory -f common/build.mk BACKEND=sim LAB_SRC="$root/solutions/04-tiled/matmul.cu" \
        LAB_NAME=bench-check OUT="$out" "$prog" > "$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    echo "bench_check: building the check variant failed" >&2
    exit 1
fi

now_ns() { date +%s%N; }

# Each output line of run_lab with the time it arrived (ns) in front.
log=$out/run.log
line_buffered=
command -v stdbuf > /dev/null 2>&1 && line_buffered="stdbuf -oL"
start=$(now_ns)
$line_buffered "$prog" $n 1 1 2>&1 | while IFS= read -r line; do
    printf '%s %s\n' "$(now_ns)" "$line"
done > "$log"
end=$(now_ns)

if ! grep -q ' result: PASS' "$log"; then
    cut -d' ' -f2- "$log" >&2
    echo "bench_check: the check run failed or its result is wrong" >&2
    exit 1
fi

launch=$(grep -m1 ' lab bench-check, ' "$log" | cut -d' ' -f1)
report=$(grep -m1 ' \[check\] kernel launched at ' "$log" | cut -d' ' -f1)
if [ -n "$line_buffered" ] && [ -n "$launch" ] && [ -n "$report" ] && [ "$report" -ge "$launch" ]; then
    awk -v ns="$((report - launch))" -v n=$n \
        'BEGIN { printf "check mode, tiled 32x32, N=%d, every block: %.2f s\n", n, ns / 1e9 }'
else
    awk -v ns="$((end - start))" -v n=$n \
        'BEGIN { printf "check mode, tiled 32x32, N=%d, every block: %.2f s (whole run_lab run: the kernel could not be timed apart)\n", n, ns / 1e9 }'
fi
