# Floats loaded from global memory per element of C against n, from the simulator's counts:
# one line per stage, the deck's stage in the accent colour.
#   datadir: one STAGE.dat per stage (n, floats per element); stages: their
#   names, space-separated; stage: the one to stand out.
load figdir.'/style.gp'
set logscale xy 2
set xlabel 'n'
set ylabel 'floats loaded per element of C'
set key outside right center
set grid
set xrange [1.5:*]
set yrange [1:*]
is(i) = word(stages, i) eq stage
plot for [i = 1:words(stages)] datadir.'/'.word(stages, i).'.dat' using 1:2 \
    with linespoints pt (is(i) ? 7 : 4 + i) ps (is(i) ? 0.8 : 0.5) lw (is(i) ? 3 : 1) \
    lc rgb (is(i) ? accent : muted) title word(stages, i)
