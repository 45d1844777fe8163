# ch02_spread.gp -- spread of q.k with and without the 1/sqrt(d_k) scaling.
load 'figures/style.gp'
set logscale xy 2
set xrange [0.8:1300]
set yrange [0.35:256]
set xtics (1, 4, 16, 64, 256, 1024)
set ytics ('0.5' 0.5, '1' 1, '2' 2, '4' 4, '8' 8, '16' 16, '32' 32, '64' 64, '128' 128)
set xlabel 'key dimension d_{/*1.25 k}'
set ylabel 'q·k over all random pairs'
set key below Left reverse
plot sqrt(x) with lines lc rgb '#999999' lw 1.5 dt 2 title '√d_{/*1.25 k} (theory)', \
     data.'spread.dat' using 1:3 with linespoints ls 1 title 'raw q·k: std', \
     data.'spread.dat' using 1:4 with linespoints ls 1 dt 3 pt 6 title 'raw q·k: max', \
     data.'spread.dat' using 1:6 with linespoints ls 2 title 'scaled: std', \
     data.'spread.dat' using 1:7 with linespoints ls 2 dt 3 pt 4 title 'scaled: max'
