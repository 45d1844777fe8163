# ch01_it_weights.gp -- where the query "it" looks, for two endings.
fig_h = 0.95
load 'figures/style.gp'
set ylabel 'attention weight of "it"'
set yrange [0:0.9]
set ytics 0.1
set xtics rotate by -35 left scale 0
set rmargin 7
set grid noxtics ytics
set style data histograms
set style histogram clustered gap 1.5
set boxwidth 0.9 relative
set key top right
plot data.'it_weights.dat' using 3:xtic(2) lc 1 title '... because it was too tired', \
     ''                    using 4         lc 2 title '... because it was too wide'
