# ch01_cat_weights.gp -- soft and hard attention of "cat" over its sentence.
fig_h = 0.9
load 'figures/style.gp'
set ylabel 'attention weight of "cat"'
set yrange [0:1.12]
set ytics 0.2
set xrange [-0.6:5.6]
set xtics scale 0
set grid noxtics ytics
set boxwidth 0.62
set key top right
plot data.'cat_weights.dat' using 1:3:xtic(2) with boxes lc 1 title 'soft (softmax of scores)', \
     ''                     using 1:4 with boxes fs empty border lc rgb '#D55E00' lw 2.2 dt 2 title 'hard (best word only)', \
     ''                     using 1:3:(sprintf('%.2f', $3)) with labels offset 0,0.8 notitle
