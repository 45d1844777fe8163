# ch07_rope_rotation.gp -- one vector turned by RoPE for positions 0..7:
# pair 0 (theta_0 = 1 rad per position, outer circle) and pair 2 (theta_2,
# slower, inner circle). Each pair is drawn at a fixed radius (its length
# does not change); each point is labelled with its position.
fig_w = 0.85
fig_h = 1.0
load 'figures/style.gp'
set size ratio -1
set xlabel 'first coordinate of the pair (scaled)'
set ylabel 'second coordinate (scaled)'
stats data.'rope_rotation.dat' using (sqrt($2**2 + $3**2)) nooutput
r0 = STATS_max
stats data.'rope_rotation.dat' using (sqrt($4**2 + $5**2)) nooutput
r2 = STATS_max
ri = 0.6
set xrange [-1.3:1.3]
set yrange [-1.3:1.3]
set xtics -1, 0.5, 1
set ytics -1, 0.5, 1
set parametric
set trange [0:2*pi]
set key outside right top
plot cos(t), sin(t) with lines lc rgb '#bbbbbb' lw 1 notitle, \
     ri*cos(t), ri*sin(t) with lines lc rgb '#bbbbbb' lw 1 notitle, \
     data.'rope_rotation.dat' using (0):(0):($2/r0):($3/r0) with vectors nohead ls 1 lw 0.8 notitle, \
     '' using ($2/r0):($3/r0) with points ls 1 title 'pair 0', \
     '' using ($2/r0*1.13):($3/r0*1.13):(sprintf('%d', $1)) with labels tc ls 1 notitle, \
     '' using ($4/r2*ri):($5/r2*ri) with points ls 2 title 'pair 2', \
     '' using ($4/r2*ri*0.75):($5/r2*ri*0.75):(sprintf('%d', $1)) with labels tc ls 2 notitle
