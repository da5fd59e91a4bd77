#!/usr/bin/env bash
# Lesson 03's figure: the one block that covers all of C, one thread per
# element, above the shared array As sized for MAX_N x MAX_N (the solution's
# #define) in memory order, its first n * n slots used, at n = 3, at
# n = MAX_N, and at n = MAX_N + 1, where the block
# would need more threads than a block may have (maxThreadsPerBlock, from
# the device query the simulator's report keeps: reports/cpu-simulator).
#
#   common/figures/whole_matrix_block.sh SOLUTION_MATMUL_CU DEVICE_LIMITS_TSV OUT.svg
set -euo pipefail
src=$1 limits=$2 out=$3
max_n=$(sed -n 's/^#define MAX_N \([0-9]*\).*/\1/p' "$src")
threads=$(awk -F'\t' '$1 == "maxThreadsPerBlock" { print $2 }' "$limits")
[ -n "$max_n" ] && [ -n "$threads" ] || { echo "whole_matrix_block: no MAX_N in $src or maxThreadsPerBlock in $limits" >&2; exit 1; }
awk -v max_n="$max_n" -v limit="$threads" '
function rect(x, y, w, h, fill, extra) {
    printf "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"%s\"%s/>\n", x, y, w, h, fill, extra
}
function text(x, y, s, extra) { printf "<text x=\"%g\" y=\"%g\"%s>%s</text>\n", x, y, extra, s }
# panel X N: the block of n x n threads (blue; red when n x n > limit), and
# below it As in memory order, MAX_N x MAX_N slots a row of the drawing
# each MAX_N long, the first n * n of them used (the index is row * n + col).
function panel(x, n,    cell, y, y2, fits, i, j, used) {
    cell = 6; y = 100; y2 = y + (max_n + 1) * cell + 50
    fits = n * n <= limit
    for (i = 0; i < n; i++) for (j = 0; j < n; j++)
        rect(x + j * cell, y + i * cell, cell, cell, fits ? "#1f77b4" : "#d62728", " stroke=\"white\" stroke-width=\"0.5\"")
    text(x, y - 26, sprintf("n = %d", n), " font-weight=\"bold\"")
    text(x, y - 8, sprintf("the block: %d x %d = %d threads", n, n, n * n), "")
    if (!fits) {
        text(x, y2 - 14, sprintf("more than %d threads: the launch fails,", limit), " fill=\"#d62728\"")
        text(x, y2 + 4, "so the kit refuses this n", " fill=\"#d62728\"")
        return
    }
    text(x, y2 - 10, sprintf("As: %d of its %d slots used", n * n, max_n * max_n), "")
    rect(x, y2, max_n * cell, max_n * cell, "#eeeeee", " stroke=\"#999\"")
    for (used = 0; used < n * n; used++)
        rect(x + (used % max_n) * cell, y2 + int(used / max_n) * cell, cell, cell, "#ff7f0e", " stroke=\"white\" stroke-width=\"0.5\"")
}
BEGIN {
    w = 20 + 3 * (max_n * 6 + 80) + 40; h = 100 + 2 * (max_n + 1) * 6 + 80
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"13\">\n", w, h
    rect(0, 0, w, h, "white", "")
    text(20, 24, sprintf("Stage 03: one block covers all of C, one thread per element; As and Bs hold %d x %d floats each", max_n, max_n), " font-weight=\"bold\"")
    text(20, 44, sprintf("(solutions/03-shared-3x3/matmul.cu: MAX_N = %d, As flat and row-major; a block holds at most %d threads)", max_n, limit), "")
    panel(20, 3)
    panel(20 + (max_n * 6 + 80), max_n)
    panel(20 + 2 * (max_n * 6 + 80), max_n + 1)
    print "</svg>"
}' > "$out"
