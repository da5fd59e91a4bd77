# Stage 08's block tile of C: BM x BN, cut into warp tiles of WM x WN
# (dashed); warp 0's tile is cut into WMITER x WNITER sub-tiles, and in each
# sub-tile lane 0 owns one TM x TN block (accent), lane 1 the next one along
# (grey).  The shapes are the template arguments the solution launches.
#   bm, bn, wm, wn, wniter, tm, tn: those arguments.
h = 2.9
load figdir.'/style.gp'
wmiter = (wm * wn) / (32 * tm * tn * wniter)
wsubm = wm / wmiter
wsubn = wn / wniter
set size ratio -1
unset border; unset tics; unset key
set margins 0, 0, 0, 0
set xrange [-2 : bn * 1.8]
set yrange [-bm * 0.04 : bm * 1.04]
y(r) = bm - r
o = 1
set object o rect from 0, 0 to bn, bm fs empty border rgb '#555555' lw 1.2
do for [k = 1:bn / wn - 1] { set arrow from k * wn, 0 to k * wn, bm nohead dt 2 lc rgb muted }
do for [k = 1:bm / wm - 1] { set arrow from 0, y(k * wm) to bn, y(k * wm) nohead dt 2 lc rgb muted }
o = o + 1; set object o rect from 0, y(wm) to wn, y(0) fc rgb accent fs solid 0.08 border rgb accent lw 1
do for [a = 0:wmiter - 1] { do for [b = 0:wniter - 1] {
    o = o + 1; set object o rect from b * wsubn, y((a + 1) * wsubm) to (b + 1) * wsubn, y(a * wsubm) fs empty border rgb accent lw 0.6 dt 3
    o = o + 1; set object o rect from b * wsubn, y(a * wsubm + tm) to b * wsubn + tn, y(a * wsubm) fc rgb accent fs solid 1 noborder front
    o = o + 1; set object o rect from b * wsubn + tn, y(a * wsubm + tm) to b * wsubn + 2 * tn, y(a * wsubm) fc rgb '#7f8c99' fs solid 1 noborder front
} }
set label sprintf("block tile %d x %d: %d warps of %d x %d", bm, bn, (bm / wm) * (bn / wn), wm, wn) at bn * 1.05, bm * 0.92 left
set label sprintf("warp 0 (tinted): %d x %d sub-tiles of %d x %d", wmiter, wniter, wsubm, wsubn) at bn * 1.05, bm * 0.78 left tc rgb accent
set label sprintf("lane 0: a %d x %d block in each sub-tile", tm, tn) at bn * 1.05, bm * 0.64 left tc rgb accent
set label "lane 1: the next block along" at bn * 1.05, bm * 0.52 left tc rgb '#7f8c99'
plot 1/0
