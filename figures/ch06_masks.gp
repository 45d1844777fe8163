# ch06_masks.gp -- the six mask kinds on 8 tokens: dark = visible, white = hidden.
# Rows are queries, columns keys. Token ids of the padded kinds: 5 real, 3 pads.
fig_w = 1.0
fig_h = 0.75
load 'figures/style.gp'
set palette defined (0 '#ffffff', 1 '#2171b5')
set cbrange [0:1]
# the colour box of the last panel says what the two colours mean
set cbtics ('hidden' 0.25, 'visible' 0.75) scale 0
set palette maxcolors 2
unset grid
set border 15 lc rgb '#888888'
set tics scale 0
unset xtics
unset ytics
set size ratio -1
set xrange [-0.5:7.5]
set yrange [7.5:-0.5]
set multiplot layout 2, 3 margins 0.05, 0.84, char 0.5, char 2 spacing 0.04, char 2.5
names = "'causal' 'padding' 'bidirectional' 'band, w = 3' 'random, p = 0.3' 'causal AND padding'"
do for [k=0:5] {
    set title word(names, k + 1) offset 0, -0.6
    if (k == 5) { set colorbox } else { unset colorbox }
    plot data.sprintf('mask_%d.dat', k) matrix using 1:2:3 with image pixels notitle
}
unset multiplot
