# ch05_linear_error.gp -- softmax vs linear attention on the same inputs as the
# scale s of the queries and keys grows: the mean row entropy of each weight
# matrix (left axis) and the largest output difference (right axis).
fig_h = 1.25   # the right axis label is as long as the axis
load 'figures/style.gp'
set logscale x 2
set xrange [0.2:5]
set xtics (0.25, 0.5, 1, 2, 4)
set xlabel 'scale s of the queries and keys'
set ylabel 'mean row entropy (nats)'
set y2label 'max |softmax out - linear out|'
set yrange [0:4.5]
set y2range [0:4.5]
set ytics nomirror
set y2tics
set key below Left reverse
plot data.'linear_error.dat' using 1:5 with lines dt 2 lc rgb '#999999' title 'uniform weights: ln n', \
     '' using 1:2 with linespoints ls 1 title 'entropy, softmax', \
     '' using 1:3 with linespoints ls 3 title 'entropy, linear (elu + 1)', \
     '' using 1:4 axes x1y2 with linespoints ls 2 title 'output difference (right)'
