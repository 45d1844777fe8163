# ch04_flops.gp -- where the multiply-adds of one encoder block go as the
# sequence grows (d_model = 512, d_ff = 2048): the projections and the FFN grow
# like n, the attention core (Q K^T and weights V) like n^2.
fig_h = 1.3
load 'figures/style.gp'
set logscale xy
set format x '%g'
set format y '10^{/*1.25 %T}'
set xlabel 'sequence length n (tokens)'
set ylabel 'FLOPs'
set key below Left reverse spacing 1.3   # over no line; room for the superscripts
set xrange [16:16384]
set xtics (16, 64, 256, 1024, 4096, 16384)
plot data.'flops.dat' using 1:2 with linespoints ls 1 \
         title 'projections W_{/*1.25 Q}, W_{/*1.25 K}, W_{/*1.25 V}, W_{/*1.25 O}  (8 n d²)', \
     '' using 1:4 with linespoints ls 3 title 'feed-forward  (4 n d d_{/*1.25 ff} )', \
     '' using 1:3 with linespoints ls 2 title 'attention core Q Kᵀ, A V  (4 n² d)'
