# Stage 07's block tile of C: BM x BN elements, computed by a
# (BM/TM) x (BN/TN) grid of threads, each owning TM x TN elements strided by
# the thread grid (rows thread_row + (BM/TM) i, columns thread_col + (BN/TN) j).
# Two neighbouring threads are drawn: thread (0, 0) in the accent colour,
# thread (0, 1) in grey; the dashed lines cut the tile into thread-grid pieces.
#   bm, bn, tm, tn: the solution's BM, BN, TM, TN.
h = 2.9
load figdir.'/style.gp'
ty_n = bm / tm          # threads down (THREADS_Y)
tx_n = bn / tn          # threads across (THREADS_X)
set size ratio -1
unset border; unset tics; unset key
set margins 0, 0, 0, 0
set xrange [-2 : bn * 1.75]
set yrange [-bm * 0.06 : bm * 1.04]
set object 1 rect from 0, 0 to bn, bm fs empty border rgb '#555555' lw 1.2
do for [k = 1:tn - 1] { set arrow from k * tx_n, 0 to k * tx_n, bm nohead dt 2 lc rgb '#d5dbe0' }
do for [k = 1:tm - 1] { set arrow from 0, k * ty_n to bn, k * ty_n nohead dt 2 lc rgb '#d5dbe0' }
array X[tm * tn]; array Y[tm * tn]
do for [i = 0:tm - 1] { do for [j = 0:tn - 1] { X[i * tn + j + 1] = j * tx_n; Y[i * tn + j + 1] = bm - i * ty_n - 1 } }
set label sprintf("BM x BN = %d x %d block tile,\n%d x %d threads of TM x TN = %d x %d", bm, bn, ty_n, tx_n, tm, tn) at bn * 1.05, bm * 0.9 left
set label sprintf("thread (0, 0): rows 0 + %d i,\ncolumns 0 + %d j", ty_n, tx_n) at bn * 1.05, bm * 0.62 left tc rgb accent
set label "thread (0, 1): one column over;\nneighbouring lanes, neighbouring words" at bn * 1.05, bm * 0.4 left tc rgb '#7f8c99'
plot X using (X[$1] + 1.5):(Y[$1] + 0.5):(0.5):(0.5) with boxxyerror fs solid 1 noborder lc rgb '#7f8c99', \
     X using (X[$1] + 0.5):(Y[$1] + 0.5):(0.5):(0.5) with boxxyerror fs solid 1 noborder lc rgb accent
