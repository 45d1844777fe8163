# ch07_sin_heatmap.gp -- the sinusoidal table: positions (rows) x columns.
# Left columns turn fast (short wavelengths), right columns barely move.
fig_w = 1.0
fig_h = 1.1
load 'figures/style.gp'
@palette_signed
set cbrange [-1:1]
set cbtics -1, 0.5, 1
set cblabel 'PE(pos, column)'
unset grid
set border 0
set tics scale 0
set xlabel 'column (dimension) of the encoding'
set ylabel 'position pos'
set xrange [-0.5:63.5]
set yrange [99.5:-0.5]
plot data.'sin_heatmap.dat' matrix using 1:2:3 with image pixels notitle
