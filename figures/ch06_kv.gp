# ch06_kv.gp -- multiply-adds to produce the t-th token of one layer
# (d_model = 512), with and without a KV cache.
fig_w = 1.0
fig_h = 0.7
load 'figures/style.gp'
set logscale xy
set format y '10^{/*1.25 %L}'
set xlabel 'position t of the new token'
set ylabel 'multiply-adds'
set key below Left reverse
set xrange [1:1024]
plot data.'kv_macs.dat' using 1:3 with linespoints ls 2 title 'without cache (rerun the prefix)', \
     data.'kv_macs.dat' using 1:2 with linespoints ls 1 title 'with KV cache'
