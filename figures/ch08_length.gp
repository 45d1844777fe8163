# ch08_length.gp -- exact match on the test sentences against source length:
# the baseline squeezes the sentence into one vector and falls; the attention
# model looks back at the source and stays flat.
load 'figures/style.gp'
set xlabel 'source length (words)'
set ylabel 'exact match on the test set'
set yrange [0:1.05]
set key center right
plot data.'length.dat' using 1:3 with linespoints ls 1 title 'GRU + attention', \
     '' using 1:4 with linespoints ls 2 title 'GRU, fixed context (no attention)'
