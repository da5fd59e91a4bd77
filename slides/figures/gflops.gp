# GFLOP/s of every stage (and cuBLAS) at one size on one GPU, from a GPU
# report's timings.tsv; the deck's stage in the accent colour.
#   data: lines "label gflops is_this_stage"; gpu: its name; n: the size.
load figdir.'/style.gp'
set title sprintf('GFLOP/s at n = %d on %s (log scale)', n, gpu)
set style fill solid 0.85 noborder
set boxwidth 0.7
set logscale y 10
set grid y
set xtics rotate by -25 noenhanced
unset key
plot data using 0:2:($3 > 0 ? 0xc0392b : 0x9aa5b1):xtic(1) with boxes lc rgb variable, \
     data using 0:2:(sprintf('%.0f', $2)) with labels offset 0,0.6 font ',7'
