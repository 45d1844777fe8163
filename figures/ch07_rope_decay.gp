# ch07_rope_decay.gp -- RoPE scores fade with the distance m - n: Su et al.'s
# bound (divided by its value at distance 0) and the score of q = k = (1,...,1)
# divided by |q||k|.
load 'figures/style.gp'
set xlabel 'relative distance m - n'
set ylabel 'relative size'
set xrange [0:512]
set yrange [-0.1:1.05]
set key top right
plot data.'rope_decay.dat' using 1:3 with lines ls 1 title 'bound / bound at 0', \
     '' using 1:4 with lines ls 2 lw 1.2 title 'score of q = k = (1, ..., 1)'
