# ch10_loss.gp -- the GPT's training and held-out loss per token (nats), round
# by round, with the add-one bigram over the same tokens as a level to beat.
load 'figures/style.gp'
set xlabel 'training step'
set ylabel 'cross-entropy per token (nats)'
set key top right
plot data.'loss.dat' using 1:2 with linespoints ls 1 title 'training loss', \
     '' using 1:3 with linespoints ls 1 dt 2 title 'held-out loss'
