# Tiling, phase by phase: A at the left, B above, C at the bottom right (the
# layout of the product A·B), drawn element by element for a small n that
# is not a multiple of the tile.  The block that owns tile (bx, by) of C
# copies, in phase t, tile (by, t) of A and tile (t, bx) of B; the part of a
# tile past the matrix edge is zero-filled.
#   n, tile, bx, by, t: the picture to draw (t counts from 0).
h = 2.9
load figdir.'/style.gp'
set size ratio -1
unset border; unset tics; unset key
set margins 0, 0, 0, 0
gap = 2
phases = int((n + tile - 1) / tile)
span = phases * tile             # the tiles cover this much, past n at the edge
ox_a = 0;         oy_a = 0       # lower left corners (y grows upwards; row 0 at the top)
ox_b = span + gap; oy_b = span + gap
ox_c = span + gap; oy_c = 0
set xrange [-1 : 2 * span + gap + 3]
set yrange [-1.5 : 2 * span + gap + 0.5]
o = 0
# cell(ox, oy, r, c, colour, fill density): one element, row r, column c
cellx(ox, c) = ox + c
celly(oy, r) = oy + span - r - 1
# Every element of the three matrices, light; the tiles' boundaries, dashed.
do for [m = 0:2] {
    ox = (m == 0) ? ox_a : (m == 1) ? ox_b : ox_c
    oy = (m == 0) ? oy_a : (m == 1) ? oy_b : oy_c
    do for [r = 0:n - 1] { do for [c = 0:n - 1] {
        o = o + 1
        set object o rect from cellx(ox, c), celly(oy, r) to cellx(ox, c) + 1, celly(oy, r) + 1 \
            fc rgb '#ffffff' fs solid 1 border rgb '#d5dbe0' lw 0.5 back
    } }
    o = o + 1
    set object o rect from ox, oy + span - n to ox + n, oy + span fs empty border rgb '#555555' lw 1.2 front
    do for [k = 1:phases - 1] {
        set arrow from ox + k * tile, oy to ox + k * tile, oy + span nohead dt 2 lc rgb muted front
        set arrow from ox, oy + span - k * tile to ox + span, oy + span - k * tile nohead dt 2 lc rgb muted front
    }
}
# shade(ox, oy, tile row, tile column, colour): one tile, with the part
# outside the matrix drawn as an outline only (those elements are zero-filled).
do for [m = 0:2] {
    ox = (m == 0) ? ox_a : (m == 1) ? ox_b : ox_c
    oy = (m == 0) ? oy_a : (m == 1) ? oy_b : oy_c
    tr = (m == 0) ? by : (m == 1) ? t : by
    tc = (m == 0) ? t : (m == 1) ? bx : bx
    do for [r = tr * tile : tr * tile + tile - 1] { do for [c = tc * tile : tc * tile + tile - 1] {
        o = o + 1
        inside = (r < n && c < n)
        set object o rect from cellx(ox, c), celly(oy, r) to cellx(ox, c) + 1, celly(oy, r) + 1 \
            fc rgb (m == 2 ? '#7f8c99' : accent) fs solid (inside ? 0.75 : 0.12) \
            border rgb (inside ? '#ffffff' : accent) lw 0.5
    } }
}
set label 'A' at ox_a + span / 2.0, oy_a + span + 1 center font ',11'
set label 'B' at ox_b - 1.2, oy_b + span / 2.0 center font ',11'
set label 'C' at ox_c + span + 1.2, oy_c + span / 2.0 center font ',11'
# The words go in the empty quarter, above A and left of B.
tx0 = 0; ty0 = 2 * span + gap - 0.5
set label sprintf('n = %d, TILE = %d: %d phases', n, tile, phases) at tx0, ty0 left font ',9'
set label sprintf('phase t = %d of the block', t) at tx0, ty0 - 2.2 left font ',9'
set label sprintf('that owns tile (%d, %d) of C', bx, by) at tx0, ty0 - 3.7 left font ',9'
set label sprintf('A tile: its rows, phase %d''s columns', t) at tx0, ty0 - 5.9 left tc rgb accent
set label sprintf('B tile: phase %d''s rows, its columns', t) at tx0, ty0 - 7.4 left tc rgb accent
set label 'pale: past the edge, zero-filled' at tx0, ty0 - 9.6 left tc rgb '#555555'
plot 1/0
