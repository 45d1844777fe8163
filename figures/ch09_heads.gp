# ch09_heads.gp -- every cross-attention head of the trained Transformer on one
# short test sentence: decoder block 1 in the top row, block 2 below, heads 1-4
# across. Rows of a panel are output words, columns source words (EOS = the
# source's end marker). One colour bar for all panels.
fig_w = 1.0
fig_h = 2.6
load 'figures/style.gp'
@heatmap_style
set cbrange [0:1]
set cbtics 0, 0.5, 1 textcolor rgb '#333333'
set border 15 lc rgb '#888888'
set tics scale 0
set xrange [-0.5:9.5]
set yrange [9.5:-0.5]
set multiplot layout 4, 2 margins 0.14, 0.88, 0.07, char 1.5 spacing 0.03, 0.04
do for [h=0:7] {
    set title sprintf('block %d, head %d', h / 4 + 1, h % 4 + 1) offset 0, -0.5
    if (h >= 6) { set xtics scale 0 rotate by 90 right } else { unset xtics }
    if (h % 2 == 0) { set ytics scale 0 } else { unset ytics }
    @panel_colorbox
    plot data.sprintf('cross_b%d_h%d.dat', h / 4 + 1, h % 4 + 1) matrix rowheaders \
         columnheaders using 1:2:3 with image pixels notitle
    @panel_measure
}
unset multiplot
