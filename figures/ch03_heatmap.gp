# ch03_heatmap.gp -- self-attention weights of "I love machine learning ."
# Rows are queries, columns are keys; each row sums to 1.
fig_w = 0.85
fig_h = 1.15
load 'figures/style.gp'
@palette_attention
cell_font = (term eq 'svg') ? ',13' : ',9'
set cbrange [0:1]
set cbtics 0, 0.2, 1
set cblabel 'attention weight'
set size ratio -1
set xrange [-0.5:4.5]
set yrange [4.5:-0.5]
set tics scale 0
unset grid
set border 0
set ylabel 'query (row i)'
set xlabel 'key (column j)'
plot data.'heatmap.dat' matrix rowheaders columnheaders using 1:2:3 \
        with image pixels notitle, \
     '' matrix rowheaders columnheaders \
        using 1:2:(sprintf('%.2f', $3)):($3 >= 0.45 ? 0xffffff : 0x1a1a1a) \
        with labels tc rgb variable font cell_font notitle
