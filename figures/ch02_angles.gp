# ch02_angles.gp -- the angle between random q and k concentrates at 90 degrees.
load 'figures/style.gp'
set xrange [0:180]
set xtics 0, 30, 180 format '%g°'
set yrange [0:*]
set xlabel 'angle between q and k'
set ylabel 'fraction of pairs per degree'
set key top right
plot data.'angles.dat' using 1:2 with lines ls 1 title 'd_{/*1.25 k} = 4', \
     data.'angles.dat' using 1:4 with lines ls 2 title 'd_{/*1.25 k} = 64', \
     data.'angles.dat' using 1:5 with lines ls 3 title 'd_{/*1.25 k} = 256'
