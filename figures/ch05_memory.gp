# ch05_memory.gp -- bytes of working memory each variant needs beyond its
# inputs and output, against n (d_k = d_v = 32), counted by formula.
fig_h = 1.6   # seven curves: the key below needs seven rows
load 'figures/style.gp'
set logscale xy
set format x '%g'
set format y '10^{/*1.25 %T}'
set ytics 100   # every other power of ten: a label per decade would touch the next
set xlabel 'sequence length n'
set ylabel 'working memory (bytes)'
set key below Left reverse
set xrange [16:8192]
set xtics (16, 64, 256, 1024, 4096)
plot data.'costs.dat' using 1:12 with linespoints ls 5 title 'masked: weights + mask', \
     '' using 1:11 with linespoints ls 1 title 'standard, relative: the weights', \
     '' using 1:13 with linespoints ls 2 title 'sparse: index lists', \
     '' using 1:14 with linespoints ls 4 title 'local: index lists', \
     '' using 1:19 with linespoints ls 6 title 'hard: one index per query', \
     '' using 1:15 with linespoints ls 3 title 'linear: the state S, z', \
     '' using 1:17 with linespoints ls 1 dt 2 title 'online: one block of scores'
