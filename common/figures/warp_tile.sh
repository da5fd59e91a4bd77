#!/usr/bin/env bash
# Lesson 08's figure: the launcher's large shape as the solution declares it
# (launch_warptile<BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES>, its first
# call): the block tile split among its warps, one warp's tile split into
# sub-tiles, and where one lane's results lie in each, by the kernel's
# indexing (warp_m, warp_n, lane_m, lane_n), written here again: a change to
# it there needs the same here, which make_figures.sh --check cannot notice;
# then the pipeline: which tile each of the STAGES shared buffers holds
# while the block computes.
#
#   common/figures/warp_tile.sh SOLUTION_MATMUL_CU OUT.svg
set -euo pipefail
src=$1 out=$2
shape=$(sed -n 's/.*launch_warptile<\([0-9, ]*\)>(A, B, C, n);.*/\1/p' "$src" | head -n 1 | tr -d ' ')
IFS=, read -r bm bn bk wm wn wniter tm tn stages <<< "$shape"
[ -n "${stages:-}" ] || { echo "warp_tile: no launch_warptile<...> call found in $src" >&2; exit 1; }
awk -v bm="$bm" -v bn="$bn" -v bk="$bk" -v wm="$wm" -v wn="$wn" -v wniter="$wniter" -v tm="$tm" -v tn="$tn" \
    -v stages="$stages" '
function rect(x, y, w, h, fill, extra) {
    printf "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"%s\"%s/>\n", x, y, w, h, fill, extra
}
function text(x, y, s, extra) { printf "<text x=\"%g\" y=\"%g\"%s>%s</text>\n", x, y, extra, s }
BEGIN {
    warps = (bm / wm) * (bn / wn)
    wmiter = (wm * wn) / (32 * tm * tn * wniter)
    wsubm = wm / wmiter; wsubn = wn / wniter; across = wsubn / tn
    s = 1.5; bx = 20; by = 70; cw = 100; ch = 24; phases = 7
    w = 1000; h = by + bm * s + 60 + 40 + (stages + 1) * (ch + 8) + 20
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"13\">\n", w, h
    rect(0, 0, w, h, "white", "")
    text(20, 24, sprintf("Stage 08, large shape: a %d x %d block tile, %d warps of %d x %d, %d x %d results per lane in each of %d sub-tiles", bm, bn, warps, wm, wn, tm, tn, wniter * wmiter), " font-weight=\"bold\"")
    text(20, 44, "(solutions/08-warp-tiling/matmul.cu: the launcher'"'"'s first shape; the kernel'"'"'s formulas for warp_m, warp_n, lane_m, lane_n)", "")
    # Left: the block tile, one cell per 4 x 4 elements, each warp a colour.
    split("#aec7e8 #ffbb78 #98df8a #ff9896 #c5b0d5 #c49c94 #f7b6d2 #dbdb8d #9edae5 #c7c7c7", pale, " ")
    for (warp = 0; warp < warps; warp++) {
        m = int(warp / (bn / wn)) * wm; nn = (warp % (bn / wn)) * wn
        rect(bx + nn * s, by + m * s, wn * s, wm * s, pale[warp % 10 + 1], " stroke=\"white\"")
        text(bx + nn * s + 6, by + m * s + 16, "warp " warp, " font-size=\"11\"")
    }
    rect(bx, by, bn * s, bm * s, "none", " stroke=\"#333\"")
    text(bx, by + bm * s + 18, sprintf("the block tile of C, %d x %d", bm, bn), "")
    # Middle: warp 0 enlarged: its sub-tiles, and lane 0 and lane 5.
    z = 4; wx = bx + bn * s + 60; wy = by
    rect(wx, wy, wn * z, wm * z, pale[1], "")
    for (i = 0; i < wmiter; i++) for (j = 0; j < wniter; j++)
        rect(wx + j * wsubn * z, wy + i * wsubm * z, wsubn * z, wsubm * z, "none", " stroke=\"#555\" stroke-dasharray=\"4 3\"")
    split("0 5", lanes, " "); split("#1f77b4 #d62728", strong, " ")
    for (l = 1; l <= 2; l++) {
        lane = lanes[l]
        lm = int(lane / across) * tm; ln = (lane % across) * tn
        for (i = 0; i < wmiter; i++) for (j = 0; j < wniter; j++)
            rect(wx + (j * wsubn + ln) * z, wy + (i * wsubm + lm) * z, tn * z, tm * z, strong[l], "")
    }
    rect(wx, wy, wn * z, wm * z, "none", " stroke=\"#333\"")
    text(wx, wy + wm * z + 18, sprintf("warp 0, %d x %d: %d sub-tiles of %d x %d (dashed)", wm, wn, wniter * wmiter, wsubm, wsubn), "")
    lx = wx + wn * z + 20
    rect(lx, wy, 12, 12, strong[1], ""); text(lx + 18, wy + 11, "lane 0", "")
    rect(lx, wy + 20, 12, 12, strong[2], ""); text(lx + 18, wy + 31, "lane 5", "")
    n = 0
    lines[++n] = sprintf("In each sub-tile the %d lanes", 32)
    lines[++n] = sprintf("stand %d down and %d across,", 32 / across, across)
    lines[++n] = sprintf("%d x %d results each, adjacent:", tm, tn)
    lines[++n] = sprintf("a lane reads its %d floats of B", tn)
    lines[++n] = "for one k as one 16-byte load."
    for (i = 1; i <= n; i++) text(lx, wy + 56 + 16 * i, lines[i], "")
    # Bottom: the pipeline, STAGES buffers over the first phases.
    py = by + bm * s + 60
    text(20, py, sprintf("The pipeline: %d shared buffers; while the block computes on tile t, the copies (cp.async) of tile t + %d are in flight", stages, stages - 1), " font-weight=\"bold\"")
    for (b = 0; b < stages; b++) text(20, py + 40 + b * (ch + 8) + 16, "buffer " b, "")
    text(20, py + 40 + stages * (ch + 8) + 16, "computing", "")
    for (t = 0; t < phases; t++) {
        x = 110 + t * cw
        text(x + 4, py + 28, "step " t, " font-size=\"11\" fill=\"#555\"")
        # At step t the block computes on tile t - (stages - 1), and the copy of tile t is issued into buffer t % stages.
        tile = t; b = t % stages
        rect(x, py + 40 + b * (ch + 8), cw - 4, ch, "#ffbb78", "")
        text(x + 6, py + 40 + b * (ch + 8) + 16, "copy tile " tile, " font-size=\"12\"")
        c = t - (stages - 1)
        if (c >= 0) {
            rect(x, py + 40 + stages * (ch + 8), cw - 4, ch, "#98df8a", "")
            text(x + 6, py + 40 + stages * (ch + 8) + 16, "tile " c " (buf " c % stages ")", " font-size=\"12\"")
        }
    }
    print "</svg>"
}' > "$out"
