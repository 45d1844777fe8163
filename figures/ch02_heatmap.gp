# ch02_heatmap.gp -- the running example's attention weights, value in each cell.
fig_w = 0.8
fig_h = 1.1
load 'figures/style.gp'
@palette_attention
set cbrange [0:1]
set cbtics 0, 0.25, 1
set size ratio -1
set tmargin 1.5
set xrange [-0.5:5.5]
set yrange [5.5:-0.5]
set tics scale 0
set border 0
unset grid
set ylabel 'query'
set xlabel 'key'
plot data.'heatmap.dat' matrix rowheaders columnheaders using 1:2:3 with image pixels notitle, \
     '' matrix rowheaders columnheaders \
        using 1:2:($3 >= 0.5 ? sprintf('%.2f', $3) : '') with labels \
        tc rgb 'white' font ',12' notitle, \
     '' matrix rowheaders columnheaders \
        using 1:2:($3 < 0.5 ? sprintf('%.2f', $3) : '') with labels \
        tc rgb '#111111' font ',12' notitle
