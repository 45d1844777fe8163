# ch02_heatmap.gp -- the running example's attention weights, value in each cell.
fig_w = 0.8
fig_h = 1.1
load 'figures/style.gp'
hm_n = 6
@labelled_heatmap_axes
set cbrange [0:1]
set cbtics 0, 0.25, 1
set tmargin 1.5
set ylabel 'query'
set xlabel 'key'
plot data.'heatmap.dat' @labelled_heatmap
