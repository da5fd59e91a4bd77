# The roofline by memory level (the GPU report's roofline-levels.tsv, made
# by common/report/plot.sh): each stage a line at its GFLOP/s with a point
# against DRAM (circle), the L2 (triangle) and shared memory (square); the
# deck's stage in the accent colour, the others muted; each level's roof its
# measured bandwidth times the intensity, capped by the FP32 peak.
#   data: lines "stage gflops dram l2 shared is_this_stage" ("-" where a
#   level has no point); bw, l2bw, sbw: GB/s; peak: GFLOP/s; gpu; n
load figdir.'/style.gp'
set title sprintf('Roofline by memory level, %s, n = %d', gpu, n)
set xlabel 'FLOP per byte of the level'
set ylabel 'GFLOP/s'
set logscale xy 10
set grid
set xrange [0.1:3000]
set yrange [1000:*]
set key inside right bottom font ',7'
set datafile missing '-'
roof(x, b) = (x * b < peak) ? x * b : peak
plot roof(x, bw) title sprintf('DRAM, %.0f GB/s', bw) lw 1.5 dt 1 lc rgb 'black', \
     roof(x, l2bw) title sprintf('L2, %.0f GB/s', l2bw) lw 1.5 dt 2 lc rgb 'black', \
     roof(x, sbw) title sprintf('shared, %.0f GB/s', sbw) lw 1.5 dt 3 lc rgb 'black', \
     data using 3:2:($6 > 0 ? 0xc0392b : 0x9aa5b1) with points pt 7 ps 0.8 lc rgb variable notitle, \
     data using 4:2:($6 > 0 ? 0xc0392b : 0x9aa5b1) with points pt 9 ps 0.8 lc rgb variable notitle, \
     data using 5:2:($6 > 0 ? 0xc0392b : 0x9aa5b1) with points pt 5 ps 0.8 lc rgb variable notitle, \
     data using 3:2:(($6 > 0) ? stringcolumn(1) : '') with labels offset 0,0.8 font ',7' tc rgb accent notitle
