# ch05_sparse.gp -- the sparse pattern of the chapter, n = 32: a local window
# |i - j| <= 2, a strided part (i - j) mod 8 == 0, and the two joined.
fig_w = 1.0
fig_h = 0.55
load 'figures/style.gp'
set palette defined (0 '#ffffff', 1 '#08306b')
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
set xrange [-0.5:31.5]
set yrange [31.5:-0.5]
set multiplot layout 1, 3 margins 0.05, 0.84, 0.12, 0.88 spacing 0.04, 0
files = 'mask_local mask_strided mask_sparse'
titles = "'local window' 'strided' 'local + strided'"
do for [i=1:3] {
    set title word(titles, i) offset 0, -0.6
    set xlabel 'key' offset 0, 0.6
    if (i == 1) { set ylabel 'query' offset 1.2, 0 } else { unset ylabel }
    if (i == 3) { set colorbox } else { unset colorbox }
    plot data.word(files, i).'.dat' matrix using 1:2:3 with image pixels notitle
}
unset multiplot
