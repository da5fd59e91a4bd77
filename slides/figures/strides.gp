# The stride table as a picture: lane i of a warp reads 4-byte word i*s of
# shared memory; the conflict degree is the largest number of distinct
# words that fall in one of the 32 banks.  Computed here, lane by lane,
# for each stride up to smax.
#   smax: the largest stride drawn.
load figdir.'/style.gp'
banks = 32
array degree[smax]
array per_bank[banks]
do for [s = 1:smax] {
    do for [b = 1:banks] { per_bank[b] = 0 }
    do for [lane = 0:31] { b = (lane * s) % banks; per_bank[b + 1] = per_bank[b + 1] + 1 }
    d = 0
    do for [b = 1:banks] { if (per_bank[b] > d) { d = per_bank[b] } }
    degree[s] = d
}
set border 3
set xtics 1, 1, smax nomirror font ',6'
set ytics (1, 2, 4, 8, 16, 32) nomirror
set logscale y 2
set xrange [0.3 : smax + 0.7]
set yrange [0.8 : 45]
set xlabel 'stride s (4-byte words between neighbouring lanes)'
set ylabel 'conflict degree'
set grid y
unset key
set style fill solid 0.85 noborder
set boxwidth 0.75
plot degree using 1:2:($2 > 1 ? 0xc0392b : 0x7f8c99) with boxes lc rgb variable, \
     degree using 1:2:(sprintf('%d', $2)) with labels offset 0, 0.5 font ',6'
