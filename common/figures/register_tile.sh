#!/usr/bin/env bash
# Lesson 07's figure: one block's BM x BN tile of C, and which elements two
# of its threads own, with the rows of the A tile and the columns of the B
# tile each reads for one k.  The sizes come from the solution's #defines
# (BM, BN, BK, TM, TN); the ownership is the solution's indexing, written
# here again (a thread at (thread_row, thread_col) of the THREADS_Y x
# THREADS_X grid owns rows thread_row + i * THREADS_Y and columns
# thread_col + j * THREADS_X): a change to it there needs the same here,
# which make_figures.sh --check cannot notice.
#
#   common/figures/register_tile.sh SOLUTION_MATMUL_CU OUT.svg
set -euo pipefail
src=$1 out=$2
define() { sed -n "s/^#define $1 \\([0-9]*\\).*/\\1/p" "$src"; }
bm=$(define BM) bn=$(define BN) bk=$(define BK) tm=$(define TM) tn=$(define TN)
[ -n "$bm" ] && [ -n "$bn" ] && [ -n "$bk" ] && [ -n "$tm" ] && [ -n "$tn" ] ||
    { echo "register_tile: BM, BN, BK, TM or TN not found in $src" >&2; exit 1; }
awk -v bm="$bm" -v bn="$bn" -v bk="$bk" -v tm="$tm" -v tn="$tn" '
function rect(x, y, w, h, fill, extra) {
    printf "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"%s\"%s/>\n", x, y, w, h, fill, extra
}
function text(x, y, s, extra) { printf "<text x=\"%g\" y=\"%g\"%s>%s</text>\n", x, y, extra, s }
BEGIN {
    ty = bm / tm; tx = bn / tn           # the grid of threads: THREADS_Y x THREADS_X
    cell = 5; gap = 14
    a_x = 20; c_x = a_x + bk * cell + gap   # A tile on the left, C to its right
    b_y = 70; c_y = b_y + bk * cell + gap   # B tile above C
    w = c_x + bn * cell + 330; h = c_y + bm * cell + 60
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"13\">\n", w, h
    rect(0, 0, w, h, "white", "")
    text(20, 24, sprintf("One block of stage 07: a %d x %d tile of C, %d x %d threads, each owning %d x %d elements", bm, bn, ty, tx, tm, tn), " font-weight=\"bold\"")
    text(20, 44, sprintf("strided: rows %d apart, columns %d apart (solutions/07-register-tiling/matmul.cu)", ty, tx), "")
    # The tiles, light grey, with a line every THREADS_Y rows / THREADS_X columns.
    rect(a_x, c_y, bk * cell, bm * cell, "#eeeeee", " stroke=\"#999\"")
    rect(c_x, b_y, bn * cell, bk * cell, "#eeeeee", " stroke=\"#999\"")
    rect(c_x, c_y, bn * cell, bm * cell, "#f6f6f6", " stroke=\"#999\"")
    for (r = ty; r < bm; r += ty)
        printf "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"#ccc\"/>\n", c_x, c_y + r * cell, c_x + bn * cell, c_y + r * cell
    for (c = tx; c < bn; c += tx)
        printf "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"#ccc\"/>\n", c_x + c * cell, c_y, c_x + c * cell, c_y + bm * cell
    # Two threads: thread 0, and the one at (1, 1) of the grid.
    split("0 1", trow, " "); split("0 1", tcol, " "); split("#1f77b4 #ff7f0e", color, " ")
    k = 0
    for (t = 1; t <= 2; t++) {
        for (i = 0; i < tm; i++) {
            r = trow[t] + i * ty
            rect(a_x + k * cell, c_y + r * cell, cell, cell, color[t], "")           # A[r][k] in registers
            for (j = 0; j < tn; j++) {
                c = tcol[t] + j * tx
                rect(c_x + c * cell, c_y + r * cell, cell, cell, color[t], "")       # C[r][c] owned
            }
        }
        for (j = 0; j < tn; j++)
            rect(c_x + (tcol[t] + j * tx) * cell, b_y + k * cell, cell, cell, color[t], "")  # B[k][c]
    }
    text(a_x, c_y - 8, sprintf("A tile, %d x %d", bm, bk), "")
    text(c_x, b_y - 8, sprintf("B tile, %d x %d", bk, bn), "")
    text(c_x, c_y + bm * cell + 20, sprintf("C: the block'"'"'s %d x %d elements", bm, bn), "")
    lx = c_x + bn * cell + 20
    rect(lx, c_y, 12, 12, color[1], ""); text(lx + 18, c_y + 11, "thread 0", "")
    rect(lx, c_y + 20, 12, 12, color[2], ""); text(lx + 18, c_y + 31, sprintf("thread %d (row 1, column 1)", tx + 1), "")
    # The legend, a line each.
    nl = 0
    lines[++nl] = "For one k (here 0: the marked column"
    lines[++nl] = "of the A tile and row of the B tile),"
    lines[++nl] = sprintf("a thread reads %d values of A and %d of B", tm, tn)
    lines[++nl] = "from shared memory into registers, then"
    lines[++nl] = sprintf("does %d multiply-adds: %d FMAs per %d reads.", tm * tn, tm * tn, tm + tn)
    lines[++nl] = ""
    lines[++nl] = sprintf("The grey lines split C every %d rows", ty)
    lines[++nl] = sprintf("and %d columns: each square holds one", tx)
    lines[++nl] = "element of every thread of the block."
    for (l = 1; l <= nl; l++)
        text(lx, c_y + 44 + 16 * l, lines[l], "")
    print "</svg>"
}' > "$out"
