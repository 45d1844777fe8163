# ch02_dropout.gp -- the running example's weights after one dropout mask.
fig_w = 0.8
fig_h = 1.1
load 'figures/style.gp'
hm_n = 6
hm_dark = 0.6
hm_zero_text = ''
@labelled_heatmap_axes
set cbrange [0:1.25]
set cbtics 0, 0.25, 1.25
set tmargin 1.5
set ylabel 'query'
set xlabel 'key'
plot data.'dropout.dat' @labelled_heatmap, \
     '' matrix rowheaders columnheaders \
        using 1:2:($3 == 0 ? '×' : '') with labels \
        tc rgb '#b2182b' notitle
