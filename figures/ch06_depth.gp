# ch06_depth.gp -- how far information can travel through L stacked layers.
# Left: mean number of positions a query can draw on (boolean reachability).
# Right: mean distance a unit of attention weight travels through W^L.
fig_w = 1.0
fig_h = 0.75
load 'figures/style.gp'
set multiplot layout 1, 2 margins 0.07, 0.8, 0.24, 0.84 spacing 0.09, 0
set xlabel 'layers L'
set xrange [1:8]
set key at screen 0.82, screen 0.75 left top vertical samplen 1.5
set title 'receptive field (positions)'
plot for [k=0:5] data.'depth.dat' using 1:(column(2 + 2 * k)) with linespoints \
     ls (k + 1) title word('causal padding bidirectional band random causal+pad', k + 1)
set title 'mean distance travelled'
unset key
plot for [k=0:5] data.'depth.dat' using 1:(column(3 + 2 * k)) with linespoints \
     ls (k + 1) notitle
unset multiplot
