# ch03_heatmap.gp -- self-attention weights of "I love machine learning ."
# Rows are queries, columns are keys; each row sums to 1.
fig_w = 0.85
fig_h = 1.15
load 'figures/style.gp'
hm_n = 5
hm_dark = 0.45
hm_font = fsize(1)
@labelled_heatmap_axes
set xtics rotate by -30 left
set cbrange [0:1]
set cbtics 0, 0.2, 1
set cblabel 'attention weight'
set ylabel 'query (row i)'
set xlabel 'key (column j)'
plot data.'heatmap.dat' @labelled_heatmap
