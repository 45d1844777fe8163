# ch02_temperature.gp -- entropy and largest weight of softmax(S / T) against T.
load 'figures/style.gp'
set logscale x 10
set xrange [0.03:30]
set xtics ('0.03' 0.03, '0.1' 0.1, '0.3' 0.3, '1' 1, '3' 3, '10' 10, '30' 30)
set xlabel 'temperature T'
set ylabel 'mean entropy H (nats)' textcolor rgb '#0072B2'
set y2label 'mean largest weight' textcolor rgb '#D55E00'
set yrange [0:2.0]
set y2range [0:1.0]
set ytics 0, 0.25 nomirror textcolor rgb '#0072B2'
set y2tics 0, 0.2 textcolor rgb '#D55E00'
set border 11 lc rgb '#444444'
set key below   # under the axes: inside, every place is crossed by a curve
lnm = log(6)
set label 1 'ln 6: uniform' at 8, lnm + 0.08 textcolor rgb '#0072B2'
set label 2 '1/6: uniform' at first 8, second 1.0/6 - 0.045 textcolor rgb '#D55E00'
plot lnm with lines lc rgb '#0072B2' lw 1 dt 2 notitle, \
     (1.0/6) axes x1y2 with lines lc rgb '#D55E00' lw 1 dt 2 notitle, \
     data.'temperature.dat' using 1:2 with lines ls 1 title 'entropy H', \
     data.'temperature.dat' using 1:3 axes x1y2 with lines ls 2 title 'largest weight', \
     data.'temperature_points.dat' using 1:2 with points ls 1 pt 7 ps 1.0 notitle, \
     data.'temperature_points.dat' using 1:3 axes x1y2 with points ls 2 pt 5 ps 1.0 notitle
