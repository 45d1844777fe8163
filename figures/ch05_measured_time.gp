# ch05_measured_time.gp -- wall-clock seconds per call against n, measured by
# the build on its own machine (see the "measured time" output for which one).
# A missing point ('?') was not measured: the O(n^2) variants stop early.
load 'figures/style.gp'
set logscale xy
set format x '%g'
set format y '10^{/*1.25 %T}'
set xlabel 'sequence length n'
set ylabel 'seconds per call (measured)'
set key outside right top Left reverse width -4
set xrange [16:8192]
set xtics (16, 64, 256, 1024, 4096)
plot data.'measured_time.dat' using 1:2 with linespoints ls 1 title 'standard', \
     '' using 1:3 with linespoints ls 5 title 'sparse as a mask', \
     '' using 1:8 with linespoints ls 1 dt 2 title 'online (blocks of 64)', \
     '' using 1:10 with linespoints ls 6 title 'hard', \
     '' using 1:4 with linespoints ls 2 title 'sparse kernel', \
     '' using 1:5 with linespoints ls 4 title 'local kernel', \
     '' using 1:6 with linespoints ls 3 title 'linear'
