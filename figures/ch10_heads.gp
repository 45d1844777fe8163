# ch10_heads.gp -- every head of the trained GPT's first block (top row) and
# last block (bottom row) on the first tokens of a held-out quotation. Rows are
# the token attending, columns the tokens it reads (causal: none to its right).
# Token labels show a space as '_' and a double quote as '`'.
fig_w = 1.25   # fourteen tokens a side: the widest canvas the PDF allows
fig_h = 3.0
load 'figures/style.gp'
@heatmap_style
set size noratio   # cells as tall as the canvas allows: a token label per row
set cbrange [0:1]
set cbtics 0, 0.5, 1 textcolor rgb '#333333'
set border 15 lc rgb '#888888'
set tics scale 0
set xrange [-0.5:13.5]
set yrange [13.5:-0.5]
set multiplot layout 4, 2 margins 0.14, 0.88, 0.07, char 1.5 spacing 0.03, 0.04
do for [h=0:7] {
    set title sprintf('block %s, head %d', h < 4 ? 'first' : 'last', h % 4 + 1) \
        offset 0, -0.5
    if (h >= 6) { set xtics scale 0 rotate by 90 right } else { unset xtics }
    if (h % 2 == 0) { set ytics scale 0 } else { unset ytics }
    @panel_colorbox
    plot data.sprintf('att_b%d_h%d.dat', h < 4 ? 1 : 2, h % 4 + 1) matrix rowheaders \
         columnheaders using 1:2:3 with image pixels notitle
    @panel_measure
}
unset multiplot
