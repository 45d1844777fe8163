# ch02_saturation.gp -- softmax saturation without scaling, two panels.
fig_w = 1.0
fig_h = 0.85
load 'figures/style.gp'
set multiplot layout 1,2 margins char 6, screen 0.97, char 4.5, char 2.5 spacing 0.09, 0
set logscale x 2
set xrange [0.8:1300]
set xtics (1, 4, 16, 64, 256, 1024)
set yrange [0:1.05]
set ytics 0, 0.2, 1
set xlabel 'key dimension d_{/*1.25 k}'
set key top left
set title 'largest attention weight'
plot data.'saturation.dat' using 1:2 with linespoints ls 1 title 'raw', \
     data.'saturation.dat' using 1:3 with linespoints ls 2 title 'scaled'
set key bottom left
set title 'softmax Jacobian trace 1 − Σ p_{/*1.25 j}²'
plot data.'saturation.dat' using 1:4 with linespoints ls 1 title 'raw', \
     data.'saturation.dat' using 1:5 with linespoints ls 2 title 'scaled'
unset multiplot
