# ch06_depth.gp -- how far information can travel through L stacked layers.
# Left: mean number of positions a query can draw on (boolean reachability).
# Right: mean distance a unit of attention weight travels through W^L.
# The key of both panels is a row of its own under them, across the canvas.
fig_w = 1.0
fig_h = 1.0
load 'figures/style.gp'
names = 'causal padding bidirectional band random causal+pad'
key_h = 0.2   # the key's strip at the bottom, a fraction of the canvas
set multiplot
# margins in characters: the x labels and the titles keep their room in
# either output
set bmargin 3.5
set tmargin 2.5
set lmargin 6
set rmargin 1.5
unset key
set xlabel 'layers L'
set xrange [1:8]
set size 0.5, 1 - key_h
set origin 0, key_h
set title 'receptive field (positions)'
plot for [k=0:5] data.'depth.dat' using 1:(column(2 + 2 * k)) with linespoints \
     ls (k + 1) notitle
set origin 0.5, key_h
set title 'mean distance travelled'
plot for [k=0:5] data.'depth.dat' using 1:(column(3 + 2 * k)) with linespoints \
     ls (k + 1) notitle
# the key: an empty plot across the bottom strip, its samples only
set size 1, key_h
set origin 0, 0
set margins 0, 0, 0, 0
unset title; unset xlabel; unset tics; unset border; unset grid
set xrange [0:1]; set yrange [0:1]
set key center center horizontal maxrows 2 samplen 1.5 width 1
plot for [k=1:6] 2 with linespoints ls k title word(names, k)
unset multiplot
