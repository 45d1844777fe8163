# ch07_alibi_reach.gp -- with no content (q = k = 0), the weight the last of
# 256 queries gives to each distance, one line per ALiBi head. A linear bias
# is a straight line on this logarithmic scale.
load 'figures/style.gp'
set logscale y
set format y '10^{/*1.25 %L}'
set xlabel 'distance i - j'
set ylabel 'attention weight'
set xrange [0:255]
set yrange [1e-8:1]
set key outside right top title 'head'
set linetype 7 lc rgb '#000000' lw 2 dt 2
set linetype 8 lc rgb '#777777' lw 2 dt 3
plot for [h=1:8] data.'alibi_reach.dat' using 1:(column(h + 1)) with lines lt h \
     title sprintf('%d', h)
