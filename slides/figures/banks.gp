# One warp's store into the transposed A tile (stages 05 and 06): lane tx
# (ty fixed) writes logical element As[tx][ty].  Left, the shared array as
# rows of 4-byte words, the 32 words the warp writes in colour, each with
# its bank (word index mod 32).  Right, how many of those words fall in each
# bank: the tallest bar is the conflict degree.
#   layout: 'plain' (As[32][32]), 'padded' (As[32][33]), 'xor' (column ty ^ tx),
#           'rotate' (column (ty + tx) mod 32); ty: the warp's row of threads.
h = 2.8
load figdir.'/style.gp'
banks = 32
tile = 32
pad = (layout eq 'padded') ? 1 : 0
width = tile + pad
stored(r, c) = (layout eq 'xor') ? (c ^ r) : (layout eq 'rotate') ? ((c + r) % tile) : c
array per_bank[banks]
do for [b = 1:banks] { per_bank[b] = 0 }
do for [lane = 0:31] {
    b = (lane * width + stored(lane, ty)) % banks
    per_bank[b + 1] = per_bank[b + 1] + 1
}
degree = 0
do for [b = 1:banks] { if (per_bank[b] > degree) { degree = per_bank[b] } }
name = (layout eq 'plain') ? 'As[32][32]' : (layout eq 'padded') ? 'As[32][33]' : \
       (layout eq 'xor') ? 'As[32][32], column ty ^ tx' : 'As[32][32], column (ty + tx) mod 32'

set multiplot
# Left: the array, one small square per word.
set origin 0, 0
set size 0.52, 1
set size ratio -1
unset border; unset tics; unset key
set xrange [-3 : width + 0.5]
set yrange [-0.5 : tile + 2.5]
set title sprintf('%s: lane tx writes As[tx][%d]', name, ty) font ',9' noenhanced
o = 0
do for [r = 0:tile - 1] { do for [c = 0:width - 1] {
    o = o + 1
    hit = (c == stored(r, ty)) && c < tile
    set object o rect from c, tile - r - 1 to c + 1, tile - r \
        fc rgb (hit ? accent : (c >= tile ? '#e8e8e8' : '#ffffff')) fs solid 1 border rgb '#d5dbe0' lw 0.3
    if (hit) {
        set label o sprintf('%d', (r * width + c) % banks) at c + 0.5, tile - r - 0.5 center font ',4' tc rgb '#ffffff' front
    }
} }
do for [r = 0:tile - 1:8] { set label sprintf('%d', r) at -1.5, tile - r - 0.5 center font ',6' }
set label 'row' at -1.5, tile + 1 center font ',6'
plot 1/0
unset object; unset label
# Right: the warp's words per bank.
set origin 0.52, 0
set size 0.48, 1
set size noratio
set border 3
set xtics 0, 4, 31 nomirror font ',7'
set ytics nomirror font ',7'
set xrange [-0.8 : 31.8]
set yrange [0 : 34]
set xlabel 'bank' font ',8'
set ylabel 'words of this store' font ',8'
set title (degree > 1 ? sprintf('words per bank: a %d-way conflict', degree) : 'words per bank: one each, no conflict') font ',9' tc rgb (degree > 1 ? accent : '#222222')
set style fill solid 0.85 noborder
set boxwidth 0.8
plot per_bank using ($1 - 1):2 with boxes lc rgb accent
unset multiplot
