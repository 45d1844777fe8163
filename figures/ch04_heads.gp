# ch04_heads.gp -- the eight planted heads of one multi-head layer, side by side.
# Each panel: rows are queries, columns keys, darker = more weight. Token
# labels on the left column and the bottom row only; one colour bar for all.
fig_w = 1.0
fig_h = 1.0
load 'figures/style.gp'
@heatmap_style
set cbrange [0:1]
set cbtics 0, 0.25, 1 font ',9' textcolor rgb '#333333'
set border 15 lc rgb '#888888'
set xrange [-0.5:7.5]
set yrange [7.5:-0.5]
set multiplot layout 2, 4 margins 0.1, 0.9, 0.19, 0.95 spacing 0.015, 0.07
names = "'previous' 'next' 'self' 'to \".\"' 'it → noun' 'verb → noun' 'broad' 'random'"
do for [h=0:7] {
    set title sprintf('%d %s', h + 1, word(names, h + 1)) offset 0, -0.7 font ',11'
    if (h >= 4) {
        set xtics scale 0 rotate by 90 right font ',10' textcolor rgb '#333333'
    } else { unset xtics }
    if (h % 4 == 0) {
        set ytics scale 0 font ',10' textcolor rgb '#333333'
    } else { unset ytics }
    @panel_colorbox
    plot data.sprintf('planted_head%d.dat', h) matrix rowheaders columnheaders \
         using 1:2:3 with image pixels notitle
    @panel_measure
}
unset multiplot
