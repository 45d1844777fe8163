# ch03_patterns.gp -- one constructed attention matrix per pattern class.
# Each panel: rows are queries, columns keys. The colour shows sqrt(weight),
# so that a thin, even spread (global) is still visible next to weights near 1.
fig_w = 1.0
fig_h = 0.56
load 'figures/style.gp'
@heatmap_style
set cbrange [0:1]
set cbtics ('0' 0, '0.05' sqrt(0.05), '0.25' 0.5, '1' 1)
set cbtics scale 0.5
unset colorbox
set border 15 lc rgb '#888888'
set tics scale 0
unset xtics
unset ytics
set yrange [] reverse
set multiplot layout 1, 4 margins 0.065, 0.84, 0.2, 0.88 spacing 0.025, 0
names = 'diagonal local global sparse'
do for [i=1:4] {
    name = word(names, i)
    set title name offset 0, -0.6
    set xlabel 'key' offset 0, 0.6
    if (i == 1) { set ylabel 'query' offset 1.2, 0 } else { unset ylabel }
    if (i == 4) {
        set colorbox user origin screen 0.86, screen 0.24 size screen 0.015, screen 0.62
        set cblabel 'weight' offset 0.5, 0
    }
    plot data.'pattern_'.name.'.dat' matrix using 1:2:(sqrt($3)) \
        with image pixels notitle
}
unset multiplot
