# ch05_measured_density.gp -- the two sparse implementations at n = 512 as the
# local window widens: masking a dense matrix costs the same at any density,
# the kernel that skips hidden entries gets cheaper with it. Measured.
load 'figures/style.gp'
set logscale xy
set format y '10^{/*1.25 %T}'
set xlabel 'density of the pattern (visible / n²)'
set ylabel 'seconds per call (measured)'
set key bottom right
plot data.'measured_density.dat' using 1:2 with linespoints ls 5 title 'masked dense', \
     '' using 1:3 with linespoints ls 2 title 'sparse kernel'
