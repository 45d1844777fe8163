# ch01_note_gap.gp -- how much of the first word survives in a fixed-size note.
load 'figures/style.gp'
set xlabel 'words read'
set ylabel 'effect of the first word (1 = full)'
set logscale y
set format y '10^{/*1.25 %L}'
set yrange [1e-8:3]
set xrange [1:64]
set xtics (1, 8, 16, 24, 32, 40, 48, 56, 64)
set key bottom left Left reverse
plot data.'note_gap.dat' using 1:3 with lines ls 3 dt 2 title 'kept first state (attention can read it)', \
     ''                 using 1:2 with linespoints ls 1 pi 4 title 'running note of 8 numbers'
