# ch01_nw_heatmap.gp -- the weight matrix: queries (rows) over training points.
fig_w = 1.0
fig_h = 1.0
load 'figures/style.gp'
@palette_attention
set xlabel 'training point j (sorted by x_{/*1.25 j})'
set ylabel 'query x'
set cblabel 'weight'
set rmargin 12   # room for the colour box, its ticks and its label
set grid noxtics noytics
set border 15
set tics out
set xrange [-0.5:*]
set yrange [5.025:-0.025]   # query 0 at the top, as every heatmap of the book
set autoscale xfixmax
set cbrange [0:*]
plot data.'nw_weights.dat' matrix using 1:($2*0.05):($3 < 0.002 ? NaN : $3) with image pixels notitle
