# Stage 01's grid laid over C: blocks of BLOCK x BLOCK threads, rounded up to
# cover n, so the last column and row of blocks hang over the matrix; the
# threads out there must do nothing (the edge guard).  One warp of block
# (0, 0) is marked: with x walking the columns it is BLOCK-wide rows of it.
#   n, block: the sizes to draw.
h = 2.9
load figdir.'/style.gp'
set size ratio -1
unset border; unset tics; unset key
set margins 0, 0, 0, 0
nb = int((n + block - 1) / block)
span = nb * block
set xrange [-4 : span + 0.62 * span]
set yrange [-4 : span + 3]
y(r) = span - r                      # row 0 at the top
o = 0
# Threads outside C: shaded.
o = o + 1; set object o rect from n, y(span) to span, y(0) fc rgb '#f2d7d5' fs solid 1 noborder back
o = o + 1; set object o rect from 0, y(span) to n, y(n) fc rgb '#f2d7d5' fs solid 1 noborder back
# One warp: 32 consecutive threads of block (0, 0), x fastest.
do for [i = 0:31] {
    o = o + 1
    set object o rect from i % block, y(int(i / block) + 1) to i % block + 1, y(int(i / block)) \
        fc rgb accent fs solid 0.85 noborder front
}
# Blocks, and C itself.
do for [bx = 0:nb - 1] { do for [by = 0:nb - 1] {
    o = o + 1
    set object o rect from bx * block, y((by + 1) * block) to (bx + 1) * block, y(by * block) \
        fs empty border rgb '#7f8c99' lw 1 front
    set label sprintf('(%d, %d)', bx, by) at bx * block + block / 2.0, y(by * block + block / 2.0) center tc rgb '#555555'
} }
o = o + 1; set object o rect from 0, y(n) to n, y(0) fs empty border rgb '#222222' lw 2 front
do for [k = 0:nb] { set label sprintf('%d', k * block) at k * block, y(0) + 1.5 center font ',7' }
set label sprintf('%d', n) at n, y(n) - 2 center font ',7' tc rgb accent
set label sprintf('%d', n) at -2.2, y(n) center font ',7' tc rgb accent
set label sprintf("n = %d, BLOCK = %d:\n%d x %d blocks", n, block, nb, nb) at span + 3, y(2) left
set label "shaded: threads outside C\n(the edge guard sends them home)" at span + 3, y(span / 2.0) left tc rgb '#a04040'
set label "one warp: 32 threads,\nx fastest" at span + 3, y(span - 6) left tc rgb accent
plot 1/0
