# ch04_random_heads.gp -- the first eight heads of an untrained (Xavier) layer.
# Same colours as ch04_heads.gp (which is in two columns, for its token labels):
# rows are queries, columns keys.
fig_w = 1.0
fig_h = 2.4
load 'figures/style.gp'
@heatmap_style
set cbrange [0:1]
set cbtics 0, 0.25, 1 textcolor rgb '#333333'
set border 15 lc rgb '#888888'
set autoscale xfix
set autoscale yfix
set yrange [*:*] reverse
set tics scale 0 textcolor rgb '#333333'
set multiplot layout 4, 2 margins 0.14, 0.88, 0.07, char 1.5 spacing 0.03, 0.04
do for [h=0:7] {
    set title sprintf('head %d', h + 1) offset 0, -0.7
    if (h >= 6) { set xlabel 'key' offset 0, 0.5 } else { unset xlabel }
    if (h % 2 == 0) { set ylabel 'query' offset -1.2, 0 } else { unset ylabel }
    set format x (h >= 6 ? '%g' : '')
    set format y (h % 2 == 0 ? '%g' : '')
    @panel_colorbox
    plot data.sprintf('random_head%d.dat', h) matrix using 1:2:3 \
         with image pixels notitle
    @panel_measure
}
unset multiplot
