# ch04_random_heads.gp -- the first eight heads of an untrained (Xavier) layer.
# Same colours as ch04_heads.gp (which is in two columns, for its token labels):
# rows are queries, columns keys.
fig_w = 1.0
fig_h = 1.0
load 'figures/style.gp'
@heatmap_style
set cbrange [0:1]
set cbtics 0, 0.25, 1 font ',9' textcolor rgb '#333333'
set border 15 lc rgb '#888888'
set autoscale xfix
set autoscale yfix
set yrange [*:*] reverse
set tics scale 0 font ',10' textcolor rgb '#333333'
set multiplot layout 2, 4 margins 0.11, 0.9, 0.14, 0.95 spacing 0.015, 0.08
do for [h=0:7] {
    set title sprintf('head %d', h + 1) offset 0, -0.7 font ',11'
    if (h >= 4) { set xlabel 'key' offset 0, 0.5 } else { unset xlabel }
    if (h % 4 == 0) { set ylabel 'query' offset -1.2, 0 } else { unset ylabel }
    set format x (h >= 4 ? '%g' : '')
    set format y (h % 4 == 0 ? '%g' : '')
    @panel_colorbox
    plot data.sprintf('random_head%d.dat', h) matrix using 1:2:3 \
         with image pixels notitle
    @panel_measure
}
unset multiplot
