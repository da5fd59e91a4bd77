#!/usr/bin/env bash
# Lesson 01's figure: one warp of the naive kernel's BLOCK x BLOCK block
# over C, and the 32-byte sectors its loads of A[row][k] and B[k][col] and
# its store to C touch for one k: with threadIdx.x walking the columns (the
# solution) and swapped (threadIdx.x walking the rows).  BLOCK comes from
# the solution's #define; a warp is 32 consecutive thread numbers, x
# fastest; a sector is 32 bytes, 8 floats, aligned (n a multiple of 8).
#
#   common/figures/warp_requests.sh SOLUTION_MATMUL_CU OUT.svg
set -euo pipefail
src=$1 out=$2
block=$(sed -n 's/^#define BLOCK \([0-9]*\).*/\1/p' "$src")
[ -n "$block" ] || { echo "warp_requests: no #define BLOCK in $src" >&2; exit 1; }
awk -v bs="$block" '
function rect(x, y, w, h, fill, extra) {
    printf "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"%s\"%s/>\n", x, y, w, h, fill, extra
}
function text(x, y, s, extra) { printf "<text x=\"%g\" y=\"%g\"%s>%s</text>\n", x, y, extra, s }
# panel X0 SWAPPED: the warp (lanes 0..31) over a (bs+8) x (bs+8) corner of C,
# the column k of A left of it and the row k of B above it, sectors outlined.
function panel(x0, swapped,    lane, tx, ty, r, c, cell, cx, cy, ax, by, nA, nB, nC, key, seenA, seenB, seenC, i, m) {
    cell = 14; m = 24                   # the corner of C drawn: m x m elements
    ax = x0; cx = x0 + cell + 16; by = 120; cy = by + cell + 16
    rect(cx, cy, m * cell, m * cell, "#f4f4f4", " stroke=\"#bbb\"")
    rect(ax, cy, cell, m * cell, "#f4f4f4", " stroke=\"#bbb\"")
    rect(cx, by, m * cell, cell, "#f4f4f4", " stroke=\"#bbb\"")
    for (i = 8; i < m; i += 8) {        # sector boundaries: 8 floats
        printf "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"#333\" stroke-width=\"2\"/>\n", cx + i * cell, by - 4, cx + i * cell, by + cell + 4
    }
    for (lane = 0; lane < 32; lane++) {
        tx = lane % bs; ty = int(lane / bs)
        if (swapped) { r = tx; c = ty } else { r = ty; c = tx }
        rect(cx + c * cell, cy + r * cell, cell, cell, "#1f77b4", " stroke=\"white\"")
        seenC[r "," int(c / 8)] = 1               # a sector: one row, 8 columns
        seenA[r] = 1                              # A[r][k]: column k, one row each
        seenB[int(c / 8)] = 1                     # B[k][c]: row k
        rect(ax, cy + r * cell, cell, cell, "#ff7f0e", " stroke=\"white\"")
        rect(cx + c * cell, by, cell, cell, "#2ca02c", " stroke=\"white\"")
    }
    for (key in seenA) nA++
    for (key in seenB) nB++
    for (key in seenC) nC++
    text(x0, 74, swapped ? "swapped: threadIdx.x walks the rows" : "the solution: threadIdx.x walks the columns", " font-weight=\"bold\"")
    text(x0, 94, sprintf("one warp = %s of C", swapped ? sprintf("%d rows x %d columns", bs, 32 / bs) : sprintf("%d rows x %d columns", 32 / bs, bs)), "")
    text(cx, by - 10, sprintf("B row k: %d sector%s", nB, nB == 1 ? "" : "s"), " fill=\"#2ca02c\"")
    text(x0, cy + m * cell + 24, sprintf("A column k: %d sector%s (one per row: A[row][k] are n floats apart)", nA, nA == 1 ? "" : "s"), " fill=\"#ff7f0e\"")
    text(x0, cy + m * cell + 44, sprintf("store to C: %d sector%s", nC, nC == 1 ? "" : "s"), " fill=\"#1f77b4\"")
    return nA + nB
}
BEGIN {
    w = 960; h = 550
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"13\">\n", w, h
    rect(0, 0, w, h, "white", "")
    text(20, 24, sprintf("One warp of stage 01 (%d x %d blocks), one step k: the 32-byte sectors its requests touch", bs, bs), " font-weight=\"bold\" font-size=\"15\"")
    text(20, 44, "(solutions/01-naive/matmul.cu; thick marks on B: sector boundaries, 8 floats; a corner of C, A and B drawn)", "")
    panel(20, 0)
    panel(500, 1)
    print "</svg>"
}' > "$out"
