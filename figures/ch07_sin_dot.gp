# ch07_sin_dot.gp -- PE(p) . PE(p + k) against the distance k, from two
# starting positions and from the formula sum_i cos(k w_i).
load 'figures/style.gp'
set xlabel 'distance k'
set ylabel 'dot product'
set xrange [0:99]
set key top right
plot data.'sin_dot.dat' using 1:4 with lines ls 1 \
         title 'sum_{/*1.25 i} cos(k w_{/*1.25 i})', \
     '' using 1:2 with points ls 2 pt 7 ps 0.6 title 'PE(0) · PE(k)', \
     '' using 1:3 with points ls 3 pt 6 ps 0.9 title 'PE(50) · PE(50 + k)'
