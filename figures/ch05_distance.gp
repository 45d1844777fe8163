# ch05_distance.gp -- the clipped relative distance clip(j - i, -k, k) that
# relative-position attention looks up, n = 8 tokens, k_max = 3.
fig_w = 0.8
fig_h = 1.1
load 'figures/style.gp'
@palette_signed
set cbrange [-3.5:3.5]
set cbtics -3, 1, 3
set cblabel 'clipped offset j - i'
set size ratio -1
set tmargin 1.5
set xrange [-0.5:7.5]
set yrange [7.5:-0.5]
set xtics 0, 1, 7
set ytics 0, 1, 7
set tics scale 0
set border 0
unset grid
set ylabel 'query i'
set xlabel 'key j'
plot data.'distance.dat' matrix using 1:2:3 with image pixels notitle, \
     '' matrix using 1:2:(sprintf('%d', $3)) with labels tc rgb '#111111' notitle
