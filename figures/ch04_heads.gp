# ch04_heads.gp -- the eight planted heads of one multi-head layer, in two columns
# (large enough that the token labels stay readable on a phone).
# Each panel: rows are queries, columns keys, darker = more weight. Token
# labels on the left column and the bottom row only; one colour bar for all.
fig_w = 1.0
fig_h = 2.1
load 'figures/style.gp'
@heatmap_style
set cbrange [0:1]
set cbtics 0, 0.25, 1 textcolor rgb '#333333'
set border 15 lc rgb '#888888'
set xrange [-0.5:7.5]
set yrange [7.5:-0.5]
set multiplot layout 4, 2 margins 0.16, 0.86, char 5.5, char 1.5 spacing 0.03, 0.045
names = "'previous' 'next' 'self' 'to \".\"' 'it → noun' 'verb → noun' 'broad' 'random'"
do for [h=0:7] {
    set title sprintf('%d %s', h + 1, word(names, h + 1)) offset 0, -0.7
    if (h >= 6) {
        set xtics scale 0 rotate by 90 right textcolor rgb '#333333'
    } else { unset xtics }
    if (h % 2 == 0) {
        set ytics scale 0 textcolor rgb '#333333'
    } else { unset ytics }
    # one colour bar for all panels, as tall as the four rows (measured on the way)
    if (h == 7) { set colorbox user origin 0.89, cb_bottom size 0.025, cb_top - cb_bottom } else { unset colorbox }
    plot data.sprintf('planted_head%d.dat', h) matrix rowheaders columnheaders \
         using 1:2:3 with image pixels notitle
    if (h == 0) { cb_top = 1.0 * GPVAL_TERM_YMAX * GPVAL_TERM_SCALE / GPVAL_TERM_YSIZE }
    if (h == 6) { cb_bottom = 1.0 * GPVAL_TERM_YMIN * GPVAL_TERM_SCALE / GPVAL_TERM_YSIZE }
}
unset multiplot
