# ch05_fast.gp -- three exact kernels, one idea apart, measured by this build:
# GFLOP/s (4 n^2 d / seconds) against n, one thread, the book's portable flags.
load 'figures/style.gp'
set xlabel 'sequence length n'
set ylabel 'GFLOP/s (higher is faster)'
set logscale x 2
set xtics (256, 512, 1024)
set xrange [200:1300]
set yrange [0:*]
set key below Left reverse   # inside, it covered a curve
plot data.'measured_fast.dat' using 1:4 with linespoints ls 1 title 'tiled: online softmax over cache tiles', \
     ''                     using 1:3 with linespoints ls 2 title 'online softmax, blocks of 64 keys', \
     ''                     using 1:2 with linespoints ls 3 title 'standard: the (n, n) matrix, four steps'
