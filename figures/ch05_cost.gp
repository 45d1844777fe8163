# ch05_cost.gp -- multiply-adds of each variant against the sequence length n,
# counted by formula (d_k = d_v = 32): the deterministic side of the comparison.
load 'figures/style.gp'
set logscale xy
set format x '%g'
set format y '10^{/*1.25 %T}'
set ytics 100   # every other power of ten: a label per decade would touch the next
set xlabel 'sequence length n'
set ylabel 'multiply-adds per call'
set key below Left reverse
set xrange [16:8192]
set xtics (16, 64, 256, 1024, 4096)
plot data.'costs.dat' using 1:2 with linespoints ls 1 title 'standard, masked, relative, online', \
     '' using 1:10 with linespoints ls 6 title 'hard (scores only)', \
     '' using 1:4 with linespoints ls 2 title 'sparse: window + stride ≈ √n', \
     '' using 1:5 with linespoints ls 4 title 'local window', \
     '' using 1:6 with linespoints ls 3 title 'linear (and causal linear)'
