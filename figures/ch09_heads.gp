# ch09_heads.gp -- every cross-attention head of the trained Transformer on one
# short test sentence: decoder block 1 in the top row, block 2 below, heads 1-4
# across. Rows of a panel are output words, columns source words (EOS = the
# source's end marker). One colour bar for all panels.
fig_w = 1.0
fig_h = 1.0
load 'figures/style.gp'
@heatmap_style
set cbrange [0:1]
set cbtics 0, 0.5, 1 font ',10' textcolor rgb '#333333'
set border 15 lc rgb '#888888'
set tics scale 0 font ',8'
set xrange [-0.5:9.5]
set yrange [9.5:-0.5]
set multiplot layout 2, 4 margins 0.08, 0.9, 0.12, 0.93 spacing 0.015, 0.08
do for [h=0:7] {
    set title sprintf('block %d, head %d', h / 4 + 1, h % 4 + 1) font ',10' offset 0, -0.5
    if (h >= 4) { set xtics scale 0 rotate by 90 right font ',8' } else { unset xtics }
    if (h % 4 == 0) { set ytics scale 0 font ',8' } else { unset ytics }
    @panel_colorbox
    plot data.sprintf('cross_b%d_h%d.dat', h / 4 + 1, h % 4 + 1) matrix rowheaders \
         columnheaders using 1:2:3 with image pixels notitle
    @panel_measure
}
unset multiplot
