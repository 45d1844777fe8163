# ch01_nw_mse.gp -- error against the kernel width.
load 'figures/style.gp'
best = recorded('nw_best_h') + 0
set xlabel 'kernel width h'
set ylabel 'mean squared error'
set logscale x
set xrange [0.01:10]
set yrange [0:1.4]
set key top left Left reverse
set arrow from best, graph 0 to best, graph 1 nohead lc rgb '#999999' dt 3
set label sprintf('best h = %.2f', best) at best, graph 0.6 offset 0.6,0 tc rgb '#555555'
plot data.'nw_mse.dat' using 1:3 with lines ls 1 title 'test: prediction vs truth f(x)', \
     ''               using 1:2 with lines ls 2 \
         title 'train: fit to the noisy y_{/*1.25 j}'
